from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.service_status import ServiceStatus
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ServiceRecord")


@_attrs_define
class ServiceRecord:
    """A registered service. A stopped service (disabled, or not started in safe mode) has `address` and `protocol` "",
    `service_port` null and status `shutdown`; `management_port` is always the API's port.

        Attributes:
            name (str):  Example: sine.
            type_ (str): Southbound, Northbound, Core, Storage, Notification, Dispatcher, or another installed kind.
                Example: Southbound.
            address (str): Address the service is contacted on. Example: localhost.
            management_port (int): Port the core is managed on, the API's port (services run inside the core). Example:
                8081.
            service_port (int | None): Port of the service's own API, if any.
            protocol (str): Protocol of the control API. Example: http.
            status (ServiceStatus): The state of a service. `running`: its plugin started (a plugin process completed its
                handshake and its `Start` returned) and its health checks pass. `shutdown`: it is disabled or stopped.
                `unresponsive`: it is started but not doing its work: its plugin has not started yet (or hangs in its start),
                its health check (every `SMNTR.sleep_interval` seconds) failed or took longer than `SMNTR.ping_timeout`, a north
                service's destination does not accept readings (back to `running` once it does), it cannot run while storage is
                unavailable (retried every `SMNTR.sleep_interval`), or it did not stop in time. `failed`: its plugin failed; it
                is restarted with backoff (1 s doubling to 1 min) unless `SMNTR.restart_failed` is `manual` or
                `SMNTR.max_attempts` restarts in a row failed, and then it stays failed until it is disabled and enabled again.
                Example: running.
            reason (str | Unset): Why the service is not `running`, present while it is `unresponsive` or `failed`: the
                error its last attempt failed with (for a plugin process that did not start or failed in its `Start`, ending
                with the last lines the process wrote to stderr, e.g. a Python plugin's `ModuleNotFoundError`), its failed
                health check, why its destination does not accept readings, that storage is unavailable, or that its plugin has
                not started yet (its process has not completed the handshake or its `Start` has not returned). Example: the
                process ended without a handshake; the plugin's stderr ends with: ModuleNotFoundError: No module named 'grpc'.
    """

    name: str
    type_: str
    address: str
    management_port: int
    service_port: int | None
    protocol: str
    status: ServiceStatus
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        address = self.address

        management_port = self.management_port

        service_port: int | None
        service_port = self.service_port

        protocol = self.protocol

        status = self.status.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "address": address,
                "management_port": management_port,
                "service_port": service_port,
                "protocol": protocol,
                "status": status,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = d.pop("type")

        address = d.pop("address")

        management_port = d.pop("management_port")

        def _parse_service_port(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        service_port = _parse_service_port(d.pop("service_port"))

        protocol = d.pop("protocol")

        status = ServiceStatus(d.pop("status"))

        reason = d.pop("reason", UNSET)

        _obj = cls(
            name=name,
            type_=type_,
            address=address,
            management_port=management_port,
            service_port=service_port,
            protocol=protocol,
            status=status,
            reason=reason,
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
