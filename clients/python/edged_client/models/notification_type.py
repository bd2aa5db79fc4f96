from enum import StrEnum


class NotificationType(StrEnum):
    ONE_SHOT = "one shot"
    RETRIGGERED = "retriggered"
    TOGGLED = "toggled"

    def __str__(self) -> str:
        return str(self.value)
