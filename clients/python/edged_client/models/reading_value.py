from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ReadingValue")


@_attrs_define
class ReadingValue:
    """The timestamp and the value of the requested reading key, as a property named after the key.

    Example:
        {'timestamp': '2024-05-01 10:15:42.123456', 'sinusoid': 0.5878}

    Attributes:
        timestamp (datetime.datetime): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff` (format `timestamp`, as
            `Timestamp`). Example: 2024-05-01 10:15:42.123456.
    """

    timestamp: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        timestamp = self.timestamp.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "timestamp": timestamp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp")).replace(tzinfo=datetime.UTC)

        _obj = cls(
            timestamp=timestamp,
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
