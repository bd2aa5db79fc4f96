from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.service_status import ServiceStatus
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.plugin_info import PluginInfo
    from ..models.south_asset import SouthAsset


T = TypeVar("T", bound="SouthService")


@_attrs_define
class SouthService:
    """A south service. A disabled service (`schedule_enabled` false) has `address`, `management_port`, `service_port`,
    `protocol` and `status` all "", as the specification shows.

        Attributes:
            name (str):  Example: sine.
            address (str): Address the service is contacted on; "" when disabled or stopped. Example: localhost.
            management_port (int | str): Port the core is managed on, the API's port (services run inside the core); "" when
                the service is disabled. Example: 8081.
            service_port (int | None | str): Port of the service's own API; null when it has none, "" when the service is
                disabled.
            protocol (str): Protocol of the control API; "" when disabled or stopped. Example: http.
            status (ServiceStatus | str): The state of the service; "" when it is disabled. Example: running.
            assets (list[SouthAsset]): The assets this service ingested.
            plugin (PluginInfo):
            schedule_enabled (bool): Whether the service's schedule is enabled. Example: True.
    """

    name: str
    address: str
    management_port: int | str
    service_port: int | None | str
    protocol: str
    status: ServiceStatus | str
    assets: list[SouthAsset]
    plugin: PluginInfo
    schedule_enabled: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        address = self.address

        management_port: int | str
        management_port = self.management_port

        service_port: int | None | str
        service_port = self.service_port

        protocol = self.protocol

        status: str
        if isinstance(self.status, ServiceStatus):
            status = self.status.value
        else:
            status = self.status

        assets = []
        for assets_item_data in self.assets:
            assets_item = assets_item_data.to_dict()
            assets.append(assets_item)

        plugin = self.plugin.to_dict()

        schedule_enabled = self.schedule_enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "address": address,
                "management_port": management_port,
                "service_port": service_port,
                "protocol": protocol,
                "status": status,
                "assets": assets,
                "plugin": plugin,
                "schedule_enabled": schedule_enabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.plugin_info import PluginInfo  # noqa: PLC0415
        from ..models.south_asset import SouthAsset  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        address = d.pop("address")

        def _parse_management_port(data: object) -> int | str:
            return cast(int | str, data)

        management_port = _parse_management_port(d.pop("management_port"))

        def _parse_service_port(data: object) -> int | None | str:
            if data is None:
                return data
            return cast(int | None | str, data)

        service_port = _parse_service_port(d.pop("service_port"))

        protocol = d.pop("protocol")

        def _parse_status(data: object) -> ServiceStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_service_status_or_empty_type_0 = ServiceStatus(data)

                return componentsschemas_service_status_or_empty_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ServiceStatus | str, data)

        status = _parse_status(d.pop("status"))

        assets = []
        _assets = d.pop("assets")
        for assets_item_data in _assets:
            assets_item = SouthAsset.from_dict(assets_item_data)

            assets.append(assets_item)

        plugin = PluginInfo.from_dict(d.pop("plugin"))

        schedule_enabled = d.pop("schedule_enabled")

        _obj = cls(
            name=name,
            address=address,
            management_port=management_port,
            service_port=service_port,
            protocol=protocol,
            status=status,
            assets=assets,
            plugin=plugin,
            schedule_enabled=schedule_enabled,
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
