from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.set_aside_reading_reading import SetAsideReadingReading


T = TypeVar("T", bound="SetAsideReading")


@_attrs_define
class SetAsideReading:
    """A reading the destination of a north service or task refused for good, set aside.

    Attributes:
        id (int): The entry's id, for resending or deleting it. Example: 12.
        reading_id (int): The reading's id in the buffer when it was set aside (as audited by `NHREJ`). Example: 40211.
        asset (str): The reading's asset code. Example: line4/press.
        timestamp (datetime.datetime): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff` (format `timestamp`, as
            `Timestamp`). Example: 2024-05-01 10:15:42.123456.
        reading (SetAsideReadingReading): The reading's values. Example: {'force': 11.5}.
        reason (str): The destination's last refusal. Example: answered 400 Bad Request: {"message": "element 0: field
            readings must be a JSON object"}.
        set_aside (datetime.datetime): UTC time with milliseconds, `YYYY-MM-DD HH:MM:SS.fff`. The format `timestamp`
            marks the gateway's timestamps: the SDKs parse them into their language's date-time type (Go `edgeclient.Time`,
            Python `datetime`, TypeScript `Date`). Example: 2024-05-01 10:15:42.123.
        resend (bool): True while it is marked to be sent again. Example: False.
    """

    id: int
    reading_id: int
    asset: str
    timestamp: datetime.datetime
    reading: SetAsideReadingReading
    reason: str
    set_aside: datetime.datetime
    resend: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        reading_id = self.reading_id

        asset = self.asset

        timestamp = self.timestamp.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        reading = self.reading.to_dict()

        reason = self.reason

        set_aside = self.set_aside.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        resend = self.resend

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "readingId": reading_id,
                "asset": asset,
                "timestamp": timestamp,
                "reading": reading,
                "reason": reason,
                "setAside": set_aside,
                "resend": resend,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.set_aside_reading_reading import SetAsideReadingReading  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        reading_id = d.pop("readingId")

        asset = d.pop("asset")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp")).replace(tzinfo=datetime.UTC)

        reading = SetAsideReadingReading.from_dict(d.pop("reading"))

        reason = d.pop("reason")

        set_aside = datetime.datetime.fromisoformat(d.pop("setAside")).replace(tzinfo=datetime.UTC)

        resend = d.pop("resend")

        _obj = cls(
            id=id,
            reading_id=reading_id,
            asset=asset,
            timestamp=timestamp,
            reading=reading,
            reason=reason,
            set_aside=set_aside,
            resend=resend,
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
