from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.north_service_type import NorthServiceType
from ..models.service_status import ServiceStatus
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.north_schedule import NorthSchedule
    from ..models.plugin_info import PluginInfo


T = TypeVar("T", bound="NorthService")


@_attrs_define
class NorthService:
    """A north service or task. A task's `status` is `running` while an execution is in progress and `shutdown` between
    executions.

        Attributes:
            name (str):  Example: upstream.
            type_ (NorthServiceType): Whether it runs as a service or as a scheduled task. Example: task.
            plugin (PluginInfo):
            sent (int): Readings sent since start (the statistic named after it). Example: 15000.
            status (ServiceStatus): The state of a service. `running`: its plugin started (a plugin process completed its
                handshake and its `Start` returned) and its health checks pass. `shutdown`: it is disabled or stopped.
                `unresponsive`: it is started but not doing its work: its plugin has not started yet (or hangs in its start),
                its health check (every `SMNTR.sleep_interval` seconds) failed or took longer than `SMNTR.ping_timeout`, a north
                service's destination does not accept readings (back to `running` once it does), it cannot run while storage is
                unavailable (retried every `SMNTR.sleep_interval`), or it did not stop in time. `failed`: its plugin failed; it
                is restarted with backoff (1 s doubling to 1 min) unless `SMNTR.restart_failed` is `manual` or
                `SMNTR.max_attempts` restarts in a row failed, and then it stays failed until it is disabled and enabled again.
                Example: running.
            schedule (NorthSchedule): The schedule that runs a north service or task.
    """

    name: str
    type_: NorthServiceType
    plugin: PluginInfo
    sent: int
    status: ServiceStatus
    schedule: NorthSchedule
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        plugin = self.plugin.to_dict()

        sent = self.sent

        status = self.status.value

        schedule = self.schedule.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "plugin": plugin,
                "sent": sent,
                "status": status,
                "schedule": schedule,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.north_schedule import NorthSchedule  # noqa: PLC0415
        from ..models.plugin_info import PluginInfo  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        type_ = NorthServiceType(d.pop("type"))

        plugin = PluginInfo.from_dict(d.pop("plugin"))

        sent = d.pop("sent")

        status = ServiceStatus(d.pop("status"))

        schedule = NorthSchedule.from_dict(d.pop("schedule"))

        _obj = cls(
            name=name,
            type_=type_,
            plugin=plugin,
            sent=sent,
            status=status,
            schedule=schedule,
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
