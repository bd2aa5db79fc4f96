from enum import StrEnum


class PingHealth(StrEnum):
    AMBER = "amber"
    GREEN = "green"
    RED = "red"

    def __str__(self) -> str:
        return str(self.value)
