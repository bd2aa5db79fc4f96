from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.installed_plugin_origin import InstalledPluginOrigin
from ..models.plugin_type import PluginType
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.category import Category


T = TypeVar("T", bound="InstalledPlugin")


@_attrs_define
class InstalledPlugin:
    """A plugin of the catalogue.

    Attributes:
        name (str): The name services and filters name the plugin by. Example: sinusoid.
        type_ (PluginType): A kind of plugin. Example: south.
        version (str):  Example: 1.0.0.
        description (str):  Example: A sine wave, one reading per step, a full cycle every 360 steps.
        origin (InstalledPluginOrigin): builtin for a plugin compiled into the gateway, package for one installed from a
            package.
        config (Category | Unset): The items of a category, keyed by item name. Example: {'httpPort': {'description':
            'Port to accept HTTP connections on', 'type': 'integer', 'default': '8081', 'displayName': 'HTTP Port', 'order':
            '2', 'value': '8081'}, 'authentication': {'description': 'API Call Authentication', 'type': 'enumeration',
            'options': ['mandatory', 'optional'], 'default': 'optional', 'displayName': 'Authentication', 'order': '5',
            'value': 'optional'}}.
    """

    name: str
    type_: PluginType
    version: str
    description: str
    origin: InstalledPluginOrigin
    config: Category | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        version = self.version

        description = self.description

        origin = self.origin.value

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "version": version,
                "description": description,
                "origin": origin,
            }
        )
        if config is not UNSET:
            field_dict["config"] = config

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category import Category  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        type_ = PluginType(d.pop("type"))

        version = d.pop("version")

        description = d.pop("description")

        origin = InstalledPluginOrigin(d.pop("origin"))

        _config = d.pop("config", UNSET)
        config: Category | Unset
        if isinstance(_config, Unset):
            config = UNSET
        else:
            config = Category.from_dict(_config)

        _obj = cls(
            name=name,
            type_=type_,
            version=version,
            description=description,
            origin=origin,
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
