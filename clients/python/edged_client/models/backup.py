from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.backup_status import BackupStatus
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="Backup")


@_attrs_define
class Backup:
    """
    Example:
        {'id': 3, 'date': '2024-05-01 10:15:42.123', 'status': 'COMPLETED', 'size': 48213, 'readings': False}

    Attributes:
        id (int): The backup's id; ids are never reused.
        date (datetime.datetime): UTC time with milliseconds, `YYYY-MM-DD HH:MM:SS.fff`. The format `timestamp` marks
            the gateway's timestamps: the SDKs parse them into their language's date-time type (Go `edgeclient.Time`, Python
            `datetime`, TypeScript `Date`). Example: 2024-05-01 10:15:42.123.
        status (BackupStatus): `RUNNING` being made; `COMPLETED` done (downloadable, restorable); `FAILED` ended with an
            error; `INTERRUPTED` the gateway stopped while it was running.
        size (int): Bytes of the backup file; 0 until it is complete.
        readings (bool): Whether it holds the buffered readings (`BACKUP.includeReadings` when it was made).
        reason (str | Unset): Why it failed; only for `FAILED`.
    """

    id: int
    date: datetime.datetime
    status: BackupStatus
    size: int
    readings: bool
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        date = self.date.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        status = self.status.value

        size = self.size

        readings = self.readings

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "date": date,
                "status": status,
                "size": size,
                "readings": readings,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        date = datetime.datetime.fromisoformat(d.pop("date")).replace(tzinfo=datetime.UTC)

        status = BackupStatus(d.pop("status"))

        size = d.pop("size")

        readings = d.pop("readings")

        reason = d.pop("reason", UNSET)

        _obj = cls(
            id=id,
            date=date,
            status=status,
            size=size,
            readings=readings,
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
