"""A Modbus TCP server from pymodbus, for the modbus plugin's tests.

Usage: modbus_server.py PORT

Serves unit id 1 on 127.0.0.1:PORT with fixed coils, discrete inputs,
holding and input registers (see REGISTERS below), prints "READY" once it
listens, and then one JSON line per write request it receives:
{"function": code, "address": first address, "values": [...]}.
Registers are laid out here with struct, big-endian, high word first, so
that the plugin's decoding is checked against an independent encoding.
"""

import asyncio
import json
import struct
import sys

from pymodbus.server import ModbusTcpServer
from pymodbus.simulator import DataType, SimData, SimDevice


def words(fmt, value):
    """Registers holding value packed big-endian (high word first)."""
    raw = struct.pack(">" + fmt, value)
    return list(struct.unpack(">%dH" % (len(raw) // 2), raw))


# Holding registers: address → value, as the tests expect them.
HOLDING = (
    words("h", -123)  # 0: int16
    + words("H", 40000)  # 1: uint16
    + words("i", -70000)  # 2-3: int32
    + words("I", 3000000000)  # 4-5: uint32
    + words("f", 21.5)  # 6-7: float32
    + words("d", -3.25)  # 8-11: float64
    + words("f", 1.5)[::-1]  # 12-13: float32, low word first
    + [0] * 6  # 14-19: setpoints
)
INPUT = [7, 100]
COILS = [True, False, True]
DISCRETE = [False, True]


async def action(function_code, start_address, address, count, current_registers, set_values):
    """Reports each write request on stdout."""
    if set_values is not None:
        print(json.dumps({"function": function_code, "address": address,
                          "values": [v if isinstance(v, bool) else int(v) for v in set_values]}), flush=True)
    return None


async def main(port):
    device = SimDevice(
        id=1,
        simdata=(
            [SimData(address=0, values=COILS, datatype=DataType.BITS)],
            [SimData(address=0, values=DISCRETE, datatype=DataType.BITS)],
            [SimData(address=0, values=HOLDING, datatype=DataType.REGISTERS)],
            [SimData(address=0, values=INPUT, datatype=DataType.REGISTERS)],
        ),
        action=action,
    )
    server = ModbusTcpServer(device, address=("127.0.0.1", port))
    await server.serve_forever(background=True)
    # Listening: tell the test, then serve until killed.
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            break
        except OSError:
            await asyncio.sleep(0.05)
    print("READY", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
