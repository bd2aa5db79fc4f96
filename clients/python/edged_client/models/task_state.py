from enum import StrEnum


class TaskState(StrEnum):
    CANCELLED = "Cancelled"
    COMPLETE = "Complete"
    INTERRUPTED = "Interrupted"
    RUNNING = "Running"

    def __str__(self) -> str:
        return str(self.value)
