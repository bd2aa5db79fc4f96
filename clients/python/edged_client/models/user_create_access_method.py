from enum import StrEnum


class UserCreateAccessMethod(StrEnum):
    ANY = "any"
    CERT = "cert"
    PWD = "pwd"

    def __str__(self) -> str:
        return str(self.value)
