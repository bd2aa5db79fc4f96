from enum import StrEnum


class FleetChangeKind(StrEnum):
    FLEET_KIND_CATEGORY = "category"
    FLEET_KIND_CHANNEL = "channel"
    FLEET_KIND_FILTER = "filter"
    FLEET_KIND_NOTIFICATION = "notification"
    FLEET_KIND_SCHEDULE = "schedule"
    FLEET_KIND_SERVICE = "service"
    FLEET_KIND_USER = "user"

    def __str__(self) -> str:
        return str(self.value)
