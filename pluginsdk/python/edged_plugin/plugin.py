"""The plugin side of the edged plugin contract, over grpcio."""

from __future__ import annotations

import calendar
import json
import os
import sys
import threading
from concurrent import futures
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Optional, Union

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from .config import decode, items_of
from .item import Item
from .lifecycle import PluginBase
from .broker import Broker
from .pb import plugin_pb2, plugin_pb2_grpc
from .service import (
    SERVICE_PROTOCOL_VERSIONS,
    DispatcherService,
    DispatcherServicer,
    NotificationService,
    NotificationServicer,
)

# The service kinds: served with the gateway's Host reached through the broker.
SERVICE_KINDS = ("notification", "dispatcher")

# The go-plugin handshake the gateway uses (pluginsdk/go/edgeplugin).
MAGIC_COOKIE_KEY = "EDGED_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "4c0e1d6c9a3b4f5e8d7a2b1c0f9e8d7c"
# The most a plugin sends the gateway in one message (a batch of
# readings); the gateway refuses a larger one (edgeplugin.MaxMessageBytes).
MAX_MESSAGE_BYTES = 4 << 20
CORE_PROTOCOL_VERSION = 1
# The application protocol versions this SDK speaks (proto/edged/plugin/v1
# says what each holds): a south plugin's calls are the same in both.
APP_PROTOCOL_VERSIONS = (1, 2)


def app_protocol_version(offered: str, kind: str = "south") -> int:
    """The version to answer the gateway with: the highest of those it
    offers (PLUGIN_PROTOCOL_VERSIONS, comma-separated) that this SDK
    speaks for a plugin of kind; else the lowest the kind speaks (1 for
    south, north and filter: a gateway that predates versions), which a
    gateway that does not speak it refuses. The service kinds speak
    SERVICE_PROTOCOL_VERSIONS only."""
    speaks = SERVICE_PROTOCOL_VERSIONS if kind in SERVICE_KINDS else APP_PROTOCOL_VERSIONS
    versions = {int(v) for v in offered.split(",") if v.strip().isdigit()}
    common = versions & set(speaks)
    return max(common) if common else min(speaks)


