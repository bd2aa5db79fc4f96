"""The plugin side of the edged plugin contract, over grpcio."""

from __future__ import annotations

import json
import os
import sys
import threading
from concurrent import futures
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Optional

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from .config import decode, items_of
from .item import Item
from .pb import plugin_pb2, plugin_pb2_grpc

# The go-plugin handshake the gateway uses (pluginsdk/go/edgeplugin).
MAGIC_COOKIE_KEY = "EDGED_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "4c0e1d6c9a3b4f5e8d7a2b1c0f9e8d7c"
# The most a plugin sends the gateway in one message (a batch of
# readings); the gateway refuses a larger one (edgeplugin.MaxMessageBytes).
MAX_MESSAGE_BYTES = 4 << 20
CORE_PROTOCOL_VERSION = 1
APP_PROTOCOL_VERSION = 1


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
        return plugin_pb2.Reading(
            asset=self.asset,
            timestamp_unix_nano=int(ts.timestamp() * 1_000_000_000),
            values_json=json.dumps(self.values).encode(),
        )


class Restart(Exception):
    """Raised by reconfigure when the change needs a new plugin instance."""


class BatchTooLarge(ValueError):
    """Raised by emit for a batch larger than MAX_MESSAGE_BYTES: the run
    fails with this message, and the gateway marks the service failed."""


class SouthPlugin:
    """Base class of a south plugin. Set name, version, description, the
    configuration (config_class, a dataclass of items, or items) and
    persists, with state(), then implement poll() or run()."""

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


def _describe(p: SouthPlugin) -> plugin_pb2.Description:
    return plugin_pb2.Description(
        name=p.name,
        version=p.version,
        kind="south",
        description=p.description,
        persists=p.persists,
        items={n: it.to_pb(n) for n, it in p.items.items()},
    )


class _PluginServicer(plugin_pb2_grpc.PluginServicer):
    def __init__(self, p: SouthPlugin) -> None:
        self.p = p

    def Describe(self, request, context):
        return _describe(self.p)


class _SouthServicer(plugin_pb2_grpc.SouthServicer):
    def __init__(self, p: SouthPlugin) -> None:
        self.p = p
        self.lock = threading.Lock()

    def Start(self, request, context):
        state = json.loads(request.state) if request.state else None
        try:
            self.p.start(request.service, dict(request.config), state)
        except Exception as e:  # the plugin's own refusal, reported to the gateway
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(e))
        return plugin_pb2.StartReply()

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

    def Write(self, request, context):
        write = getattr(self.p, "write", None)
        if write is None:
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "the plugin cannot write to its device")
        if not request.values and not request.values_json:
            return plugin_pb2.WriteReply()  # the gateway asks whether the plugin writes
        try:
            write(dict(request.values))
        except Exception as e:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(e))
        return plugin_pb2.WriteReply()


def server(p: SouthPlugin, address: str = "127.0.0.1:0") -> tuple[grpc.Server, int, threading.Event]:
    """Returns a started gRPC server serving p, its port and an event set
    when the gateway asks the plugin to shut down (go-plugin's controller).
    serve() uses it; tests call it directly."""
    if not p.name or not p.version:
        raise ValueError("a plugin needs a name and a version")
    srv = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    plugin_pb2_grpc.add_PluginServicer_to_server(_PluginServicer(p), srv)
    plugin_pb2_grpc.add_SouthServicer_to_server(_SouthServicer(p), srv)
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


def serve(p: SouthPlugin) -> None:
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
    print(f"{CORE_PROTOCOL_VERSION}|{APP_PROTOCOL_VERSION}|tcp|127.0.0.1:{port}|grpc", flush=True)
    try:
        shutdown.wait()
    except KeyboardInterrupt:
        pass
    srv.stop(grace=1).wait()
