from enum import StrEnum


class NorthServiceType(StrEnum):
    SERVICE = "service"
    TASK = "task"

    def __str__(self) -> str:
        return str(self.value)
