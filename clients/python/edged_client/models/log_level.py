from enum import StrEnum


class LogLevel(StrEnum):
    DEBUG = "debug"
    ERROR = "error"
    INFO = "info"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
