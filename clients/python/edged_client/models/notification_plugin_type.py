from enum import StrEnum


class NotificationPluginType(StrEnum):
    DELIVERY = "delivery"
    RULE = "rule"

    def __str__(self) -> str:
        return str(self.value)
