from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="InstalledPackage")


@_attrs_define
class InstalledPackage:
    """
    Attributes:
        name (str):  Example: csv_south.
        version (str):  Example: 1.0.0.
        type_ (str): `service` or `plugin` today; an open set (a newer gateway may install other kinds of package), so a
            client must accept other values. Example: plugin.
        description (str):
        kind (str | Unset): The plugin kind (south, north or filter). Example: south.
    """

    name: str
    version: str
    type_: str
    description: str
    kind: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        type_ = self.type_

        description = self.description

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "version": version,
                "type": type_,
                "description": description,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        type_ = d.pop("type")

        description = d.pop("description")

        kind = d.pop("kind", UNSET)

        _obj = cls(
            name=name,
            version=version,
            type_=type_,
            description=description,
            kind=kind,
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
