from enum import StrEnum


class FleetChangeAction(StrEnum):
    FLEET_ACTION_CHANGE = "change"
    FLEET_ACTION_CREATE = "create"
    FLEET_ACTION_REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)
