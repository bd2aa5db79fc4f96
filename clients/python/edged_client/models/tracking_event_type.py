from enum import StrEnum


class TrackingEventType(StrEnum):
    EGRESS = "Egress"
    FILTER = "Filter"
    INGEST = "Ingest"

    def __str__(self) -> str:
        return str(self.value)
