from enum import StrEnum


class ControlDestination(StrEnum):
    ASSET = "asset"
    BROADCAST = "broadcast"
    SERVICE = "service"

    def __str__(self) -> str:
        return str(self.value)
