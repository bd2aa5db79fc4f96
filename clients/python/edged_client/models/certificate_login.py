from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="CertificateLogin")


@_attrs_define
class CertificateLogin:
    """The JSON form of a certificate body (`POST /edge/authenticate`).

    Attributes:
        certificate (str): A PEM-encoded client certificate: the one the connection presents in its TLS handshake
            (anything else is 401). It starts with its PEM header, so a `text/plain` body is never taken for JSON. Example:
            -----BEGIN CERTIFICATE-----
            MIIBszCCAVmgAwIBAgIUX...
            -----END CERTIFICATE-----
            .
    """

    certificate: str

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

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
