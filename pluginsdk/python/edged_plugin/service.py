"""The service kinds of the contract, notification and dispatcher (proto
services Notification, Dispatcher and Host), as the Go SDK's
edgeplugin.Notification, edgeplugin.Dispatcher and edgeplugin.Host."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Optional

import grpc

from .broker import Broker, BrokerError
from .item import Item
from .lifecycle import PluginBase
from .pb import plugin_pb2, plugin_pb2_grpc

# Protocol version 2 is the first with the typed service contracts: a
# service speaks it or later (edgeplugin.ServiceProtocolVersion).
SERVICE_PROTOCOL_VERSIONS = (2,)


class ServiceError(Exception):
    """An error with a code, in either direction: raised by a service's
    method it reaches the gateway with its code and message; raised by a
    host call it is what the gateway answered. Another exception of a
    service's method is Internal."""

    code = grpc.StatusCode.INTERNAL


class Invalid(ServiceError):
    """The request is invalid."""

    code = grpc.StatusCode.INVALID_ARGUMENT


class NotFound(ServiceError):
    """What the request names does not exist."""

    code = grpc.StatusCode.NOT_FOUND


class Conflict(ServiceError):
    """The request conflicts with the current state."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class Unsupported(ServiceError):
    """The method or the option is not supported."""

    code = grpc.StatusCode.UNIMPLEMENTED


class Unavailable(ServiceError):
    """Temporarily unable; retry later."""

    code = grpc.StatusCode.UNAVAILABLE


class Failed(ServiceError):
    """The device or destination failed."""

    code = grpc.StatusCode.ABORTED


class Busy(ServiceError):
    """The other end takes no more now; retry after a while."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Internal(ServiceError):
    """Anything else."""


_ERRORS = {c.code: c for c in (Invalid, NotFound, Conflict, Unsupported, Unavailable, Failed, Busy, Internal)}


def _from_rpc_error(e: grpc.RpcError) -> ServiceError:
    cls = _ERRORS.get(e.code(), Internal)
    if e.code() == grpc.StatusCode.DEADLINE_EXCEEDED or e.code() == grpc.StatusCode.CANCELLED:
        cls = Unavailable
    return cls(e.details() or e.code().name.lower())


@dataclass
class ControlRequest:
    """A control request: a write of values or an operation. destination is
    "service", "asset" or "broadcast"; values and parameters map a name
    to a number (int or float), a string or a boolean."""

    destination: str = ""
    name: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    operation: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    caller: str = ""

    def to_pb(self) -> plugin_pb2.ControlRequest:
        return plugin_pb2.ControlRequest(
            destination=self.destination, name=self.name, values=_values_to_pb("value", self.values),
            operation=self.operation, parameters=_values_to_pb("parameter", self.parameters), caller=self.caller)

    @classmethod
    def from_pb(cls, r: plugin_pb2.ControlRequest) -> "ControlRequest":
        return cls(r.destination, r.name, _values_from_pb("value", r.values), r.operation,
                   _values_from_pb("parameter", r.parameters), r.caller)


@dataclass
class ControlResult:
    """What one service did with a control request; error is empty when
    the service did it."""

    service: str
    asset: str = ""
    error: str = ""


@dataclass
class ControlTarget:
    """A south service as the dispatcher sees it."""

    name: str
    plugin: str = ""
    running: bool = False
    writes: bool = False
    operates: bool = False
    assets: list[str] = field(default_factory=list)


@dataclass
class NotificationChannel:
    """A delivery channel of a notification instance."""

    name: str
    plugin: str
    config: dict[str, str] = field(default_factory=dict)


@dataclass
class NotificationInstance:
    """A notification instance: a rule, a type ("one shot", "retriggered"
    or "toggled") and its delivery channels, the instance's own first."""

    name: str
    description: str = ""
    rule: str = ""
    rule_config: dict[str, str] = field(default_factory=dict)
    channels: list[NotificationChannel] = field(default_factory=list)
    type: str = ""
    enabled: bool = False
    retrigger_seconds: float = 0.0

    @classmethod
    def from_pb(cls, p: plugin_pb2.NotificationInstance) -> "NotificationInstance":
        if not p.name:
            raise Invalid("a notification instance needs a name")
        return cls(p.name, p.description, p.rule, dict(p.rule_config),
                   [NotificationChannel(c.name, c.plugin, dict(c.config)) for c in p.channels],
                   p.type, p.enabled, p.retrigger_seconds)


@dataclass
class NotificationPlugin:
    """A rule or delivery plugin of the notification service."""

    name: str
    version: str = ""
    description: str = ""
    items: dict[str, Item] = field(default_factory=dict)

    def to_pb(self) -> plugin_pb2.NotificationPlugin:
        return plugin_pb2.NotificationPlugin(name=self.name, version=self.version, description=self.description,
                                             items={n: it.to_pb(n) for n, it in self.items.items()})


