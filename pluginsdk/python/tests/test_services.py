"""The service kinds over real gRPC: the gateway's calls of a notification
or dispatcher service, and the service's calls of the gateway's Host,
which it dials through go-plugin's broker as the gateway announces it."""

import json
import queue
from concurrent import futures
from datetime import datetime, timezone

import grpc
import pytest

from edged_plugin import (
    ControlRequest,
    ControlResult,
    DispatcherService,
    Failed,
    Invalid,
    NotFound,
    NotificationPlugin,
    NotificationService,
    Reading,
    Restart,
    server,
)
from edged_plugin import broker as brokermod
from edged_plugin.broker import ConnInfo
from edged_plugin.item import Item
from edged_plugin.pb import plugin_pb2, plugin_pb2_grpc

HOST_ID = 7


class FakeHost(plugin_pb2_grpc.HostServicer):
    """The gateway's Host: it records each call; a write to service
    "jammed" fails as the device's failure."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def Audit(self, request, context):
        self.calls.append(("audit", request.source, request.severity, json.loads(request.details_json)))
        return plugin_pb2.Ack()

    def Ingest(self, request, context):
        self.calls.append(("ingest", [r.asset for r in request.readings]))
        return plugin_pb2.Ack()

    def Dispatch(self, request, context):
        self.calls.append(("dispatch", request.name, request.values["setpoint"].number))
        return plugin_pb2.ControlReply(results=[plugin_pb2.ControlResult(service="valve", asset=request.name)])

    def Services(self, request, context):
        return plugin_pb2.ServicesReply(services=[
            plugin_pb2.ControlTarget(name="valve", plugin="valve", running=True, writes=True, assets=["tank"])])

    def Write(self, request, context):
        if request.service == "jammed":
            context.abort(grpc.StatusCode.ABORTED, "the valve is jammed")
        values = {}
        for n, v in request.values.items():
            values[n] = getattr(v, v.WhichOneof("kind"))
        self.calls.append(("write", request.service, request.asset, values))
        return plugin_pb2.Ack()


class Dispatcher(DispatcherService):
    name, version = "dispatch_test", "1.0.0"
    persists = True

    def start(self, service, config, state):
        super().start(service, config, state)
        self.count = (state or {}).get("count", 0)
        self.targets = self.host.services()  # the host works from start on

    def state(self):
        return {"count": self.count}

    def reconfigure(self, config):
        if config.get("restart"):
            raise Restart()
        super().reconfigure(config)

    def write(self, request):
        self.count += 1
        if request.name == "nonesuch":
            raise NotFound("no service nonesuch")
        try:
            self.host.write(request.name, "", request.values)
        except Failed as e:
            return [ControlResult(request.name, error=f"failed: {e}")]
        self.host.audit("CTLWR", "SUCCESS", {"caller": request.caller})
        return [ControlResult(request.name)]


class Notifier(NotificationService):
    name, version = "notify_test", "1.0.0"

    def __init__(self):
        super().__init__()
        self.instances = []
        self.seen = []

    def plugins(self):
        return [NotificationPlugin("threshold", "1.0.0", "Above a limit", {"limit": Item("Limit", type="float")})], []

    def validate(self, instance):
        if instance.rule != "threshold":
            raise Invalid(f"no rule {instance.rule!r}")

    def set_instances(self, instances):
        for i in instances:
            self.validate(i)
        self.instances = instances

    def readings(self, readings):
        self.seen.append(("readings", [(r.asset, r.values) for r in readings]))
        self.host.ingest([Reading("alarm", {"level": 1})])
        self.host.dispatch(ControlRequest("asset", "tank", values={"setpoint": 10}))

    def audited(self, code, at):
        self.seen.append(("audited", code, at))

    def statistics(self, at, counters):
        self.seen.append(("statistics", at, counters))


@pytest.fixture
def gateway():
    """A Host server on TCP, as the gateway serves it through its broker."""
    host = FakeHost()
    srv = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    plugin_pb2_grpc.add_HostServicer_to_server(host, srv)
    port = srv.add_insecure_port("127.0.0.1:0")
    srv.start()
    yield host, port
    srv.stop(None)


def connect(p, host_port):
    """Serves p, opens the broker's stream to it as the gateway does and
    announces the Host on HOST_ID; returns the channel to p."""
    srv, port, _ = server(p)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    sent: queue.Queue = queue.Queue()
    stream = ch.stream_stream(
        "/plugin.GRPCBroker/StartStream",
        request_serializer=ConnInfo.SerializeToString,
        response_deserializer=ConnInfo.FromString,
    )(iter(sent.get, None))
    sent.put(ConnInfo(service_id=HOST_ID, network="tcp", address=f"127.0.0.1:{host_port}"))
    return srv, ch, sent, stream


@pytest.fixture
def dispatcher(gateway):
    host, host_port = gateway
    p = Dispatcher()
    srv, ch, sent, stream = connect(p, host_port)
    yield p, plugin_pb2_grpc.DispatcherStub(ch), host, ch
    sent.put(None)
    stream.cancel()
    ch.close()
    srv.stop(None)


def test_dispatcher_describe(dispatcher):
    _, _, _, ch = dispatcher
    d = plugin_pb2_grpc.PluginStub(ch).Describe(plugin_pb2.DescribeRequest())
    assert (d.name, d.kind, d.persists, d.writes, d.operates) == ("dispatch_test", "dispatcher", True, False, False)


def test_dispatcher_calls_both_ways(dispatcher):
    p, stub, host, _ = dispatcher
    stub.Start(plugin_pb2.ServiceStartRequest(service="d1", state=b'{"count": 2}', host=HOST_ID))
    assert [t.name for t in p.targets] == ["valve"] and p.targets[0].assets == ["tank"]

    req = ControlRequest("service", "valve", values={"setpoint": 21.5, "on": True, "mode": "auto"}, caller="admin")
    reply = stub.Write(req.to_pb())
    assert [(r.service, r.error) for r in reply.results] == [("valve", "")]
    assert host.calls == [
        ("write", "valve", "", {"setpoint": "21.5", "on": True, "mode": "auto"}),
        ("audit", "CTLWR", "SUCCESS", {"caller": "admin"}),
    ]
    # The host's failure reaches the service with its code.
    reply = stub.Write(ControlRequest("service", "jammed", values={"setpoint": 1}).to_pb())
    assert reply.results[0].error == "failed: the valve is jammed"
    # The service's refusal reaches the gateway with its code.
    with pytest.raises(grpc.RpcError) as e:
        stub.Write(ControlRequest("service", "nonesuch", values={"setpoint": 1}).to_pb())
    assert e.value.code() == grpc.StatusCode.NOT_FOUND and e.value.details() == "no service nonesuch"
    with pytest.raises(grpc.RpcError) as e:
        stub.Operate(ControlRequest("service", "valve", operation="reset").to_pb())
    assert e.value.code() == grpc.StatusCode.UNIMPLEMENTED

    assert stub.Reconfigure(plugin_pb2.ReconfigureRequest(config={"restart": "1"})).restart
    assert not stub.Reconfigure(plugin_pb2.ReconfigureRequest(config={})).restart
    assert json.loads(stub.State(plugin_pb2.StateRequest()).state) == {"count": 5}


def test_dispatcher_may_not_call_notification_calls(dispatcher):
    p, stub, host, _ = dispatcher
    stub.Start(plugin_pb2.ServiceStartRequest(service="d1", host=HOST_ID))
    with pytest.raises(Invalid, match="may not call the gateway's ingest"):
        p.host.ingest([Reading("a", {"x": 1})])
    with pytest.raises(Invalid, match="not a finite number"):
        p.host.write("valve", "", {"setpoint": float("nan")})


def test_start_without_the_host_announced(gateway, monkeypatch):
    monkeypatch.setattr(brokermod, "DIAL_TIMEOUT", 0.2)
    _, host_port = gateway
    srv, ch, sent, stream = connect(Dispatcher(), host_port)
    try:
        with pytest.raises(grpc.RpcError) as e:
            plugin_pb2_grpc.DispatcherStub(ch).Start(plugin_pb2.ServiceStartRequest(service="d1", host=HOST_ID + 1))
        assert e.value.code() == grpc.StatusCode.UNAVAILABLE and "id 8" in e.value.details()
    finally:
        sent.put(None)
        stream.cancel()
        ch.close()
        srv.stop(None)


def test_notification_calls_both_ways(gateway):
    host, host_port = gateway
    p = Notifier()
    srv, ch, sent, stream = connect(p, host_port)
    try:
        stub = plugin_pb2_grpc.NotificationStub(ch)
        d = plugin_pb2_grpc.PluginStub(ch).Describe(plugin_pb2.DescribeRequest())
        assert d.kind == "notification"
        stub.Start(plugin_pb2.ServiceStartRequest(service="n1", host=HOST_ID))

        reply = stub.Plugins(plugin_pb2.PluginsRequest())
        assert [r.name for r in reply.rules] == ["threshold"] and reply.rules[0].items["limit"].type == "float"

        good = plugin_pb2.NotificationInstance(name="hot", rule="threshold", type="one shot", enabled=True,
                                               channels=[plugin_pb2.NotificationChannel(name="c", plugin="email")])
        bad = plugin_pb2.NotificationInstance(name="cold", rule="nonesuch")
        stub.Validate(good)
        with pytest.raises(grpc.RpcError) as e:
            stub.Validate(bad)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and e.value.details() == "no rule 'nonesuch'"
        with pytest.raises(grpc.RpcError):
            stub.SetInstances(plugin_pb2.SetInstancesRequest(instances=[good, bad]))
        assert p.instances == []
        stub.SetInstances(plugin_pb2.SetInstancesRequest(instances=[good]))
        assert [(i.name, i.channels[0].plugin) for i in p.instances] == [("hot", "email")]

        at = datetime(2026, 1, 2, 3, 4, 5, 678000, timezone.utc)
        stub.Readings(plugin_pb2.ReadingsRequest(readings=[Reading("tank", {"level": 9}, at).to_pb()]))
        ns = int(at.timestamp()) * 1_000_000_000 + 678_000_000
        stub.Audited(plugin_pb2.AuditedRequest(code="SRVRG", timestamp_unix_nano=ns))
        stub.Statistics(plugin_pb2.StatisticsRequest(timestamp_unix_nano=ns, counters={"READINGS": 3}))
        with pytest.raises(grpc.RpcError) as e:
            stub.Audited(plugin_pb2.AuditedRequest(timestamp_unix_nano=ns))
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert p.seen == [("readings", [("tank", {"level": 9})]), ("audited", "SRVRG", at),
                          ("statistics", at, {"READINGS": 3})]
        assert host.calls == [("ingest", ["alarm"]), ("dispatch", "tank", "10")]
        with pytest.raises(Invalid, match="may not call the gateway's write"):
            p.host.write("valve", "", {"setpoint": 1})
    finally:
        sent.put(None)
        stream.cancel()
        ch.close()
        srv.stop(None)
