#!/usr/bin/env python3
"""A south plugin of the Python SDK that the gateway's tests write to and
operate, as testdata/probeplugin in Go: each write and each operation is
emitted as a reading of asset "control" whose values are {"call": "write"
or the operation, "asset": the asset written, "values": the values or
parameters}. Writing datapoint "readonly" is refused (NotWritable),
operation "jam" fails as a device would and any operation but "reset" and
"jam" is unknown (NoOperation)."""

import queue

from edged_plugin import NoOperation, NotWritable, Reading, SouthPlugin, serve


class Probe(SouthPlugin):
    name, version = "pyprobe", "1.0.0"
    description = "Records control calls as readings"

    def __init__(self) -> None:
        super().__init__()
        self.calls: "queue.Queue[Reading]" = queue.Queue()

    def run(self, emit, stopped) -> None:
        while not stopped.is_set():
            try:
                emit([self.calls.get(timeout=0.1)])
            except queue.Empty:
                pass

    def write(self, asset, values):
        if "readonly" in values:
            raise NotWritable("datapoint not writable: readonly")
        self.calls.put(Reading("control", {"call": "write", "asset": asset, "values": values}))

    def operate(self, operation, parameters):
        if operation == "jam":
            raise OSError("the probe's valve is jammed")
        if operation != "reset":
            raise NoOperation(f"operation not supported: {operation!r}")
        self.calls.put(Reading("control", {"call": operation, "asset": "", "values": parameters}))


if __name__ == "__main__":
    serve(Probe())