@dataclass
class Reading:
    """One reading: an asset code, values by key and the sensor's time."""

    asset: str
    values: dict
    timestamp: Optional[datetime] = None

    def to_pb(self) -> plugin_pb2.Reading:
        ts = self.timestamp or datetime.now(timezone.utc)
        if not self.asset:
            raise ValueError("a reading needs an asset code")
        if ts.tzinfo is None:
            ts = ts.astimezone()  # a naive time is local time
        # Exact to the microsecond: whole seconds and microseconds as integers.
        ns = calendar.timegm(ts.utctimetuple()) * 1_000_000_000 + ts.microsecond * 1_000
        return plugin_pb2.Reading(
            asset=self.asset,
            timestamp_unix_nano=ns,
            values_json=json.dumps(self.values).encode(),
        )

    @classmethod
    def from_pb(cls, r: plugin_pb2.Reading) -> "Reading":
        """The reading the gateway sent (its time to the microsecond, in UTC)."""
        seconds, ns = divmod(r.timestamp_unix_nano, 1_000_000_000)
        ts = datetime.fromtimestamp(seconds, timezone.utc).replace(microsecond=ns // 1_000)
        return cls(r.asset, json.loads(r.values_json), ts)


class Restart(Exception):
    """Raised by reconfigure when the change needs a new plugin instance."""


class BatchTooLarge(ValueError):
    """Raised by emit for a batch larger than MAX_MESSAGE_BYTES: the run
    fails with this message, and the gateway marks the service failed."""


class NotWritable(ValueError):
    """Raised by write() for a datapoint the plugin does not know or cannot
    write, or a value it cannot convert: the gateway answers 400."""


class NoOperation(ValueError):
    """Raised by operate() for an operation the plugin does not offer: the
    gateway answers 400."""


class BadParameters(ValueError):
    """Raised by operate() for parameters the operation does not take or
    cannot convert: the gateway answers 400."""


class SouthPlugin:
    """Base class of a south plugin. Set name, version, description, the
    configuration (config_class, a dataclass of items, or items) and
    persists, with state(), then implement poll() or run(). A plugin that
    controls its device also overrides write() (setpoints) and/or operate()
    (named operations); the gateway sends control calls only to a plugin
    that overrides them."""

    kind = "south"
    name = ""
    version = ""
    description = ""
    items: dict[str, Item] = {}
    # config_class is a dataclass declaring the items (edged_plugin.item):
    # they are derived from it, and self.settings is the configuration
    # decoded into it.
    config_class: Optional[type] = None
    persists = False

    def __init__(self) -> None:
        self.service = ""
        self.config: dict[str, str] = {}
        self.settings: Any = None
        if self.config_class is not None:
            self.items = items_of(self.config_class)

    def start(self, service: str, config: dict[str, str], state: Optional[dict]) -> None:
        """Takes the configuration and the persisted state; raise to fail the start."""
        self.service = service
        self._configure(config)

    def reconfigure(self, config: dict[str, str]) -> None:
        """Applies a changed configuration; raise Restart for a new instance,
        another exception keeps the old configuration."""
        self._configure(config)

    def _configure(self, config: dict[str, str]) -> None:
        """Keeps config, decoded into config_class when the plugin has one."""
        if self.config_class is not None:
            self.settings = decode(self.config_class, config)
        self.config = dict(config)

    def state(self) -> dict:
        """The state to persist when persists is true."""
        return {}

    def interval(self) -> float:
        """Seconds between two polls."""
        return 1.0

    def poll(self) -> list[Reading]:
        """Returns the readings of one poll."""
        raise NotImplementedError("implement poll() or run()")

    def run(self, emit: Callable[[list[Reading]], None], stopped: threading.Event) -> None:
        """Delivers readings through emit until stopped is set. The default
        polls every interval() seconds."""
        while not stopped.is_set():
            emit(self.poll())
            stopped.wait(self.interval())

    def write(self, asset: str, values: dict[str, Any]) -> None:
        """Sets datapoints on the device (setpoints) and returns once the
        device took them. values are keyed by datapoint name, as the
        plugin's readings name them, with their JSON types (a number, a
        boolean, a string; from a gateway that sends only text, each a
        string: a number or boolean as JSON, "21.5"); asset is the
        asset written, "" for whichever has the datapoints. Raise
        NotWritable for a datapoint or value the plugin refuses; any other
        exception is the device's failure (the gateway answers 502)."""
        raise NotImplementedError("the plugin cannot write to its device")

    def operate(self, operation: str, parameters: dict[str, Any]) -> None:
        """Runs a named operation on the device with its parameters
        (typed as for write()) and returns once it is done. Raise
        NoOperation or BadParameters to refuse it; any other exception is
        the device's failure."""
        raise NotImplementedError("the plugin cannot run operations on its device")


def _control_values(raw: bytes, text) -> dict[str, Any]:
    """The values of a write or parameters of an operation with their JSON
    types: from raw, the JSON object the gateway sends, when set; else
    each of text as a string (a gateway that sends only the text)."""
    if raw:
        try:
            obj = json.loads(raw)
        except ValueError as e:
            raise BadParameters(f"not a JSON object: {e}") from e
        if not isinstance(obj, dict):
            raise BadParameters("not a JSON object")
        return obj
    return dict(text)


def _overrides(p: SouthPlugin, method: str) -> bool:
    """Whether p's class overrides SouthPlugin's method."""
    return getattr(type(p), method, None) is not getattr(SouthPlugin, method)


class NorthPlugin(PluginBase):
    """Base class of a north plugin: a destination. Set name, version,
    description, items (and persists, with state()), then implement send()."""

    kind = "north"

    def send(self, readings: list[Reading]) -> int:
        """Delivers readings in order and returns how many of them, from the
        first, the destination accepted for good; the gateway sends the
        rest again. An exception accepts none, its message the reason."""
        raise NotImplementedError("implement send()")


class FilterPlugin(PluginBase):
    """Base class of a filter plugin: a step of a filter pipeline. Set name,
    version, description, items (and persists, with state()), then
    implement ingest()."""

    kind = "filter"

    def ingest(self, readings: list[Reading]) -> list[Reading]:
        """Returns the readings that go on in place of readings. An exception
        lets the batch pass unfiltered, its message logged by the gateway."""
        raise NotImplementedError("implement ingest()")


AnyPlugin = Union[SouthPlugin, NorthPlugin, FilterPlugin, NotificationService, DispatcherService]


def _kind(p: AnyPlugin) -> str:
    return getattr(p, "kind", "south")


def _describe(p: AnyPlugin) -> plugin_pb2.Description:
    return plugin_pb2.Description(
        name=p.name,
        version=p.version,
        kind=_kind(p),
        description=p.description,
        persists=p.persists,
        items={n: it.to_pb(n) for n, it in p.items.items()},
        writes=_kind(p) == "south" and _overrides(p, "write"),
        operates=_kind(p) == "south" and _overrides(p, "operate"),
    )


class _PluginServicer(plugin_pb2_grpc.PluginServicer):
    def __init__(self, p: AnyPlugin) -> None:
        self.p = p

    def Describe(self, request, context):
        return _describe(self.p)


class _Common:
    """Start, Reconfigure and State, the calls every kind serves alike."""

    def __init__(self, p: AnyPlugin) -> None:
        self.p = p

    def Start(self, request, context):
        state = json.loads(request.state) if request.state else None
        try:
            self.p.start(request.service, dict(request.config), state)
        except Exception as e:  # the plugin's own refusal, reported to the gateway
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(e))
        return plugin_pb2.StartReply()

    def Reconfigure(self, request, context):
        try:
            self.p.reconfigure(dict(request.config))
        except Restart:
            return plugin_pb2.ReconfigureReply(restart=True)
        except Exception as e:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        return plugin_pb2.ReconfigureReply()

    def State(self, request, context):
        if not self.p.persists:
            return plugin_pb2.StateReply()
        return plugin_pb2.StateReply(state=json.dumps(self.p.state()).encode())


