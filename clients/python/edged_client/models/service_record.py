from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.service_status import ServiceStatus

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
            status (ServiceStatus): The state of a service. Example: running.
    """

    name: str
    type_: str
    address: str
    management_port: int
    service_port: int | None
    protocol: str
    status: ServiceStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        address = self.address

        management_port = self.management_port

        service_port: int | None
        service_port = self.service_port

        protocol = self.protocol

        status = self.status.value

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

        _obj = cls(
            name=name,
            type_=type_,
            address=address,
            management_port=management_port,
            service_port=service_port,
            protocol=protocol,
            status=status,
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
