from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.backup_status import BackupStatus
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="BackupStatusEntry")


@_attrs_define
class BackupStatusEntry:
    """
    Attributes:
        index (int): The status's index (1 RUNNING, 2 COMPLETED, 3 FAILED, 4 INTERRUPTED).
        name (BackupStatus): `RUNNING` being made; `COMPLETED` done (downloadable, restorable); `FAILED` ended with an
            error; `INTERRUPTED` the gateway stopped while it was running.
    """

    index: int
    name: BackupStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        name = self.name.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        name = BackupStatus(d.pop("name"))

        _obj = cls(
            index=index,
            name=name,
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
