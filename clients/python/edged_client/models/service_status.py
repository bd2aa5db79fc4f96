from enum import StrEnum


class ServiceStatus(StrEnum):
    FAILED = "failed"
    RUNNING = "running"
    SHUTDOWN = "shutdown"
    UNRESPONSIVE = "unresponsive"

    def __str__(self) -> str:
        return str(self.value)
