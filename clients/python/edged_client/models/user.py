from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.access_method import AccessMethod
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="User")


@_attrs_define
class User:
    """A user; the password is never returned.

    Attributes:
        user_id (int):  Example: 2.
        user_name (str):  Example: operator.
        role_id (int): The role (1 admin, 2 user, 3 view, 4 data-view, 5 control). Example: 2.
        access_method (AccessMethod): How the user may log in; `any` (password or certificate), `pwd` (password only),
            `cert` (certificate only), `ldap` (password checked by the LDAP directory of category `LDAP`; such users are
            created at their first login, and their role follows their directory groups at each login). Example: any.
        real_name (str):  Example: Pat Operator.
        description (str):  Example: Shift operator.
    """

    user_id: int
    user_name: str
    role_id: int
    access_method: AccessMethod
    real_name: str
    description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        user_name = self.user_name

        role_id = self.role_id

        access_method = self.access_method.value

        real_name = self.real_name

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "userId": user_id,
                "userName": user_name,
                "roleId": role_id,
                "accessMethod": access_method,
                "realName": real_name,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_id = d.pop("userId")

        user_name = d.pop("userName")

        role_id = d.pop("roleId")

        access_method = AccessMethod(d.pop("accessMethod"))

        real_name = d.pop("realName")

        description = d.pop("description")

        _obj = cls(
            user_id=user_id,
            user_name=user_name,
            role_id=role_id,
            access_method=access_method,
            real_name=real_name,
            description=description,
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
