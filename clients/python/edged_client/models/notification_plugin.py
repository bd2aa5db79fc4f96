from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.notification_plugin_type import NotificationPluginType
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.category import Category


T = TypeVar("T", bound="NotificationPlugin")


@_attrs_define
class NotificationPlugin:
    """A rule or delivery plugin of the notification service.

    Attributes:
        name (str):  Example: threshold.
        version (str):  Example: 1.0.0.
        type_ (NotificationPluginType):
        description (str):  Example: A datapoint of an asset compared with a value.
        config (Category): The items of a category, keyed by item name. Example: {'httpPort': {'description': 'Port to
            accept HTTP connections on', 'type': 'integer', 'default': '8081', 'displayName': 'HTTP Port', 'order': '2',
            'value': '8081'}, 'authentication': {'description': 'API Call Authentication', 'type': 'enumeration', 'options':
            ['mandatory', 'optional'], 'default': 'optional', 'displayName': 'Authentication', 'order': '5', 'value':
            'optional'}}.
    """

    name: str
    version: str
    type_: NotificationPluginType
    description: str
    config: Category
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        type_ = self.type_.value

        description = self.description

        config = self.config.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "version": version,
                "type": type_,
                "description": description,
                "config": config,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category import Category  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        type_ = NotificationPluginType(d.pop("type"))

        description = d.pop("description")

        config = Category.from_dict(d.pop("config"))

        _obj = cls(
            name=name,
            version=version,
            type_=type_,
            description=description,
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
