from enum import StrEnum


class InstalledPluginOrigin(StrEnum):
    PLUGIN_ORIGIN_BUILTIN = "builtin"
    PLUGIN_ORIGIN_PACKAGE = "package"

    def __str__(self) -> str:
        return str(self.value)
