from enum import StrEnum


class GetAssetReadingSeriesGroup(StrEnum):
    HOURS = "hours"
    MINUTES = "minutes"
    SECONDS = "seconds"

    def __str__(self) -> str:
        return str(self.value)
