from enum import StrEnum


class NorthTaskCreateRequestEnabledType1(StrEnum):
    FALSE = "false"
    TRUE = "true"

    def __str__(self) -> str:
        return str(self.value)
