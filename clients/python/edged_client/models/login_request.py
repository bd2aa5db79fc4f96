from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="LoginRequest")


@_attrs_define
class LoginRequest:
    """User name and password.

    Attributes:
        username (str): The user name (case-insensitive). Example: admin.
        password (str): At most 72 bytes of UTF-8 (bcrypt's limit); longer is 400. Example: s3cret-Passw0rd.
    """

    username: str
    password: str

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        username = self.username

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "username": username,
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        password = d.pop("password")

        _obj = cls(
            username=username,
            password=password,
        )

        return _obj
