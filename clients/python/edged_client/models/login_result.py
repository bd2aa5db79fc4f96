from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="LoginResult")


@_attrs_define
class LoginResult:
    """
    Attributes:
        message (str):  Example: Logged in successfully.
        uid (int): The user's id. Example: 1.
        token (str): The session token, to send in the `authorization` header. Example:
            Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8.
        admin (bool): True when the user has the admin role. Example: True.
    """

    message: str
    uid: int
    token: str
    admin: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        uid = self.uid

        token = self.token

        admin = self.admin

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "uid": uid,
                "token": token,
                "admin": admin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        uid = d.pop("uid")

        token = d.pop("token")

        admin = d.pop("admin")

        _obj = cls(
            message=message,
            uid=uid,
            token=token,
            admin=admin,
        )

        _obj.additional_properties = d
        return _obj

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
