from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="PasswordChange")


@_attrs_define
class PasswordChange:
    """
    Attributes:
        current_password (str): At most 72 bytes of UTF-8 (bcrypt's limit); longer is 400. Example: s3cret-Passw0rd.
        new_password (str): At most 72 bytes of UTF-8 (bcrypt's limit); must satisfy the `password` category's policy
            and differ from the last 3 passwords (400). Example: n3w-Secret-Passw0rd.
    """

    current_password: str
    new_password: str

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        current_password = self.current_password

        new_password = self.new_password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current_password": current_password,
                "new_password": new_password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        current_password = d.pop("current_password")

        new_password = d.pop("new_password")

        _obj = cls(
            current_password=current_password,
            new_password=new_password,
        )

        return _obj
