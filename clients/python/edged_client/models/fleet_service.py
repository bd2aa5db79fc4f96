from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.fleet_values import FleetValues


T = TypeVar("T", bound="FleetService")


@_attrs_define
class FleetService:
    """A service with its plugin configuration (the items that are not read-only) and its filter pipeline.

    Attributes:
        name (str):
        type_ (str): south, north, notification or dispatcher (any case).
        plugin (str):
        enabled (bool): Whether its schedule is enabled (the service runs).
        config (FleetValues | Unset): Item values keyed by item name.
        pipeline (list[str] | Unset): The filter instances of its pipeline, in order; absent or empty is none.
    """

    name: str
    type_: str
    plugin: str
    enabled: bool
    config: FleetValues | Unset = UNSET
    pipeline: list[str] | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        plugin = self.plugin

        enabled = self.enabled

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        pipeline: list[str] | Unset = UNSET
        if not isinstance(self.pipeline, Unset):
            pipeline = self.pipeline

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
                "plugin": plugin,
                "enabled": enabled,
            }
        )
        if config is not UNSET:
            field_dict["config"] = config
        if pipeline is not UNSET:
            field_dict["pipeline"] = pipeline

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_values import FleetValues  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        type_ = d.pop("type")

        plugin = d.pop("plugin")

        enabled = d.pop("enabled")

        _config = d.pop("config", UNSET)
        config: FleetValues | Unset
        if isinstance(_config, Unset):
            config = UNSET
        else:
            config = FleetValues.from_dict(_config)

        pipeline = cast(list[str], d.pop("pipeline", UNSET))

        _obj = cls(
            name=name,
            type_=type_,
            plugin=plugin,
            enabled=enabled,
            config=config,
            pipeline=pipeline,
        )

        return _obj
