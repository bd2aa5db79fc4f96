"""Tests of the Python SDK's north and filter plugins over the real gRPC
contract, in process through server()."""

import json
from datetime import datetime, timezone

import grpc
import pytest

from edged_plugin import FilterPlugin, Item, NorthPlugin, Reading, Restart, server
from edged_plugin.pb import plugin_pb2, plugin_pb2_grpc


class Sink(NorthPlugin):
    name, version, description = "sink", "1.2.3", "Keeps what it is sent"
    items = {"capacity": Item("Readings it takes in all", type="integer", default="3")}
    persists = True

    def __init__(self):
        super().__init__()
        self.got = []

    def reconfigure(self, config):
        if config.get("capacity") == "restart":
            raise Restart()
        super().reconfigure(config)

    def send(self, readings):
        if readings and readings[0].asset == "broken":
            raise ConnectionError("the destination is down")
        room = int(self.config["capacity"]) - len(self.got)
        self.got += readings[:room]
        return min(room, len(readings))

    def state(self):
        return {"kept": len(self.got)}


class Double(FilterPlugin):
    name, version, description = "double", "1.0.0", "Doubles v"

    def ingest(self, readings):
        if any(r.asset == "bad" for r in readings):
            raise ValueError("cannot filter bad")
        return [Reading(r.asset, {"v": r.values["v"] * 2}, r.timestamp) for r in readings]


def serving(plugin):
    srv, port, _ = server(plugin)
    return srv, grpc.insecure_channel(f"127.0.0.1:{port}")


@pytest.fixture
def sink():
    p = Sink()
    srv, ch = serving(p)
    yield p, ch
    ch.close()
    srv.stop(None)


@pytest.fixture
def double():
    srv, ch = serving(Double())
    yield ch
    ch.close()
    srv.stop(None)


def test_reading_round_trip_keeps_microseconds():
    ts = datetime(2026, 5, 6, 7, 8, 9, 123456, timezone.utc)
    pb = Reading("a", {"x": 1}, ts).to_pb()
    assert pb.timestamp_unix_nano == 1778051289123456000
    back = Reading.from_pb(pb)
    assert (back.asset, back.values, back.timestamp) == ("a", {"x": 1}, ts)


def test_north_describes_and_accepts_what_fits(sink):
    p, ch = sink
    d = plugin_pb2_grpc.PluginStub(ch).Describe(plugin_pb2.DescribeRequest())
    assert (d.name, d.version, d.kind, d.persists) == ("sink", "1.2.3", "north", True)
    north = plugin_pb2_grpc.NorthStub(ch)
    north.Start(plugin_pb2.StartRequest(service="s", config={"capacity": "3"}))
    batch = [Reading("a", {"v": i}).to_pb() for i in range(5)]
    reply = north.Send(plugin_pb2.SendRequest(readings=batch))
    assert (reply.accepted, reply.error) == (3, "")
    assert [r.values["v"] for r in p.got] == [0, 1, 2]
    assert json.loads(north.State(plugin_pb2.StateRequest()).state) == {"kept": 3}
    assert north.Reconfigure(plugin_pb2.ReconfigureRequest(config={"capacity": "restart"})).restart


def test_north_failure_accepts_none(sink):
    _, ch = sink
    north = plugin_pb2_grpc.NorthStub(ch)
    north.Start(plugin_pb2.StartRequest(service="s", config={"capacity": "3"}))
    reply = north.Send(plugin_pb2.SendRequest(readings=[Reading("broken", {"v": 1}).to_pb()]))
    assert (reply.accepted, reply.error) == (0, "the destination is down")


def test_filter_passes_readings_through_ingest(double):
    d = plugin_pb2_grpc.PluginStub(double).Describe(plugin_pb2.DescribeRequest())
    assert (d.name, d.kind) == ("double", "filter")
    f = plugin_pb2_grpc.FilterStub(double)
    f.Start(plugin_pb2.StartRequest(service="s", config={}))
    ts = datetime(2026, 1, 1, tzinfo=timezone.utc)
    reply = f.Ingest(plugin_pb2.IngestRequest(readings=[Reading("a", {"v": 21}, ts).to_pb()]))
    assert [(r.asset, json.loads(r.values_json)) for r in reply.readings] == [("a", {"v": 42})]
    assert reply.readings[0].timestamp_unix_nano == 1767225600 * 1_000_000_000
    with pytest.raises(grpc.RpcError) as e:
        f.Ingest(plugin_pb2.IngestRequest(readings=[Reading("bad", {"v": 1}).to_pb()]))
    assert e.value.code() == grpc.StatusCode.ABORTED and "cannot filter bad" in e.value.details()


def test_server_refuses_unknown_kind():
    class Odd(Sink):
        kind = "sideways"

    with pytest.raises(ValueError, match="sideways"):
        server(Odd())
