from enum import StrEnum


class ScheduleType(StrEnum):
    INTERVAL = "INTERVAL"
    MANUAL = "MANUAL"
    STARTUP = "STARTUP"
    TIMED = "TIMED"

    def __str__(self) -> str:
        return str(self.value)
