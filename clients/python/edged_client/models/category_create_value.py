from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.config_item_definition import ConfigItemDefinition


T = TypeVar("T", bound="CategoryCreateValue")


@_attrs_define
class CategoryCreateValue:
    """Item definitions keyed by item name (the alternative spelling of `items`)."""

    additional_properties: dict[str, ConfigItemDefinition] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.config_item_definition import ConfigItemDefinition  # noqa: PLC0415

        d = dict(src_dict)
        _obj = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = ConfigItemDefinition.from_dict(prop_dict)

            additional_properties[prop_name] = additional_property

        _obj.additional_properties = additional_properties
        return _obj

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> ConfigItemDefinition:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: ConfigItemDefinition) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
