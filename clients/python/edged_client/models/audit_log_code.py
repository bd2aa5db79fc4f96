from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_source import AuditSource
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="AuditLogCode")


@_attrs_define
class AuditLogCode:
    """An audit source code and what it stands for.

    Attributes:
        code (AuditSource): The source code of an audit entry:
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
            - `NTFDL` notification deleted
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
        description (str):  Example: Configuration change.
    """

    code: AuditSource
    description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = AuditSource(d.pop("code"))

        description = d.pop("description")

        _obj = cls(
            code=code,
            description=description,
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
