from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.service_status import ServiceStatus

if TYPE_CHECKING:
    from ..models.plugin_info import PluginInfo
    from ..models.south_asset import SouthAsset


T = TypeVar("T", bound="SouthService")


@_attrs_define
class SouthService:
    """A south service. A disabled service has `address` and `protocol` "", both ports null and status `shutdown` (the
    spec's empty strings would break the types).

        Attributes:
            name (str):  Example: sine.
            address (str): Address the service is contacted on; "" when disabled. Example: localhost.
            management_port (int | None): Port the core talks to the service on; null when disabled. Example: 40123.
            service_port (int | None): Port of the service's own API; null when it has none or is disabled.
            protocol (str): Protocol of the control API; "" when disabled. Example: http.
            status (ServiceStatus): The state of a service. `running`: it runs and its health checks pass. `shutdown`: it is
                disabled or stopped. `unresponsive`: it is started but not doing its work: its health check (every
                `SMNTR.sleep_interval` seconds) failed or took longer than `SMNTR.ping_timeout`, a north service's destination
                does not accept readings (back to `running` once it does), it cannot run while storage is unavailable (retried
                every `SMNTR.sleep_interval`), or it did not stop in time. `failed`: its plugin failed; it is restarted with
                backoff (1 s doubling to 1 min) unless `SMNTR.restart_failed` is `manual` or `SMNTR.max_attempts` restarts in a
                row failed, and then it stays failed until it is disabled and enabled again. Example: running.
            assets (list[SouthAsset]): The assets this service ingested.
            plugin (PluginInfo):
            schedule_enabled (bool): Whether the service's schedule is enabled. Example: True.
    """

    name: str
    address: str
    management_port: int | None
    service_port: int | None
    protocol: str
    status: ServiceStatus
    assets: list[SouthAsset]
    plugin: PluginInfo
    schedule_enabled: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        address = self.address

        management_port: int | None
        management_port = self.management_port

        service_port: int | None
        service_port = self.service_port

        protocol = self.protocol

        status = self.status.value

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

        def _parse_management_port(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        management_port = _parse_management_port(d.pop("management_port"))

        def _parse_service_port(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        service_port = _parse_service_port(d.pop("service_port"))

        protocol = d.pop("protocol")

        status = ServiceStatus(d.pop("status"))

        assets = []
        _assets = d.pop("assets")
        for assets_item_data in _assets:
            assets_item = SouthAsset.from_dict(assets_item_data)

            assets.append(assets_item)

        plugin = PluginInfo.from_dict(d.pop("plugin"))

        schedule_enabled = d.pop("schedule_enabled")

        south_service = cls(
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

        south_service.additional_properties = d
        return south_service

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