def _value_to_pb(what: str, name: str, v: Any) -> plugin_pb2.Value:
    if isinstance(v, bool):
        return plugin_pb2.Value(boolean=v)
    if isinstance(v, (int, float)):
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            raise Invalid(f"{what} {name!r} is not a finite number")
        return plugin_pb2.Value(number=json.dumps(v))
    if isinstance(v, str):
        return plugin_pb2.Value(text=v)
    raise Invalid(f"{what} {name!r} is a {type(v).__name__}: a number, a string or a boolean is needed")


def _values_to_pb(what: str, values: dict[str, Any]) -> dict[str, plugin_pb2.Value]:
    return {n: _value_to_pb(what, n, v) for n, v in (values or {}).items()}


def _values_from_pb(what: str, values) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for n, v in values.items():
        kind = v.WhichOneof("kind")
        if kind == "number":
            try:
                out[n] = json.loads(v.number)
            except ValueError:
                raise Invalid(f"{what} {n!r} is not a number: {v.number!r}") from None
            if not isinstance(out[n], (int, float)) or isinstance(out[n], bool):
                raise Invalid(f"{what} {n!r} is not a number: {v.number!r}")
        elif kind == "text":
            out[n] = v.text
        elif kind == "boolean":
            out[n] = v.boolean
        else:
            raise Invalid(f"{what} {n!r} has no value")
    return out


def _results_to_pb(results) -> plugin_pb2.ControlReply:
    return plugin_pb2.ControlReply(results=[
        plugin_pb2.ControlResult(service=r.service, asset=r.asset, error=r.error) for r in (results or [])])


def _from_unix_nano(ns: int) -> datetime:
    seconds, rest = divmod(ns, 1_000_000_000)
    return datetime.fromtimestamp(seconds, timezone.utc).replace(microsecond=rest // 1_000)


class Host:
    """The gateway's Host as a service calls it: from start() on, from any
    thread. Each call raises a ServiceError with the gateway's code and
    message when the gateway refuses it. The gateway lets each kind call
    only its own methods: a notification service audit, ingest and
    dispatch; a dispatcher service audit, services, write and operate."""

    # The calls of each kind, as the gateway allows them.
    CALLS = {
        "notification": frozenset({"audit", "ingest", "dispatch"}),
        "dispatcher": frozenset({"audit", "services", "write", "operate"}),
    }

    def __init__(self, channel: grpc.Channel, kind: str, timeout: Optional[float] = 30.0) -> None:
        self._channel = channel
        self._stub = plugin_pb2_grpc.HostStub(channel)
        self._kind = kind
        self.timeout = timeout

    def close(self) -> None:
        self._channel.close()

    def _call(self, name: str, method: Callable, request):
        if name not in self.CALLS.get(self._kind, ()):
            raise Invalid(f"a {self._kind} service may not call the gateway's {name}")
        try:
            return method(request, timeout=self.timeout)
        except grpc.RpcError as e:
            raise _from_rpc_error(e) from None

    def audit(self, source: str, severity: str, details: Optional[dict] = None) -> None:
        """Writes an audit entry of a source the service's kind owns
        (notification: NTFSN, NTFCL; dispatcher: CTLWR, CTLOP); severity is
        SUCCESS, FAILURE, WARNING or INFORMATION."""
        raw = json.dumps(details).encode() if details is not None else b""
        self._call("audit", self._stub.Audit, plugin_pb2.AuditEntry(source=source, severity=severity, details_json=raw))

    def ingest(self, readings) -> None:
        """Stores readings; returns once they are committed."""
        self._call("ingest", self._stub.Ingest, plugin_pb2.HostIngestRequest(readings=[r.to_pb() for r in readings]))

    def dispatch(self, request: ControlRequest) -> list[ControlResult]:
        """Hands a control write to the dispatcher service."""
        reply = self._call("dispatch", self._stub.Dispatch, request.to_pb())
        return [ControlResult(r.service, r.asset, r.error) for r in reply.results]

    def services(self) -> list[ControlTarget]:
        """Lists the south services."""
        reply = self._call("services", self._stub.Services, plugin_pb2.ServicesRequest())
        return [ControlTarget(s.name, s.plugin, s.running, s.writes, s.operates, list(s.assets)) for s in reply.services]

    def write(self, service: str, asset: str, values: dict[str, Any]) -> None:
        """Sets values on a south service's device; returns once the
        device acknowledged. asset may be "" (a broadcast naming none)."""
        self._call("write", self._stub.Write,
                   plugin_pb2.HostWriteRequest(service=service, asset=asset, values=_values_to_pb("value", values)))

    def operate(self, service: str, operation: str, parameters: dict[str, Any]) -> None:
        """Runs an operation on a south service's device; returns once it
        is done."""
        self._call("operate", self._stub.Operate, plugin_pb2.HostOperateRequest(
            service=service, operation=operation, parameters=_values_to_pb("parameter", parameters)))


class _Service(PluginBase):
    """What both service kinds have: the plugin's description, the
    lifecycle and the host (set before start is called)."""

    def __init__(self) -> None:
        super().__init__()
        self.host: Optional[Host] = None


class NotificationService(_Service):
    """Base class of a notification service (kind "notification"): the
    gateway hands it its instances and what their rules watch; it calls
    the gateway back through self.host (audit, ingest, dispatch). Raise a
    ServiceError to answer with its code."""

    kind = "notification"

    def plugins(self) -> tuple[list[NotificationPlugin], list[NotificationPlugin]]:
        """The rule plugins and the delivery plugins."""
        return [], []

    def validate(self, instance: NotificationInstance) -> None:
        """Checks an instance without applying it; raise Invalid to say
        what is wrong with it."""

    def set_instances(self, instances: list[NotificationInstance]) -> None:
        """Replaces the whole set of instances; an invalid one raises
        Invalid and changes nothing."""
        raise Unsupported("the service takes no instances")

    def readings(self, readings: list) -> None:
        """Committed readings of the assets the rules watch."""

    def audited(self, code: str, at: datetime) -> None:
        """An audit entry of code a rule watches was written at at."""

    def statistics(self, at: datetime, counters: dict[str, int]) -> None:
        """The gateway's statistics' totals at at, while a rule watches them."""


class DispatcherService(_Service):
    """Base class of a dispatcher service (kind "dispatcher"): it carries
    control requests to the south services through self.host (services,
    write, operate, audit). Raise a ServiceError to answer with its code."""

    kind = "dispatcher"

    def write(self, request: ControlRequest) -> list[ControlResult]:
        """Sets values on the devices the request names."""
        raise Unsupported("the service does not write")

    def operate(self, request: ControlRequest) -> list[ControlResult]:
        """Runs an operation on the devices the request names."""
        raise Unsupported("the service runs no operations")


def _answer(context, call: Callable):
    """Runs call; a ServiceError becomes its status, another exception
    INTERNAL."""
    try:
        return call()
    except ServiceError as e:
        context.abort(e.code, str(e) or type(e).__name__)
    except Exception as e:  # the service's bug, reported to the gateway
        context.abort(grpc.StatusCode.INTERNAL, str(e) or type(e).__name__)


class _ServiceCommon:
    """Start, Reconfigure and State of both service kinds."""

    def __init__(self, p: _Service, broker: Broker) -> None:
        self.p = p
        self.broker = broker

    def Start(self, request, context):
        try:
            channel = self.broker.dial(request.host)
        except BrokerError as e:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"connect to the gateway's host service: {e}")
        old, self.p.host = self.p.host, Host(channel, self.p.kind)
        if old is not None:
            old.close()
        state = json.loads(request.state) if request.state else None
        _answer(context, lambda: self.p.start(request.service, dict(request.config), state))
        return plugin_pb2.StartReply()

    def Reconfigure(self, request, context):
        from .plugin import Restart  # the one Restart of every kind

        try:
            self.p.reconfigure(dict(request.config))
        except Restart:
            return plugin_pb2.ReconfigureReply(restart=True)
        except ServiceError as e:
            context.abort(e.code, str(e))
        except Exception as e:  # a refusal without a code is the caller's mistake
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e) or type(e).__name__)
        return plugin_pb2.ReconfigureReply()

    def State(self, request, context):
        if not self.p.persists:
            return plugin_pb2.StateReply()
        return plugin_pb2.StateReply(state=_answer(context, lambda: json.dumps(self.p.state()).encode()))


