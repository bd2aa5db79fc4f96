from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.access_method import AccessMethod
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="AdminUserUpdate")


@_attrs_define
class AdminUserUpdate:
    """Changes to a user; at least one field. Taking the admin role from the `admin` user is 400.

    Attributes:
        description (str | Unset):  Example: Night shift operator.
        access_method (AccessMethod | Unset): How the user may log in; `any` (password or certificate), `pwd` (password
            only), `cert` (certificate only), `ldap` (password checked by the LDAP directory of category `LDAP`; such users
            are created at their first login, and their role follows their directory groups at each login). Example: any.
        real_name (str | Unset):  Example: Pat Operator.
        role_id (int | Unset): The new role (1 admin, 2 user, 3 view, 4 data-view, 5 control); a change ends the user's
            sessions. Example: 3.
    """

    description: str | Unset = UNSET
    access_method: AccessMethod | Unset = UNSET
    real_name: str | Unset = UNSET
    role_id: int | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        access_method: str | Unset = UNSET
        if not isinstance(self.access_method, Unset):
            access_method = self.access_method.value

        real_name = self.real_name

        role_id = self.role_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if access_method is not UNSET:
            field_dict["access_method"] = access_method
        if real_name is not UNSET:
            field_dict["real_name"] = real_name
        if role_id is not UNSET:
            field_dict["role_id"] = role_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description", UNSET)

        _access_method = d.pop("access_method", UNSET)
        access_method: AccessMethod | Unset
        if isinstance(_access_method, Unset):
            access_method = UNSET
        else:
            access_method = AccessMethod(_access_method)

        real_name = d.pop("real_name", UNSET)

        role_id = d.pop("role_id", UNSET)

        _obj = cls(
            description=description,
            access_method=access_method,
            real_name=real_name,
            role_id=role_id,
        )

        return _obj
