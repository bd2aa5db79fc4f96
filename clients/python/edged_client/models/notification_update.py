from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.notification_type import NotificationType
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.notification_config_values import NotificationConfigValues


T = TypeVar("T", bound="NotificationUpdate")


@_attrs_define
class NotificationUpdate:
    """The fields of a notification instance to change; absent ones stay.

    Attributes:
        description (str | Unset):
        rule (str | Unset):
        channel (str | Unset):
        notification_type (NotificationType | Unset): How often an instance sends (see GET /edge/notification/type).
            Example: one shot.
        enabled (bool | Unset):
        retrigger_time (float | Unset):
        rule_config (NotificationConfigValues | Unset): Values of a plugin's items, keyed by item name, each a string
            checked against its item's rules.
        delivery_config (NotificationConfigValues | Unset): Values of a plugin's items, keyed by item name, each a
            string checked against its item's rules.
    """

    description: str | Unset = UNSET
    rule: str | Unset = UNSET
    channel: str | Unset = UNSET
    notification_type: NotificationType | Unset = UNSET
    enabled: bool | Unset = UNSET
    retrigger_time: float | Unset = UNSET
    rule_config: NotificationConfigValues | Unset = UNSET
    delivery_config: NotificationConfigValues | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        rule = self.rule

        channel = self.channel

        notification_type: str | Unset = UNSET
        if not isinstance(self.notification_type, Unset):
            notification_type = self.notification_type.value

        enabled = self.enabled

        retrigger_time = self.retrigger_time

        rule_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rule_config, Unset):
            rule_config = self.rule_config.to_dict()

        delivery_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delivery_config, Unset):
            delivery_config = self.delivery_config.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if rule is not UNSET:
            field_dict["rule"] = rule
        if channel is not UNSET:
            field_dict["channel"] = channel
        if notification_type is not UNSET:
            field_dict["notification_type"] = notification_type
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if retrigger_time is not UNSET:
            field_dict["retrigger_time"] = retrigger_time
        if rule_config is not UNSET:
            field_dict["rule_config"] = rule_config
        if delivery_config is not UNSET:
            field_dict["delivery_config"] = delivery_config

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.notification_config_values import NotificationConfigValues  # noqa: PLC0415

        d = dict(src_dict)
        description = d.pop("description", UNSET)

        rule = d.pop("rule", UNSET)

        channel = d.pop("channel", UNSET)

        _notification_type = d.pop("notification_type", UNSET)
        notification_type: NotificationType | Unset
        if isinstance(_notification_type, Unset):
            notification_type = UNSET
        else:
            notification_type = NotificationType(_notification_type)

        enabled = d.pop("enabled", UNSET)

        retrigger_time = d.pop("retrigger_time", UNSET)

        _rule_config = d.pop("rule_config", UNSET)
        rule_config: NotificationConfigValues | Unset
        if isinstance(_rule_config, Unset):
            rule_config = UNSET
        else:
            rule_config = NotificationConfigValues.from_dict(_rule_config)

        _delivery_config = d.pop("delivery_config", UNSET)
        delivery_config: NotificationConfigValues | Unset
        if isinstance(_delivery_config, Unset):
            delivery_config = UNSET
        else:
            delivery_config = NotificationConfigValues.from_dict(_delivery_config)

        _obj = cls(
            description=description,
            rule=rule,
            channel=channel,
            notification_type=notification_type,
            enabled=enabled,
            retrigger_time=retrigger_time,
            rule_config=rule_config,
            delivery_config=delivery_config,
        )

        return _obj
