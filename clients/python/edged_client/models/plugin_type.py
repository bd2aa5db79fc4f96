from enum import StrEnum


class PluginType(StrEnum):
    PLUGIN_TYPE_DISPATCHER = "dispatcher"
    PLUGIN_TYPE_FILTER = "filter"
    PLUGIN_TYPE_NORTH = "north"
    PLUGIN_TYPE_NOTIFICATION = "notification"
    PLUGIN_TYPE_SOUTH = "south"

    def __str__(self) -> str:
        return str(self.value)
