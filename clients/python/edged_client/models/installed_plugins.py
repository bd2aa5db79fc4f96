from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.installed_plugin import InstalledPlugin


T = TypeVar("T", bound="InstalledPlugins")


@_attrs_define
class InstalledPlugins:
    """
    Example:
        {'plugins': [{'name': 'sinusoid', 'type': 'south', 'version': '1.0.0', 'description': 'A sine wave, one reading
            per step, a full cycle every 360 steps', 'origin': 'builtin', 'config': {'plugin': {'description': 'The plugin
            the service runs', 'type': 'string', 'default': 'sinusoid', 'displayName': 'Plugin', 'order': '0', 'readonly':
            'true', 'value': 'sinusoid'}, 'assetName': {'description': 'Name of the asset the readings are stored under',
            'type': 'string', 'default': 'sinusoid', 'displayName': 'Asset name', 'order': '1', 'mandatory': 'true',
            'length': '255', 'value': 'sinusoid'}}}]}

    Attributes:
        plugins (list[InstalledPlugin]):
    """

    plugins: list[InstalledPlugin]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        plugins = []
        for plugins_item_data in self.plugins:
            plugins_item = plugins_item_data.to_dict()
            plugins.append(plugins_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plugins": plugins,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.installed_plugin import InstalledPlugin  # noqa: PLC0415

        d = dict(src_dict)
        plugins = []
        _plugins = d.pop("plugins")
        for plugins_item_data in _plugins:
            plugins_item = InstalledPlugin.from_dict(plugins_item_data)

            plugins.append(plugins_item)

        _obj = cls(
            plugins=plugins,
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
