from enum import StrEnum


class CreateServiceAction(StrEnum):
    INSTALL = "install"

    def __str__(self) -> str:
        return str(self.value)
