from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_state import TaskState
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="Task")


@_attrs_define
class Task:
    """One execution of a scheduled process. `endTime` and `exitCode` are absent while it runs.

    Attributes:
        id (UUID): The task id (not an operating-system process id); survives restarts. Example:
            6f7a2a61-8d0b-4c63-9d9e-5bd7a7f2e0c1.
        name (str): The task name (the name of the schedule that started it). Example: purge.
        process_name (str): The process behind the task. Example: purge.
        state (TaskState): `Running`; `Complete` (ended by itself); `Cancelled` (through the API); `Interrupted` (was
            running when the gateway stopped uncleanly). Example: Complete.
        start_time (datetime.datetime): UTC time with milliseconds, `YYYY-MM-DD HH:MM:SS.fff`. The format `timestamp`
            marks the gateway's timestamps: the SDKs parse them into their language's date-time type (Go `edgeclient.Time`,
            Python `datetime`, TypeScript `Date`). Example: 2024-05-01 10:15:42.123.
        reason (str): Why the task failed or was cancelled; empty otherwise.
        pid (int): The operating-system process id of the gateway itself: tasks run inside the gateway process, so every
            task of one run of the gateway has the same pid. Example: 4242.
        end_time (datetime.datetime | Unset): UTC time with milliseconds, `YYYY-MM-DD HH:MM:SS.fff`. The format
            `timestamp` marks the gateway's timestamps: the SDKs parse them into their language's date-time type (Go
            `edgeclient.Time`, Python `datetime`, TypeScript `Date`). Example: 2024-05-01 10:15:42.123.
        exit_code (int | Unset): 0 when the process succeeded, 1 when it failed (`reason` says why); absent while the
            task runs and for `Cancelled` and `Interrupted` tasks. Example: 0.
    """

    id: UUID
    name: str
    process_name: str
    state: TaskState
    start_time: datetime.datetime
    reason: str
    pid: int
    end_time: datetime.datetime | Unset = UNSET
    exit_code: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        process_name = self.process_name

        state = self.state.value

        start_time = self.start_time.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        reason = self.reason

        pid = self.pid

        end_time: str | Unset = UNSET
        if not isinstance(self.end_time, Unset):
            end_time = self.end_time.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        exit_code = self.exit_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "processName": process_name,
                "state": state,
                "startTime": start_time,
                "reason": reason,
                "pid": pid,
            }
        )
        if end_time is not UNSET:
            field_dict["endTime"] = end_time
        if exit_code is not UNSET:
            field_dict["exitCode"] = exit_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        process_name = d.pop("processName")

        state = TaskState(d.pop("state"))

        start_time = datetime.datetime.fromisoformat(d.pop("startTime")).replace(tzinfo=datetime.UTC)

        reason = d.pop("reason")

        pid = d.pop("pid")

        _end_time = d.pop("endTime", UNSET)
        end_time: datetime.datetime | Unset
        if isinstance(_end_time, Unset):
            end_time = UNSET
        else:
            end_time = datetime.datetime.fromisoformat(_end_time).replace(tzinfo=datetime.UTC)

        exit_code = d.pop("exitCode", UNSET)

        _obj = cls(
            id=id,
            name=name,
            process_name=process_name,
            state=state,
            start_time=start_time,
            reason=reason,
            pid=pid,
            end_time=end_time,
            exit_code=exit_code,
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
