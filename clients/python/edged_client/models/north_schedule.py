from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="NorthSchedule")


@_attrs_define
class NorthSchedule:
    """The schedule that runs a north service or task.

    Attributes:
        id (UUID): The schedule id. Example: 0ad4b5f2-1f3c-4e4f-9f55-2a1b7e9c3d10.
        enabled (bool): Whether the schedule is enabled. Example: True.
        repeat (int | None): Seconds between runs of a north task; null for a north service, which runs continuously.
            Example: 30.
    """

    id: UUID
    enabled: bool
    repeat: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        enabled = self.enabled

        repeat: int | None
        repeat = self.repeat

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "enabled": enabled,
                "repeat": repeat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        enabled = d.pop("enabled")

        def _parse_repeat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        repeat = _parse_repeat(d.pop("repeat"))

        _obj = cls(
            id=id,
            enabled=enabled,
            repeat=repeat,
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
