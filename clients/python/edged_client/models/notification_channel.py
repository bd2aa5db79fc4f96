from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.category import Category


T = TypeVar("T", bound="NotificationChannel")


@_attrs_define
class NotificationChannel:
    """A delivery channel of a notification instance.

    Attributes:
        name (str): The channel's name; the instance's own channel bears the instance's name. Example: sms.
        plugin (str):  Example: email.
        category (str): The configuration category holding the channel's items. Example: overheat_channel_sms.
        config (Category): The items of a category, keyed by item name. Example: {'httpPort': {'description': 'Port to
            accept HTTP connections on', 'type': 'integer', 'default': '8081', 'displayName': 'HTTP Port', 'order': '2',
            'value': '8081'}, 'authentication': {'description': 'API Call Authentication', 'type': 'enumeration', 'options':
            ['mandatory', 'optional'], 'default': 'optional', 'displayName': 'Authentication', 'order': '5', 'value':
            'optional'}}.
    """

    name: str
    plugin: str
    category: str
    config: Category
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plugin = self.plugin

        category = self.category

        config = self.config.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "plugin": plugin,
                "category": category,
                "config": config,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category import Category  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        plugin = d.pop("plugin")

        category = d.pop("category")

        config = Category.from_dict(d.pop("config"))

        _obj = cls(
            name=name,
            plugin=plugin,
            category=category,
            config=config,
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
