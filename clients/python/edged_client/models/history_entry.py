from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="HistoryEntry")


@_attrs_define
class HistoryEntry:
    """The change of every statistic during one collection interval: `history_ts` plus one integer delta per statistic key.

    Example:
        {'history_ts': '2024-05-01 10:15:45.000', 'READINGS': 15, 'PURGED': 0, 'sinusoid': 15}

    Attributes:
        history_ts (datetime.datetime): UTC time with milliseconds, `YYYY-MM-DD HH:MM:SS.fff`. The format `timestamp`
            marks the gateway's timestamps: the SDKs parse them into their language's date-time type (Go `edgeclient.Time`,
            Python `datetime`, TypeScript `Date`). Example: 2024-05-01 10:15:42.123.
    """

    history_ts: datetime.datetime
    additional_properties: dict[str, int] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        history_ts = self.history_ts.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "history_ts": history_ts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        history_ts = datetime.datetime.fromisoformat(d.pop("history_ts")).replace(tzinfo=datetime.UTC)

        _obj = cls(
            history_ts=history_ts,
        )

        _obj.additional_properties = d
        return _obj

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> int:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
