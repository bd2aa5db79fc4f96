from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.backup_status_entry import BackupStatusEntry


T = TypeVar("T", bound="BackupStatusList")


@_attrs_define
class BackupStatusList:
    """
    Attributes:
        backup_status (list[BackupStatusEntry]):
    """

    backup_status: list[BackupStatusEntry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        backup_status = []
        for backup_status_item_data in self.backup_status:
            backup_status_item = backup_status_item_data.to_dict()
            backup_status.append(backup_status_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "backupStatus": backup_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.backup_status_entry import BackupStatusEntry  # noqa: PLC0415

        d = dict(src_dict)
        backup_status = []
        _backup_status = d.pop("backupStatus")
        for backup_status_item_data in _backup_status:
            backup_status_item = BackupStatusEntry.from_dict(backup_status_item_data)

            backup_status.append(backup_status_item)

        _obj = cls(
            backup_status=backup_status,
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
