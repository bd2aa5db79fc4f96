from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tracking_event_type import TrackingEventType
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="TrackingEvent")


@_attrs_define
class TrackingEvent:
    """That an asset passed through a service and plugin.

    Attributes:
        asset (str): The asset code. Example: sinusoid.
        event (TrackingEventType): `Ingest` (read by a south service), `Filter` (passed through a filter), `Egress`
            (sent by a north service or task). Example: Ingest.
        service (str): The service in which it was tracked. Example: sine.
        edge (str): The name of the gateway instance in which it was tracked. Example: Edge Gateway.
        plugin (str): The plugin involved. Example: sinusoid.
        timestamp (datetime.datetime): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff` (format `timestamp`, as
            `Timestamp`). Example: 2024-05-01 10:15:42.123456.
        deprecated_timestamp (str): When the event was deprecated; "" when it is not.
    """

    asset: str
    event: TrackingEventType
    service: str
    edge: str
    plugin: str
    timestamp: datetime.datetime
    deprecated_timestamp: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        asset = self.asset

        event = self.event.value

        service = self.service

        edge = self.edge

        plugin = self.plugin

        timestamp = self.timestamp.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        deprecated_timestamp = self.deprecated_timestamp

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "asset": asset,
                "event": event,
                "service": service,
                "edge": edge,
                "plugin": plugin,
                "timestamp": timestamp,
                "deprecatedTimestamp": deprecated_timestamp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        asset = d.pop("asset")

        event = TrackingEventType(d.pop("event"))

        service = d.pop("service")

        edge = d.pop("edge")

        plugin = d.pop("plugin")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp")).replace(tzinfo=datetime.UTC)

        deprecated_timestamp = d.pop("deprecatedTimestamp")

        _obj = cls(
            asset=asset,
            event=event,
            service=service,
            edge=edge,
            plugin=plugin,
            timestamp=timestamp,
            deprecated_timestamp=deprecated_timestamp,
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