class _SouthServicer(_Common, plugin_pb2_grpc.SouthServicer):
    def Run(self, request, context):
        stopped = threading.Event()
        batches: list[list[plugin_pb2.Reading]] = []
        cond = threading.Condition()
        failure: list[BaseException] = []

        def emit(readings: Iterable[Reading]) -> None:
            batch = [r.to_pb() for r in readings]
            size = plugin_pb2.Batch(readings=batch).ByteSize()
            if size > MAX_MESSAGE_BYTES:
                raise BatchTooLarge(
                    f"{len(batch)} readings are {size} bytes, more than the {MAX_MESSAGE_BYTES} "
                    "a plugin may send at once: emit smaller batches"
                )
            if batch:
                with cond:
                    batches.append(batch)
                    cond.notify()

        def loop() -> None:
            try:
                self.p.run(emit, stopped)
            except BaseException as e:  # reported as the run's failure
                failure.append(e)
            finally:
                stopped.set()
                with cond:
                    cond.notify()

        context.add_callback(stopped.set)
        worker = threading.Thread(target=loop, daemon=True)
        worker.start()
        while True:
            with cond:
                while not batches and not stopped.is_set():
                    cond.wait(0.5)
                pending, batches[:] = list(batches), []
            for b in pending:
                yield plugin_pb2.Batch(readings=b)
            if stopped.is_set() and not batches:
                break
        if failure and context.is_active():
            context.abort(grpc.StatusCode.ABORTED, str(failure[0]))

    def Write(self, request, context):
        if not _overrides(self.p, "write"):
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "the plugin cannot write to its device")
        _control(context, lambda: self.p.write(
            request.asset, _control_values(request.values_json, request.values)))
        return plugin_pb2.WriteReply()

    def Operate(self, request, context):
        if not _overrides(self.p, "operate"):
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "the plugin cannot run operations on its device")
        _control(context, lambda: self.p.operate(
            request.operation, _control_values(request.parameters_json, request.parameters)))
        return plugin_pb2.OperateReply()


def _control(context, call: Callable[[], None]) -> None:
    """Runs a write or operation; its refusals become INVALID_ARGUMENT (the
    gateway's 400), any other exception ABORTED (the device failed: 502)."""
    try:
        call()
    except (NotWritable, NoOperation, BadParameters) as e:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
    except Exception as e:  # the device's failure, reported to the gateway
        context.abort(grpc.StatusCode.ABORTED, str(e) or type(e).__name__)


