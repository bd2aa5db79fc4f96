from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ServiceCreated")


@_attrs_define
class ServiceCreated:
    """
    Attributes:
        message (str):  Example: Service sine created.
        name (str): The service name, or for an install the package name. Example: sine.
        id (UUID): The new service's schedule id, or for an install the id of the install task. Example:
            0ad4b5f2-1f3c-4e4f-9f55-2a1b7e9c3d10.
    """

    message: str
    name: str
    id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        name = self.name

        id = str(self.id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "name": name,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        name = d.pop("name")

        id = UUID(d.pop("id"))

        _obj = cls(
            message=message,
            name=name,
            id=id,
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
