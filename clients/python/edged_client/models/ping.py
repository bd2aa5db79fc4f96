from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ping_health import PingHealth
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="Ping")


@_attrs_define
class Ping:
    """Liveness and summary state of the gateway.

    Attributes:
        uptime (float): Seconds since the gateway started (or last restarted). Example: 3605.2.
        data_read (int): Readings received since start (the READINGS statistic). Example: 15220.
        data_sent (int): Readings sent by all north services and tasks together. Example: 15000.
        data_purged (int): Readings purged since start (the PURGED statistic). Example: 0.
        authentication_optional (bool): True when `rest_api.authentication` is `optional` (the default). Example: True.
        service_name (str): The instance name (`service.name`). Example: Edge Gateway.
        service_description (str): The instance's description (`service.description`). Example: Packaging line 4,
            building B.
        host_name (str): The host's name. Example: edge-01.
        ip_addresses (list[str]): The host's IPv4 and IPv6 addresses. Example: ['192.168.1.20', 'fe80::1'].
        health (PingHealth): `red` while storage is unavailable (API calls that need it answer 503 with `Retry-After`)
            or a service has failed; else `amber` while a service is unresponsive (see `ServiceStatus`: its health check
            fails, a north destination does not accept readings, it waits for storage, or it did not stop in time); else
            `green`. It follows storage and services on its own: green again once storage is back and the services
            recovered. Example: green.
        safe_mode (bool): True when started with `--safe-mode` (only core and storage, no services or tasks). Example:
            False.
        version (str): The gateway's version. Example: 1.0.0.
    """

    uptime: float
    data_read: int
    data_sent: int
    data_purged: int
    authentication_optional: bool
    service_name: str
    service_description: str
    host_name: str
    ip_addresses: list[str]
    health: PingHealth
    safe_mode: bool
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        uptime = self.uptime

        data_read = self.data_read

        data_sent = self.data_sent

        data_purged = self.data_purged

        authentication_optional = self.authentication_optional

        service_name = self.service_name

        service_description = self.service_description

        host_name = self.host_name

        ip_addresses = self.ip_addresses

        health = self.health.value

        safe_mode = self.safe_mode

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uptime": uptime,
                "dataRead": data_read,
                "dataSent": data_sent,
                "dataPurged": data_purged,
                "authenticationOptional": authentication_optional,
                "serviceName": service_name,
                "serviceDescription": service_description,
                "hostName": host_name,
                "ipAddresses": ip_addresses,
                "health": health,
                "safeMode": safe_mode,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uptime = d.pop("uptime")

        data_read = d.pop("dataRead")

        data_sent = d.pop("dataSent")

        data_purged = d.pop("dataPurged")

        authentication_optional = d.pop("authenticationOptional")

        service_name = d.pop("serviceName")

        service_description = d.pop("serviceDescription")

        host_name = d.pop("hostName")

        ip_addresses = cast(list[str], d.pop("ipAddresses"))

        health = PingHealth(d.pop("health"))

        safe_mode = d.pop("safeMode")

        version = d.pop("version")

        _obj = cls(
            uptime=uptime,
            data_read=data_read,
            data_sent=data_sent,
            data_purged=data_purged,
            authentication_optional=authentication_optional,
            service_name=service_name,
            service_description=service_description,
            host_name=host_name,
            ip_addresses=ip_addresses,
            health=health,
            safe_mode=safe_mode,
            version=version,
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
