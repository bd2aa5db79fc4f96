from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ScheduleSelector")


@_attrs_define
class ScheduleSelector:
    """Names a schedule by name or by id; exactly one of the two.

    Attributes:
        schedule_name (str | Unset): The schedule name (for a service, the service name). Example: sine.
        schedule_id (UUID | Unset): The schedule id. Example: 2176eb68-7303-11e7-8cf7-a6006ad3dba0.
    """

    schedule_name: str | Unset = UNSET
    schedule_id: UUID | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        schedule_name = self.schedule_name

        schedule_id: str | Unset = UNSET
        if not isinstance(self.schedule_id, Unset):
            schedule_id = str(self.schedule_id)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if schedule_name is not UNSET:
            field_dict["schedule_name"] = schedule_name
        if schedule_id is not UNSET:
            field_dict["schedule_id"] = schedule_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        schedule_name = d.pop("schedule_name", UNSET)

        _schedule_id = d.pop("schedule_id", UNSET)
        schedule_id: UUID | Unset
        if isinstance(_schedule_id, Unset):
            schedule_id = UNSET
        else:
            schedule_id = UUID(_schedule_id)

        _obj = cls(
            schedule_name=schedule_name,
            schedule_id=schedule_id,
        )

        return _obj
