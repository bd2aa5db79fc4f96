from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.north_task_create_request_config import NorthTaskCreateRequestConfig


T = TypeVar("T", bound="NorthTaskCreateRequest")


@_attrs_define
class NorthTaskCreateRequest:
    """A north task to create. Without `config` the plugin's defaults are used; a `config` value breaking the plugin's item
    rules is 400 and nothing is created.

        Attributes:
            name (str): The task name: no control characters, no leading or trailing space, unique among services and
                schedules (409). Also names the task's category, schedule and statistic. Example: to-cloud.
            plugin (str): The north plugin the task runs. Example: http_north.
            enabled (bool): Whether the task's schedule is enabled; a boolean or the string "true" or "false". Example:
                True.
            repeat (int): Seconds between runs, from 1 to 31536000 (a year). Example: 30.
            config (NorthTaskCreateRequestConfig | Unset): Initial values of the plugin's items, keyed by item name; each is
                checked against its item's rules. An unknown item or the readonly `plugin` item is 400. Example: {'url':
                {'value': 'http://central:6683/sensor-reading'}}.
    """

    name: str
    plugin: str
    enabled: bool
    repeat: int
    config: NorthTaskCreateRequestConfig | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plugin = self.plugin

        enabled = self.enabled

        repeat = self.repeat

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "plugin": plugin,
                "enabled": enabled,
                "repeat": repeat,
            }
        )
        if config is not UNSET:
            field_dict["config"] = config

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.north_task_create_request_config import NorthTaskCreateRequestConfig  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        plugin = d.pop("plugin")

        enabled = d.pop("enabled")

        repeat = d.pop("repeat")

        _config = d.pop("config", UNSET)
        config: NorthTaskCreateRequestConfig | Unset
        if isinstance(_config, Unset):
            config = UNSET
        else:
            config = NorthTaskCreateRequestConfig.from_dict(_config)

        _obj = cls(
            name=name,
            plugin=plugin,
            enabled=enabled,
            repeat=repeat,
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
