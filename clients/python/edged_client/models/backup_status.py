from enum import StrEnum


class BackupStatus(StrEnum):
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    INTERRUPTED = "INTERRUPTED"
    RUNNING = "RUNNING"

    def __str__(self) -> str:
        return str(self.value)