class _NorthServicer(_Common, plugin_pb2_grpc.NorthServicer):
    def Send(self, request, context):
        readings = [Reading.from_pb(r) for r in request.readings]
        try:
            accepted = int(self.p.send(readings))
        except Exception as e:  # none accepted; the gateway sends them again
            return plugin_pb2.SendReply(accepted=0, error=str(e) or type(e).__name__)
        return plugin_pb2.SendReply(accepted=max(0, min(accepted, len(readings))))


class _FilterServicer(_Common, plugin_pb2_grpc.FilterServicer):
    def Ingest(self, request, context):
        try:
            out = [r.to_pb() for r in self.p.ingest([Reading.from_pb(r) for r in request.readings])]
        except Exception as e:
            context.abort(grpc.StatusCode.ABORTED, str(e) or type(e).__name__)
        reply = plugin_pb2.IngestReply(readings=out)
        if reply.ByteSize() > MAX_MESSAGE_BYTES:
            context.abort(
                grpc.StatusCode.ABORTED,
                f"{len(out)} readings are {reply.ByteSize()} bytes, more than the {MAX_MESSAGE_BYTES} "
                "a plugin may send at once",
            )
        return reply


def server(p: AnyPlugin, address: str = "127.0.0.1:0") -> tuple[grpc.Server, int, threading.Event]:
    """Returns a started gRPC server serving p, its port and an event set
    when the gateway asks the plugin to shut down (go-plugin's controller).
    serve() uses it; tests call it directly."""
    if not p.name or not p.version:
        raise ValueError("a plugin needs a name and a version")
    # A service's calls may call the gateway, which may call back: room
    # for both, beside the broker's stream.
    srv = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    plugin_pb2_grpc.add_PluginServicer_to_server(_PluginServicer(p), srv)
    kind = _kind(p)
    broker = Broker()
    srv.add_generic_rpc_handlers((broker.handler(),))
    if kind == "notification" and isinstance(p, NotificationService):
        plugin_pb2_grpc.add_NotificationServicer_to_server(NotificationServicer(p, broker), srv)
    elif kind == "dispatcher" and isinstance(p, DispatcherService):
        plugin_pb2_grpc.add_DispatcherServicer_to_server(DispatcherServicer(p, broker), srv)
    elif kind == "north":
        plugin_pb2_grpc.add_NorthServicer_to_server(_NorthServicer(p), srv)
    elif kind == "filter":
        plugin_pb2_grpc.add_FilterServicer_to_server(_FilterServicer(p), srv)
    elif kind == "south":
        plugin_pb2_grpc.add_SouthServicer_to_server(_SouthServicer(p), srv)
    else:
        raise ValueError(f"a plugin of kind {kind!r} is not served by this SDK")
    hs = health.HealthServicer()
    hs.set("plugin", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(hs, srv)
    shutdown = threading.Event()

    def stop(request: bytes, context) -> bytes:
        shutdown.set()
        return b""  # google.protobuf.Empty

    # go-plugin's controller (service plugin.GRPCController): the gateway
    # asks the plugin to exit through it before it kills the process.
    srv.add_generic_rpc_handlers(
        (
            grpc.method_handlers_generic_handler(
                "plugin.GRPCController",
                {
                    "Shutdown": grpc.unary_unary_rpc_method_handler(
                        stop, request_deserializer=lambda b: b, response_serializer=lambda b: b
                    )
                },
            ),
        )
    )
    port = srv.add_insecure_port(address)
    srv.start()
    return srv, port, shutdown


def serve(p: AnyPlugin) -> None:
    """Serves p to the gateway that started this process, until the gateway
    is done with it. Exits with a message when not started by a gateway."""
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        print(
            "This is a plugin of the edged gateway: the gateway starts it; it is not run by hand.",
            file=sys.stderr,
        )
        sys.exit(1)
    srv, port, shutdown = server(p)
    # The handshake line go-plugin reads from stdout.
    version = app_protocol_version(os.environ.get("PLUGIN_PROTOCOL_VERSIONS", ""), _kind(p))
    print(f"{CORE_PROTOCOL_VERSION}|{version}|tcp|127.0.0.1:{port}|grpc", flush=True)
    try:
        shutdown.wait()
    except KeyboardInterrupt:
        pass
    srv.stop(grace=1).wait()
