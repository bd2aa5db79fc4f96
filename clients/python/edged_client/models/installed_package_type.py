from enum import StrEnum


class InstalledPackageType(StrEnum):
    PLUGIN = "plugin"
    SERVICE = "service"

    def __str__(self) -> str:
        return str(self.value)
