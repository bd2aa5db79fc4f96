from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.user_create_access_method import UserCreateAccessMethod
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="UserCreate")


@_attrs_define
class UserCreate:
    """A new user.

    Attributes:
        username (str): 3 to 64 letters, digits, `.`, `_` or `-`; unique regardless of case (409). Example: operator.
        password (str): At most 72 bytes of UTF-8 (bcrypt's limit: a character outside ASCII takes 2 to 4 bytes, so
            fewer of them fit); must also satisfy the `password` category's policy and length (400). Example: s3cret-
            Passw0rd.
        access_method (UserCreateAccessMethod | Unset): How the user may log in; `any` (password or certificate), `pwd`,
            `cert` or `ldap` (the directory checks the password). Default: UserCreateAccessMethod.ANY. Example: any.
        real_name (str | Unset):  Example: Pat Operator.
        role_id (int | Unset): The role (1 admin, 2 user, 3 view, 4 data-view, 5 control). Default: 2. Example: 2.
        description (str | Unset):  Example: Shift operator.
    """

    username: str
    password: str
    access_method: UserCreateAccessMethod | Unset = UserCreateAccessMethod.ANY
    real_name: str | Unset = UNSET
    role_id: int | Unset = 2
    description: str | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        username = self.username

        password = self.password

        access_method: str | Unset = UNSET
        if not isinstance(self.access_method, Unset):
            access_method = self.access_method.value

        real_name = self.real_name

        role_id = self.role_id

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "username": username,
                "password": password,
            }
        )
        if access_method is not UNSET:
            field_dict["access_method"] = access_method
        if real_name is not UNSET:
            field_dict["real_name"] = real_name
        if role_id is not UNSET:
            field_dict["role_id"] = role_id
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        password = d.pop("password")

        _access_method = d.pop("access_method", UNSET)
        access_method: UserCreateAccessMethod | Unset
        if isinstance(_access_method, Unset):
            access_method = UNSET
        else:
            access_method = UserCreateAccessMethod(_access_method)

        real_name = d.pop("real_name", UNSET)

        role_id = d.pop("role_id", UNSET)

        description = d.pop("description", UNSET)

        _obj = cls(
            username=username,
            password=password,
            access_method=access_method,
            real_name=real_name,
            role_id=role_id,
            description=description,
        )

        return _obj
