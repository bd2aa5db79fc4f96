from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CertificateLogin")


@_attrs_define
class CertificateLogin:
    """The JSON form of a certificate body (`POST /edge/authenticate`).

    Attributes:
        certificate (str): A PEM-encoded client certificate: the one the connection presents in its TLS handshake
            (anything else is 401). Example: -----BEGIN CERTIFICATE-----
            MIIBszCCAVmgAwIBAgIUX...
            -----END CERTIFICATE-----
            .
    """

    certificate: str

    def to_dict(self) -> dict[str, Any]:
        certificate = self.certificate

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "certificate": certificate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        certificate = d.pop("certificate")

        _obj = cls(
            certificate=certificate,
        )

        return _obj
