from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.audit_source import AuditSource
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.audit_entry_create_details import AuditEntryCreateDetails


T = TypeVar("T", bound="AuditEntryCreate")


@_attrs_define
class AuditEntryCreate:
    """An application-defined audit entry; the gateway sets the timestamp.

    Attributes:
        source (AuditSource): The source code of an audit entry, as a request names it (`POST
            /edge/audit`, the `source` filter of `GET /edge/audit`; an unknown one is
            400). Responses carry codes as `AuditSourceCode`, an open set: a newer
            gateway may report codes not listed here. The codes this gateway knows:
            - `PURGE` data purging process (each purge run)
            - `LOGGN` logging process
            - `STRMN` streaming process
            - `SYPRG` system purge
            - `START` system startup
            - `FSTOP` system shutdown
            - `CONCH` configuration change
            - `CONAD` configuration addition
            - `SCHCH` schedule change (enable and disable included)
            - `SCHAD` schedule addition
            - `SRVRG` service registered (started)
            - `SRVUN` service unregistered (stopped)
            - `SRVFL` service failed
            - `NHCOM` north process complete
            - `NHDWN` north destination unavailable
            - `NHAVL` north destination available
            - `UPEXC` update complete
            - `BKEXC` backup complete (FAILURE when it failed; details: `id`, `size` or `reason`, `readings`)
            - `NTFDL` notification (or one of its extra channels) deleted
            - `NTFAD` notification added
            - `NTFSN` notification sent
            - `NTFCL` notification cleared
            - `NTFST` notification server startup
            - `NTFSD` notification server shutdown
            - `PKGIN` package installation
            - `PKGUP` package updated
            - `PKGRM` package purged
            - `DSPST` dispatcher startup
            - `DSPSD` dispatcher shutdown
            - `ESSRT` external service startup
            - `ESSTP` external service shutdown
            - `USRAD` user added
            - `USRCH` user changed
            - `USRDL` user deleted
            - `ASTDP` asset tracking event deprecated
            - `LOGFL` failed login
            - `NHREJ` north destination refused readings for good; they are set aside (details: `name`, `readings` ids,
            `reason`, `resent`)
            - `CTLWR` control write through the dispatcher (details: `caller`, `destination`, `name`, `values`, `results` or
            `error`; FAILURE when refused or failed)
            - `BKRST` restore of a backup requested; the gateway restarts (details: `id`, `createdAt`, `readings`)
            - `BKRSC` restore of a backup complete, at the start after the request (FAILURE with `reason` when it failed)
            - `CTLOP` control operation through the dispatcher (details: `caller`, `destination`, `name`, `operation`,
            `parameters`, `results` or `error`; FAILURE when refused or failed)
             Example: CONCH.
        severity (str): SUCCESS, FAILURE, WARNING or INFORMATION, in any case; stored upper case. Anything else is 400.
            Example: warning.
        details (AuditEntryCreateDetails): Free-form JSON object describing the event; `{}` for none. Required, as the
            specification's body names it. Example: {'message': 'Pump 3 pressure above threshold'}.
    """

    source: AuditSource
    severity: str
    details: AuditEntryCreateDetails

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        source = self.source.value

        severity = self.severity

        details = self.details.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
                "severity": severity,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry_create_details import AuditEntryCreateDetails  # noqa: PLC0415

        d = dict(src_dict)
        source = AuditSource(d.pop("source"))

        severity = d.pop("severity")

        details = AuditEntryCreateDetails.from_dict(d.pop("details"))

        _obj = cls(
            source=source,
            severity=severity,
            details=details,
        )

        return _obj
