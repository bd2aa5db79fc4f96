from enum import StrEnum


class AccessMethod(StrEnum):
    ANY = "any"
    CERT = "cert"
    LDAP = "ldap"
    PWD = "pwd"

    def __str__(self) -> str:
        return str(self.value)
