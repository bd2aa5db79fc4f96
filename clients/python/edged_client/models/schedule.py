from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.schedule_type import ScheduleType
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="Schedule")


@_attrs_define
class Schedule:
    """A schedule of the scheduler. `STARTUP` runs its process at start (services), `TIMED` at `time` (on weekday `day`, or
    daily when null), `INTERVAL` every `repeat` seconds (the first run one interval after the gateway starts, and at
    once when the schedule is created, enabled or changed while the gateway runs, e.g. `stats collection` following
    `STATISTICS.interval`), `MANUAL` only when the gateway itself starts it (no API call does). Runs that fall due while
    the gateway is down are not caught up; at most `SCHEDULER.max_running_tasks` tasks run at once, and a run due beyond
    that waits for a free slot. `repeat` and `time` are 0 where they do not apply. Disabling an INTERVAL task schedule
    and enabling it again therefore runs it at once (the `purge`, for example).

        Attributes:
            id (UUID): The schedule id. Example: 2176eb68-7303-11e7-8cf7-a6006ad3dba0.
            name (str): The unique schedule name; a service's schedule is named after the service. Example: purge.
            process_name (str): The process the schedule runs. Example: purge.
            type_ (ScheduleType): When the schedule runs. Example: INTERVAL.
            repeat (int): Interval in seconds between runs. Example: 600.
            time (int): Time of day of a TIMED schedule, in seconds after midnight UTC. Example: 0.
            day (int | None): Weekday of a TIMED schedule, 1 (Monday) to 7 (Sunday); null for every day.
            exclusive (bool): True when only one run of the schedule may be active at a time: a run that falls due while the
                previous one is still going is skipped. Example: True.
            enabled (bool): Whether the schedule runs; persisted across restarts. Example: True.
    """

    id: UUID
    name: str
    process_name: str
    type_: ScheduleType
    repeat: int
    time: int
    day: int | None
    exclusive: bool
    enabled: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        process_name = self.process_name

        type_ = self.type_.value

        repeat = self.repeat

        time = self.time

        day: int | None
        day = self.day

        exclusive = self.exclusive

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "processName": process_name,
                "type": type_,
                "repeat": repeat,
                "time": time,
                "day": day,
                "exclusive": exclusive,
                "enabled": enabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        process_name = d.pop("processName")

        type_ = ScheduleType(d.pop("type"))

        repeat = d.pop("repeat")

        time = d.pop("time")

        def _parse_day(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        day = _parse_day(d.pop("day"))

        exclusive = d.pop("exclusive")

        enabled = d.pop("enabled")

        _obj = cls(
            id=id,
            name=name,
            process_name=process_name,
            type_=type_,
            repeat=repeat,
            time=time,
            day=day,
            exclusive=exclusive,
            enabled=enabled,
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
