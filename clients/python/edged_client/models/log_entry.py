from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.log_level import LogLevel
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.log_entry_attrs import LogEntryAttrs


T = TypeVar("T", bound="LogEntry")


@_attrs_define
class LogEntry:
    """One line of the gateway's log.

    Attributes:
        timestamp (str): When it was logged (UTC, milliseconds). Example: 2024-05-01 10:15:42.123.
        level (LogLevel): A log line's level, lowest first. Example: warning.
        source (str): The service the line is about, or `core` for the gateway's own lines. Example: to-cloud.
        message (str):  Example: north destination unreachable; retrying.
        attrs (LogEntryAttrs): The line's other attributes (groups flattened to dotted keys); empty when there are none.
            Example: {'url': 'http://cloud.example.com:6683/sensor-reading', 'error': 'connection refused'}.
    """

    timestamp: str
    level: LogLevel
    source: str
    message: str
    attrs: LogEntryAttrs
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        timestamp = self.timestamp

        level = self.level.value

        source = self.source

        message = self.message

        attrs = self.attrs.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "timestamp": timestamp,
                "level": level,
                "source": source,
                "message": message,
                "attrs": attrs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.log_entry_attrs import LogEntryAttrs  # noqa: PLC0415

        d = dict(src_dict)
        timestamp = d.pop("timestamp")

        level = LogLevel(d.pop("level"))

        source = d.pop("source")

        message = d.pop("message")

        attrs = LogEntryAttrs.from_dict(d.pop("attrs"))

        _obj = cls(
            timestamp=timestamp,
            level=level,
            source=source,
            message=message,
            attrs=attrs,
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
