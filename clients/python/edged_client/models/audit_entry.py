from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_severity import AuditSeverity

if TYPE_CHECKING:
    from ..models.audit_entry_details import AuditEntryDetails


T = TypeVar("T", bound="AuditEntry")


@_attrs_define
class AuditEntry:
    """One entry of the audit trail.

    Attributes:
        timestamp (datetime.datetime): UTC time with milliseconds, `YYYY-MM-DD HH:MM:SS.fff`. The format `timestamp`
            marks the gateway's timestamps: the SDKs parse them into their language's date-time type (Go `edgeclient.Time`,
            Python `datetime`, TypeScript `Date`). Example: 2024-05-01 10:15:42.123.
        source (str): An audit source code as the gateway reports it: one of `AuditSource`'s codes today, but an open
            set. Newer gateways add codes (each named in `GET /edge/audit/logcode`), so a client must accept a code it does
            not know rather than fail: the schema is a string, not an enumeration, for that reason. Codes are five upper-
            case letters. Example: CONCH.
        severity (AuditSeverity): The severity of an audit entry, always upper case in responses. Example: INFORMATION.
        details (AuditEntryDetails): Free-form JSON object describing the event; may be empty. Example: {'category':
            'rest_api', 'item': 'httpPort', 'oldValue': '8081', 'newValue': '8082'}.
    """

    timestamp: datetime.datetime
    source: str
    severity: AuditSeverity
    details: AuditEntryDetails
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        timestamp = self.timestamp.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        source = self.source

        severity = self.severity.value

        details = self.details.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "timestamp": timestamp,
                "source": source,
                "severity": severity,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry_details import AuditEntryDetails  # noqa: PLC0415

        d = dict(src_dict)
        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp")).replace(tzinfo=datetime.UTC)

        source = d.pop("source")

        severity = AuditSeverity(d.pop("severity"))

        details = AuditEntryDetails.from_dict(d.pop("details"))

        _obj = cls(
            timestamp=timestamp,
            source=source,
            severity=severity,
            details=details,
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
