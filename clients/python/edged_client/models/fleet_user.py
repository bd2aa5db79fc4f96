from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.access_method import AccessMethod
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.fleet_secret_reference import FleetSecretReference


T = TypeVar("T", bound="FleetUser")


@_attrs_define
class FleetUser:
    """A user. `password` is used only to create the user; export writes a reference for every user but `admin`.

    Attributes:
        name (str):
        role (str): A role name of `GET /edge/user/role`. Example: view.
        real_name (str | Unset):
        description (str | Unset):
        access_method (AccessMethod | Unset): How the user may log in; `any` (password or certificate), `pwd` (password
            only), `cert` (certificate only), `ldap` (password checked by the LDAP directory of category `LDAP`; such users
            are created at their first login, and their role follows their directory groups at each login). Example: any.
        password (FleetSecretReference | str | Unset): An item's value, or a reference to a secret that a client
            resolves before plan and apply.
    """

    name: str
    role: str
    real_name: str | Unset = UNSET
    description: str | Unset = UNSET
    access_method: AccessMethod | Unset = UNSET
    password: FleetSecretReference | str | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fleet_secret_reference import FleetSecretReference  # noqa: PLC0415

        name = self.name

        role = self.role

        real_name = self.real_name

        description = self.description

        access_method: str | Unset = UNSET
        if not isinstance(self.access_method, Unset):
            access_method = self.access_method.value

        password: dict[str, Any] | str | Unset
        if isinstance(self.password, Unset):
            password = UNSET
        elif isinstance(self.password, FleetSecretReference):
            password = self.password.to_dict()
        else:
            password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "role": role,
            }
        )
        if real_name is not UNSET:
            field_dict["realName"] = real_name
        if description is not UNSET:
            field_dict["description"] = description
        if access_method is not UNSET:
            field_dict["accessMethod"] = access_method
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_secret_reference import FleetSecretReference  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        role = d.pop("role")

        real_name = d.pop("realName", UNSET)

        description = d.pop("description", UNSET)

        _access_method = d.pop("accessMethod", UNSET)
        access_method: AccessMethod | Unset
        if isinstance(_access_method, Unset):
            access_method = UNSET
        else:
            access_method = AccessMethod(_access_method)

        def _parse_password(data: object) -> FleetSecretReference | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_fleet_value_type_1 = FleetSecretReference.from_dict(data)

                return componentsschemas_fleet_value_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FleetSecretReference | str | Unset, data)

        password = _parse_password(d.pop("password", UNSET))

        _obj = cls(
            name=name,
            role=role,
            real_name=real_name,
            description=description,
            access_method=access_method,
            password=password,
        )

        return _obj
