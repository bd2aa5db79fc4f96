from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.notification_type import NotificationType
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.fleet_channel import FleetChannel
    from ..models.fleet_values import FleetValues


T = TypeVar("T", bound="FleetNotification")


@_attrs_define
class FleetNotification:
    """A notification instance with its rule's and delivery channel's configuration and its extra channels.

    Attributes:
        name (str):
        type_ (NotificationType): How often an instance sends (see GET /edge/notification/type). Example: one shot.
        rule (str):
        channel (str):
        description (str | Unset):
        enabled (bool | Unset):
        retrigger_time (float | Unset): Seconds.
        rule_config (FleetValues | Unset): Item values keyed by item name.
        delivery_config (FleetValues | Unset): Item values keyed by item name.
        channels (list[FleetChannel] | Unset):
    """

    name: str
    type_: NotificationType
    rule: str
    channel: str
    description: str | Unset = UNSET
    enabled: bool | Unset = UNSET
    retrigger_time: float | Unset = UNSET
    rule_config: FleetValues | Unset = UNSET
    delivery_config: FleetValues | Unset = UNSET
    channels: list[FleetChannel] | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        rule = self.rule

        channel = self.channel

        description = self.description

        enabled = self.enabled

        retrigger_time = self.retrigger_time

        rule_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rule_config, Unset):
            rule_config = self.rule_config.to_dict()

        delivery_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delivery_config, Unset):
            delivery_config = self.delivery_config.to_dict()

        channels: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.channels, Unset):
            channels = []
            for channels_item_data in self.channels:
                channels_item = channels_item_data.to_dict()
                channels.append(channels_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
                "rule": rule,
                "channel": channel,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if retrigger_time is not UNSET:
            field_dict["retriggerTime"] = retrigger_time
        if rule_config is not UNSET:
            field_dict["ruleConfig"] = rule_config
        if delivery_config is not UNSET:
            field_dict["deliveryConfig"] = delivery_config
        if channels is not UNSET:
            field_dict["channels"] = channels

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_channel import FleetChannel  # noqa: PLC0415
        from ..models.fleet_values import FleetValues  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        type_ = NotificationType(d.pop("type"))

        rule = d.pop("rule")

        channel = d.pop("channel")

        description = d.pop("description", UNSET)

        enabled = d.pop("enabled", UNSET)

        retrigger_time = d.pop("retriggerTime", UNSET)

        _rule_config = d.pop("ruleConfig", UNSET)
        rule_config: FleetValues | Unset
        if isinstance(_rule_config, Unset):
            rule_config = UNSET
        else:
            rule_config = FleetValues.from_dict(_rule_config)

        _delivery_config = d.pop("deliveryConfig", UNSET)
        delivery_config: FleetValues | Unset
        if isinstance(_delivery_config, Unset):
            delivery_config = UNSET
        else:
            delivery_config = FleetValues.from_dict(_delivery_config)

        _channels = d.pop("channels", UNSET)
        channels: list[FleetChannel] | Unset = UNSET
        if _channels is not UNSET:
            channels = []
            for channels_item_data in _channels:
                channels_item = FleetChannel.from_dict(channels_item_data)

                channels.append(channels_item)

        _obj = cls(
            name=name,
            type_=type_,
            rule=rule,
            channel=channel,
            description=description,
            enabled=enabled,
            retrigger_time=retrigger_time,
            rule_config=rule_config,
            delivery_config=delivery_config,
            channels=channels,
        )

        return _obj
