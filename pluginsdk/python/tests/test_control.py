"""Setpoint writes and operations reach a south plugin as the gateway sends
them, and its refusals and failures come back with the codes the gateway
answers by."""

import grpc
import pytest

from edged_plugin import BadParameters, NoOperation, NotWritable, Reading, SouthPlugin, server
from edged_plugin.pb import plugin_pb2, plugin_pb2_grpc


class Valve(SouthPlugin):
    """A device with a setpoint and a reset operation that records the calls."""

    name, version = "valve", "1.0.0"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple] = []

    def poll(self) -> list[Reading]:
        return []

    def write(self, asset: str, values: dict[str, str]) -> None:
        if "readonly" in values:
            raise NotWritable("readonly cannot be written")
        if values.get("setpoint") == "99":
            raise OSError("the valve is jammed")
        self.calls.append(("write", asset, values))

    def operate(self, operation: str, parameters: dict[str, str]) -> None:
        if operation != "reset":
            raise NoOperation(f"no operation {operation!r}")
        if set(parameters) - {"counter"}:
            raise BadParameters("reset takes counter only")
        self.calls.append((operation, parameters))


class Sensor(SouthPlugin):
    """A plugin that only reads."""

    name, version = "sensor", "1.0.0"

    def poll(self) -> list[Reading]:
        return []


@pytest.fixture
def stubs(request):
    plugin = request.param()
    srv, port, _ = server(plugin)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield plugin, plugin_pb2_grpc.PluginStub(ch), plugin_pb2_grpc.SouthStub(ch)
    ch.close()
    srv.stop(None)


@pytest.mark.parametrize("stubs", [Valve], indirect=True)
def test_writes_and_operations_reach_the_plugin(stubs):
    plugin, describe, south = stubs
    d = describe.Describe(plugin_pb2.DescribeRequest())
    assert d.writes and d.operates
    south.Write(plugin_pb2.WriteRequest(asset="tank1", values={"setpoint": "21.5", "mode": "auto"}))
    south.Operate(plugin_pb2.OperateRequest(operation="reset", parameters={"counter": "0"}))
    assert plugin.calls == [("write", "tank1", {"setpoint": "21.5", "mode": "auto"}), ("reset", {"counter": "0"})]


@pytest.mark.parametrize("stubs", [Valve], indirect=True)
def test_values_keep_their_json_types(stubs):
    plugin, _, south = stubs
    south.Write(plugin_pb2.WriteRequest(asset="tank1", values={"setpoint": "21.5", "open": "true", "mode": "21"},
                                        values_json=b'{"setpoint": 21.5, "open": true, "mode": "21"}'))
    south.Operate(plugin_pb2.OperateRequest(operation="reset", parameters={"counter": "0"},
                                            parameters_json=b'{"counter": 0}'))
    assert plugin.calls == [("write", "tank1", {"setpoint": 21.5, "open": True, "mode": "21"}),
                            ("reset", {"counter": 0})]
    with pytest.raises(grpc.RpcError) as e:
        south.Write(plugin_pb2.WriteRequest(values={"x": "1"}, values_json=b"[1]"))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("stubs", [Valve], indirect=True)
@pytest.mark.parametrize(
    "call, code, text",
    [
        (lambda s: s.Write(plugin_pb2.WriteRequest(values={"readonly": "1"})), grpc.StatusCode.INVALID_ARGUMENT, "readonly"),
        (lambda s: s.Write(plugin_pb2.WriteRequest(values={"setpoint": "99"})), grpc.StatusCode.ABORTED, "jammed"),
        (lambda s: s.Operate(plugin_pb2.OperateRequest(operation="launch")), grpc.StatusCode.INVALID_ARGUMENT, "launch"),
        (
            lambda s: s.Operate(plugin_pb2.OperateRequest(operation="reset", parameters={"speed": "1"})),
            grpc.StatusCode.INVALID_ARGUMENT,
            "counter only",
        ),
    ],
    ids=["not writable", "device failure", "unknown operation", "bad parameters"],
)
def test_refusals_and_failures(stubs, call, code, text):
    _, _, south = stubs
    with pytest.raises(grpc.RpcError) as e:
        call(south)
    assert e.value.code() == code
    assert text in e.value.details()


@pytest.mark.parametrize("stubs", [Sensor], indirect=True)
def test_a_plugin_without_control(stubs):
    _, describe, south = stubs
    d = describe.Describe(plugin_pb2.DescribeRequest())
    assert not d.writes and not d.operates
    for call in (
        lambda: south.Write(plugin_pb2.WriteRequest(values={"x": "1"})),
        lambda: south.Operate(plugin_pb2.OperateRequest(operation="reset")),
    ):
        with pytest.raises(grpc.RpcError) as e:
            call()
        assert e.value.code() == grpc.StatusCode.UNIMPLEMENTED
