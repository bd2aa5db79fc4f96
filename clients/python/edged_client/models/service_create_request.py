from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.service_create_request_config import ServiceCreateRequestConfig


T = TypeVar("T", bound="ServiceCreateRequest")


@_attrs_define
class ServiceCreateRequest:
    """A service to create. `plugin` is required for south and north services (400 without it); an unknown plugin is 404.
    Without `config` the plugin's defaults are used; a `config` value breaking the plugin's item rules is 400 and
    nothing is created.

        Attributes:
            name (str): The service name: no control characters, no leading or trailing space, unique among services and
                schedules (409). Also names the service's category and schedule. Example: sine.
            type_ (str): south, north, notification or dispatcher, in any case. Example: south.
            enabled (bool): Whether to start the service now and at every start; a boolean or the string "true" or "false".
                Example: True.
            plugin (str | Unset): The plugin the service runs (south and north services). Example: sinusoid.
            config (ServiceCreateRequestConfig | Unset): Initial values of the service's items (the plugin's,
                `bufferThreshold`, `maxSendLatency`), keyed by item name; each is checked against its item's rules. An unknown
                item or the readonly `plugin` item is 400. Example: {'dataPointsPerSec': {'value': '10'}}.
    """

    name: str
    type_: str
    enabled: bool
    plugin: str | Unset = UNSET
    config: ServiceCreateRequestConfig | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        enabled = self.enabled

        plugin = self.plugin

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "enabled": enabled,
            }
        )
        if plugin is not UNSET:
            field_dict["plugin"] = plugin
        if config is not UNSET:
            field_dict["config"] = config

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.service_create_request_config import ServiceCreateRequestConfig  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        type_ = d.pop("type")

        enabled = d.pop("enabled")

        plugin = d.pop("plugin", UNSET)

        _config = d.pop("config", UNSET)
        config: ServiceCreateRequestConfig | Unset
        if isinstance(_config, Unset):
            config = UNSET
        else:
            config = ServiceCreateRequestConfig.from_dict(_config)

        _obj = cls(
            name=name,
            type_=type_,
            enabled=enabled,
            plugin=plugin,
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
