from enum import StrEnum


class PackageInstallRequestFormat(StrEnum):
    REPOSITORY = "repository"

    def __str__(self) -> str:
        return str(self.value)
