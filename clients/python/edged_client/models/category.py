from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.config_item import ConfigItem


T = TypeVar("T", bound="Category")


@_attrs_define
class Category:
    """The items of a category, keyed by item name.

    Example:
        {'httpPort': {'description': 'Port to accept HTTP connections on', 'type': 'integer', 'default': '8081',
            'displayName': 'HTTP Port', 'order': '2', 'value': '8081'}, 'authentication': {'description': 'API Call
            Authentication', 'type': 'enumeration', 'options': ['mandatory', 'optional'], 'default': 'optional',
            'displayName': 'Authentication', 'order': '5', 'value': 'optional'}}

    """

    additional_properties: dict[str, ConfigItem] = _attrs_field(init=False, factory=dict)

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
        from ..models.config_item import ConfigItem  # noqa: PLC0415

        d = dict(src_dict)
        _obj = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = ConfigItem.from_dict(prop_dict)

            additional_properties[prop_name] = additional_property

        _obj.additional_properties = additional_properties
        return _obj

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> ConfigItem:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: ConfigItem) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
