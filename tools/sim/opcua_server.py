"""An OPC UA server from asyncua, for the opcua plugin's tests.

Usage: opcua_server.py PORT CERTDIR [USER:PASSWORD]

Serves opc.tcp://127.0.0.1:PORT/edged/ with the security policies None,
Basic256Sha256 Sign and Basic256Sha256 SignAndEncrypt (its certificate is
generated into CERTDIR), anonymous and user name identities (with
USER:PASSWORD only that user name is accepted), and in namespace
urn:edged:sim the folder Objects/Plant holding Temperature (Double 20.5),
Counter (Int32 7), Running (Boolean true), Label (String "ok") and
Setpoint (Double 0, writable), and the object Objects/Machine with the
methods Reset(counter: Int32), which sets Counter and prints
"RESET <counter>", Halt(), which always fails with BadInvalidState, and
Hold(), which prints "HOLDING" and answers only once "release" has been read
on stdin (a device slow to answer, on cue; calls after it answer at once).
It prints READY once it serves. On stdin
"set NAME VALUE" sets a variable (keeping its type) and prints "SET NAME";
every change of Setpoint, a client's write included, prints
"VALUE Setpoint <value>".
"""

import asyncio
import sys
from pathlib import Path

from asyncua import Server, ua, uamethod
from asyncua.crypto.cert_gen import setup_self_signed_certificate
from asyncua.crypto.permission_rules import User, UserRole
from cryptography.x509.oid import ExtendedKeyUsageOID

URI = "urn:edged:sim"


class Users:
    """Anonymous callers are welcome; a user name must match, if one is set."""

    def __init__(self, credentials):
        self.credentials = credentials

    def get_user(self, iserver, username=None, password=None, certificate=None):
        if username is None:
            return User(role=UserRole.User)
        if self.credentials is None or (username, password) == self.credentials:
            return User(role=UserRole.User, name=username)
        return None


async def main(port, certdir, credentials):
    certdir = Path(certdir)
    key, cert = certdir / "server-key.pem", certdir / "server-cert.der"
    await setup_self_signed_certificate(key, cert, "urn:edged:sim:server", "127.0.0.1",
                                        [ExtendedKeyUsageOID.SERVER_AUTH], {"commonName": "edged sim"})
    server = Server(user_manager=Users(credentials))
    await server.init()
    server.set_endpoint(f"opc.tcp://127.0.0.1:{port}/edged/")
    server.set_server_name("edged OPC UA simulator")
    await server.set_application_uri("urn:edged:sim:server")
    server.set_security_policy([
        ua.SecurityPolicyType.NoSecurity,
        ua.SecurityPolicyType.Basic256Sha256_Sign,
        ua.SecurityPolicyType.Basic256Sha256_SignAndEncrypt,
    ])
    server.set_identity_tokens([ua.AnonymousIdentityToken, ua.UserNameIdentityToken])
    await server.load_certificate(str(cert))
    await server.load_private_key(str(key))
    idx = await server.register_namespace(URI)
    plant = await server.nodes.objects.add_folder(ua.NodeId("Plant", idx), "Plant")
    variables = {}
    for name, value, vtype in [
        ("Temperature", 20.5, ua.VariantType.Double),
        ("Counter", 7, ua.VariantType.Int32),
        ("Running", True, ua.VariantType.Boolean),
        ("Label", "ok", ua.VariantType.String),
        ("Setpoint", 0.0, ua.VariantType.Double),
    ]:
        var = await plant.add_variable(ua.NodeId("Plant." + name, idx), name, ua.Variant(value, vtype))
        variables[name] = (var, vtype)
    await variables["Setpoint"][0].set_writable()

    counter = variables["Counter"][0]

    @uamethod
    async def reset(parent, value):
        await counter.write_value(ua.Variant(value, ua.VariantType.Int32))
        print(f"RESET {value}", flush=True)

    @uamethod
    def halt(parent):
        return ua.StatusCode(ua.StatusCodes.BadInvalidState)

    released = asyncio.Event()

    @uamethod
    async def hold(parent):
        print("HOLDING", flush=True)
        await released.wait()
        print("RELEASED", flush=True)

    machine = await server.nodes.objects.add_object(ua.NodeId("Machine", idx), "Machine")
    await machine.add_method(ua.NodeId("Machine.Reset", idx), "Reset", reset,
                             [ua.Argument(Name="counter", DataType=ua.NodeId(ua.ObjectIds.Int32), ValueRank=-1,
                                          Description=ua.LocalizedText("the counter's new value"))], [])
    await machine.add_method(ua.NodeId("Machine.Halt", idx), "Halt", halt, [], [])
    await machine.add_method(ua.NodeId("Machine.Hold", idx), "Hold", hold, [], [])

    async with server:
        print("READY", flush=True)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        asyncio.create_task(watch(variables["Setpoint"][0]))
        while True:
            line = await reader.readline()
            if not line:
                await asyncio.Event().wait()  # stdin closed: serve until killed
            parts = line.decode().split()
            if parts == ["release"]:
                released.set()
            elif len(parts) == 3 and parts[0] == "set" and parts[1] in variables:
                var, vtype = variables[parts[1]]
                raw = parts[2]
                value = {ua.VariantType.Double: float, ua.VariantType.Int32: int,
                         ua.VariantType.Boolean: lambda s: s == "true", ua.VariantType.String: str}[vtype](raw)
                await var.write_value(ua.Variant(value, vtype))
                print("SET " + parts[1], flush=True)


async def watch(node):
    last = None
    while True:
        value = await node.read_value()
        if value != last:
            print(f"VALUE Setpoint {value}", flush=True)
            last = value
        await asyncio.sleep(0.05)


if __name__ == "__main__":
    creds = tuple(sys.argv[3].split(":", 1)) if len(sys.argv) > 3 else None
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], creds))
