from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.notification_type import NotificationType
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.notification_config_values import NotificationConfigValues


T = TypeVar("T", bound="NotificationCreate")


@_attrs_define
class NotificationCreate:
    """A notification instance to create.

    Example:
        {'name': 'overheat', 'description': 'Motor temperature above 80 °C', 'rule': 'threshold', 'channel': 'webhook',
            'notification_type': 'one shot', 'rule_config': {'asset': 'motor', 'datapoint': 'temperature', 'condition': '>',
            'value': '80'}, 'delivery_config': {'url': 'http://alarms.local:8080/hook'}}

    Attributes:
        name (str): No control characters, no leading or trailing space; also names the instance's configuration
            categories. Example: overheat.
        rule (str): The rule plugin. Example: threshold.
        channel (str): The delivery plugin of the instance's own channel. Example: webhook.
        notification_type (NotificationType): How often an instance sends (see GET /edge/notification/type). Example:
            one shot.
        description (str | Unset):  Example: Motor temperature above 80 °C.
        enabled (bool | Unset): A disabled instance is kept but not evaluated. Default: True.
        retrigger_time (float | Unset): Seconds between two sends of a `retriggered` instance. Default: 60.0.
        rule_config (NotificationConfigValues | Unset): Values of a plugin's items, keyed by item name, each a string
            checked against its item's rules.
        delivery_config (NotificationConfigValues | Unset): Values of a plugin's items, keyed by item name, each a
            string checked against its item's rules.
    """

    name: str
    rule: str
    channel: str
    notification_type: NotificationType
    description: str | Unset = UNSET
    enabled: bool | Unset = True
    retrigger_time: float | Unset = 60.0
    rule_config: NotificationConfigValues | Unset = UNSET
    delivery_config: NotificationConfigValues | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        rule = self.rule

        channel = self.channel

        notification_type = self.notification_type.value

        description = self.description

        enabled = self.enabled

        retrigger_time = self.retrigger_time

        rule_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rule_config, Unset):
            rule_config = self.rule_config.to_dict()

        delivery_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delivery_config, Unset):
            delivery_config = self.delivery_config.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "rule": rule,
                "channel": channel,
                "notification_type": notification_type,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
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
        name = d.pop("name")

        rule = d.pop("rule")

        channel = d.pop("channel")

        notification_type = NotificationType(d.pop("notification_type"))

        description = d.pop("description", UNSET)

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
            name=name,
            rule=rule,
            channel=channel,
            notification_type=notification_type,
            description=description,
            enabled=enabled,
            retrigger_time=retrigger_time,
            rule_config=rule_config,
            delivery_config=delivery_config,
        )

        return _obj
