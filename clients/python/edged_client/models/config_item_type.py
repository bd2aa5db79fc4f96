from enum import StrEnum


class ConfigItemType(StrEnum):
    BOOLEAN = "boolean"
    ENUMERATION = "enumeration"
    FLOAT = "float"
    INTEGER = "integer"
    IPV4 = "IPv4"
    IPV6 = "IPv6"
    JSON = "JSON"
    PASSWORD = "password"
    STRING = "string"
    URL = "URL"

    def __str__(self) -> str:
        return str(self.value)
