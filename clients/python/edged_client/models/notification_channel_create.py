from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.notification_config_values import NotificationConfigValues


T = TypeVar("T", bound="NotificationChannelCreate")


@_attrs_define
class NotificationChannelCreate:
    """An extra delivery channel.

    Attributes:
        name (str): No control characters, no leading or trailing space; also names the instance's configuration
            categories. Example: overheat.
        plugin (str): The delivery plugin. Example: email.
        config (NotificationConfigValues | Unset): Values of a plugin's items, keyed by item name, each a string checked
            against its item's rules.
    """

    name: str
    plugin: str
    config: NotificationConfigValues | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plugin = self.plugin

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "plugin": plugin,
            }
        )
        if config is not UNSET:
            field_dict["config"] = config

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.notification_config_values import NotificationConfigValues  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        plugin = d.pop("plugin")

        _config = d.pop("config", UNSET)
        config: NotificationConfigValues | Unset
        if isinstance(_config, Unset):
            config = UNSET
        else:
            config = NotificationConfigValues.from_dict(_config)

        _obj = cls(
            name=name,
            plugin=plugin,
            config=config,
        )

        return _obj