class NotificationServicer(_ServiceCommon, plugin_pb2_grpc.NotificationServicer):
    def Plugins(self, request, context):
        rules, deliveries = _answer(context, self.p.plugins)
        return plugin_pb2.PluginsReply(rules=[p.to_pb() for p in rules], deliveries=[p.to_pb() for p in deliveries])

    def Validate(self, request, context):
        _answer(context, lambda: self.p.validate(NotificationInstance.from_pb(request)))
        return plugin_pb2.Ack()

    def SetInstances(self, request, context):
        _answer(context, lambda: self.p.set_instances([NotificationInstance.from_pb(i) for i in request.instances]))
        return plugin_pb2.Ack()

    def Readings(self, request, context):
        from .plugin import Reading

        _answer(context, lambda: self.p.readings([Reading.from_pb(r) for r in request.readings]))
        return plugin_pb2.Ack()

    def Audited(self, request, context):
        if not request.code:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "an audit code is required")
        _answer(context, lambda: self.p.audited(request.code, _from_unix_nano(request.timestamp_unix_nano)))
        return plugin_pb2.Ack()

    def Statistics(self, request, context):
        if not request.timestamp_unix_nano:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the statistics' time is required")
        _answer(context, lambda: self.p.statistics(_from_unix_nano(request.timestamp_unix_nano), dict(request.counters)))
        return plugin_pb2.Ack()


class DispatcherServicer(_ServiceCommon, plugin_pb2_grpc.DispatcherServicer):
    def Write(self, request, context):
        return _answer(context, lambda: _results_to_pb(self.p.write(ControlRequest.from_pb(request))))

    def Operate(self, request, context):
        return _answer(context, lambda: _results_to_pb(self.p.operate(ControlRequest.from_pb(request))))
