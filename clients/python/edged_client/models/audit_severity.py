from enum import StrEnum


class AuditSeverity(StrEnum):
    FAILURE = "FAILURE"
    INFORMATION = "INFORMATION"
    SUCCESS = "SUCCESS"
    WARNING = "WARNING"

    def __str__(self) -> str:
        return str(self.value)
