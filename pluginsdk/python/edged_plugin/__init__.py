"""Python SDK for plugins of the edged gateway that run in their own process.

A plugin is a class, its executable a script that calls :func:`serve`::

    class Sine(SouthPlugin):
        name, version = "sine_py", "1.0.0"
        description = "A sine wave"
        items = {"rate": Item("Readings per second", type="integer", default="1")}

        def poll(self):
            return [Reading("sine", {"value": math.sin(time.time())})]

    if __name__ == "__main__":
        serve(Sine())

The gateway starts the script, handshakes over HashiCorp go-plugin's
protocol (gRPC, application protocol version 1 or 2) and calls the contract in
proto/edged/plugin/v1. A south plugin (SouthPlugin) either implements
``poll()``, called every ``interval()`` seconds, or overrides
``run(emit, stopped)`` to push readings as they come; a north plugin
(NorthPlugin) implements ``send(readings)``, a filter (FilterPlugin)
``ingest(readings)``. A south plugin that controls its device overrides
``write(asset, values)`` (setpoints) and ``operate(operation, parameters)``,
raising :class:`NotWritable`, :class:`NoOperation` or :class:`BadParameters`
to refuse a call.

A notification or dispatcher service subclasses :class:`NotificationService`
or :class:`DispatcherService` (application protocol version 2): the gateway
calls its typed methods (``set_instances``, ``readings``…; ``write``,
``operate``) and it calls the gateway back through ``self.host``
(:class:`Host`: ``audit``, ``ingest``, ``dispatch``, ``services``, ``write``,
``operate``, as the gateway allows its kind), which go-plugin's broker
connects from ``start`` on. :class:`ServiceError` subclasses carry a code
both ways.

Its configuration is a dataclass of items (:func:`item`), as a Go plugin's
is a struct with item tags: set ``config_class`` and the items are derived
from it, the configuration decoded into ``self.settings``.
"""

from .config import decode, item, items_of
from .service import (
    Busy,
    Conflict,
    ControlRequest,
    ControlResult,
    ControlTarget,
    DispatcherService,
    Failed,
    Host,
    Internal,
    Invalid,
    NotFound,
    NotificationChannel,
    NotificationInstance,
    NotificationPlugin,
    NotificationService,
    ServiceError,
    Unavailable,
    Unsupported,
)
from .plugin import (
    MAX_MESSAGE_BYTES,
    BadParameters,
    BatchTooLarge,
    FilterPlugin,
    Item,
    NorthPlugin,
    NoOperation,
    NotWritable,
    Reading,
    Restart,
    SouthPlugin,
    serve,
    server,
)

__all__ = [
    "Busy",
    "Conflict",
    "ControlRequest",
    "ControlResult",
    "ControlTarget",
    "DispatcherService",
    "Failed",
    "Host",
    "Internal",
    "Invalid",
    "NotFound",
    "NotificationChannel",
    "NotificationInstance",
    "NotificationPlugin",
    "NotificationService",
    "ServiceError",
    "Unavailable",
    "Unsupported",
    "MAX_MESSAGE_BYTES",
    "BadParameters",
    "BatchTooLarge",
    "FilterPlugin",
    "Item",
    "NorthPlugin",
    "NoOperation",
    "NotWritable",
    "Reading",
    "Restart",
    "SouthPlugin",
    "decode",
    "item",
    "items_of",
    "serve",
    "server",
]
