from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="FleetSchedule")


@_attrs_define
class FleetSchedule:
    """One of the gateway's own schedules (purge, statistics…); services' schedules follow their service's `enabled`.

    Attributes:
        name (str):
        enabled (bool):
    """

    name: str
    enabled: bool

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "enabled": enabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        enabled = d.pop("enabled")

        _obj = cls(
            name=name,
            enabled=enabled,
        )

        return _obj
