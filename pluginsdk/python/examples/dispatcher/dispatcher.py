#!/usr/bin/env python3
"""A dispatcher service in Python: it carries control writes and
operations to the south services that can do them, through the gateway's
Host, and audits each."""

from edged_plugin import (
    ControlRequest,
    ControlResult,
    DispatcherService,
    Invalid,
    NotFound,
    ServiceError,
    serve,
)


class Dispatcher(DispatcherService):
    name, version = "dispatcher_py", "1.0.0"
    description = "Carries control requests to south services"
    persists = True

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0

    def start(self, service, config, state):
        super().start(service, config, state)
        self.requests = int((state or {}).get("requests", 0))

    def state(self) -> dict:
        return {"requests": self.requests}

    def _targets(self, request: ControlRequest, capable: str) -> list[tuple[str, str]]:
        """The (service, asset) pairs the request names, of services that can do it."""
        services = [s for s in self.host.services() if s.running and getattr(s, capable)]
        if request.destination == "service":
            chosen = [(s.name, "") for s in services if s.name == request.name]
        elif request.destination == "asset":
            chosen = [(s.name, request.name) for s in services if request.name in s.assets]
        elif request.destination == "broadcast":
            chosen = [(s.name, request.name) for s in services]
        else:
            raise Invalid(f"unknown destination {request.destination!r}")
        if not chosen and request.destination != "broadcast":
            raise NotFound(f"no running service to take the request for {request.destination} {request.name!r}")
        return chosen

    def _do(self, request: ControlRequest, capable: str, call) -> list[ControlResult]:
        self.requests += 1
        results = []
        for service, asset in self._targets(request, capable):
            try:
                call(service, asset)
                results.append(ControlResult(service, asset))
            except ServiceError as e:
                results.append(ControlResult(service, asset, str(e)))
        source = "CTLWR" if capable == "writes" else "CTLOP"
        self.host.audit(source, "SUCCESS" if all(not r.error for r in results) else "FAILURE",
                        {"service": self.service, "caller": request.caller, "destination": request.destination,
                         "name": request.name, "results": len(results)})
        return results

    def write(self, request: ControlRequest) -> list[ControlResult]:
        if not request.values:
            raise Invalid("a write needs values")
        return self._do(request, "writes", lambda s, a: self.host.write(s, a, request.values))

    def operate(self, request: ControlRequest) -> list[ControlResult]:
        if not request.operation:
            raise Invalid("an operation needs a name")
        return self._do(request, "operates", lambda s, a: self.host.operate(s, request.operation, request.parameters))


if __name__ == "__main__":
    serve(Dispatcher())
