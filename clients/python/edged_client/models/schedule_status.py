from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ScheduleStatus")


@_attrs_define
class ScheduleStatus:
    """The result of enabling or disabling a schedule.

    Attributes:
        schedule_id (UUID): The schedule's id. Example: 2176eb68-7303-11e7-8cf7-a6006ad3dba0.
        status (bool): Always true on success. Example: True.
        message (str):  Example: Schedule successfully enabled.
    """

    schedule_id: UUID
    status: bool
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        schedule_id = str(self.schedule_id)

        status = self.status

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "scheduleId": schedule_id,
                "status": status,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        schedule_id = UUID(d.pop("scheduleId"))

        status = d.pop("status")

        message = d.pop("message")

        _obj = cls(
            schedule_id=schedule_id,
            status=status,
            message=message,
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
