from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.installed_package_type import InstalledPackageType
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="InstalledPackage")


@_attrs_define
class InstalledPackage:
    """
    Attributes:
        name (str):  Example: csv_south.
        version (str):  Example: 1.0.0.
        type_ (InstalledPackageType):
        description (str):
        kind (str | Unset): The plugin kind (south, north or filter). Example: south.
    """

    name: str
    version: str
    type_: InstalledPackageType
    description: str
    kind: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        type_ = self.type_.value

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

        type_ = InstalledPackageType(d.pop("type"))

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
