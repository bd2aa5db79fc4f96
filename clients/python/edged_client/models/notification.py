from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.notification_type import NotificationType
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.category import Category


T = TypeVar("T", bound="Notification")


@_attrs_define
class Notification:
    """A notification instance.

    Attributes:
        name (str):  Example: overheat.
        description (str):
        rule (str):  Example: threshold.
        rule_config (Category): The items of a category, keyed by item name. Example: {'httpPort': {'description': 'Port
            to accept HTTP connections on', 'type': 'integer', 'default': '8081', 'displayName': 'HTTP Port', 'order': '2',
            'value': '8081'}, 'authentication': {'description': 'API Call Authentication', 'type': 'enumeration', 'options':
            ['mandatory', 'optional'], 'default': 'optional', 'displayName': 'Authentication', 'order': '5', 'value':
            'optional'}}.
        channel (str): The delivery plugin of the instance's own channel. Example: webhook.
        delivery_config (Category): The items of a category, keyed by item name. Example: {'httpPort': {'description':
            'Port to accept HTTP connections on', 'type': 'integer', 'default': '8081', 'displayName': 'HTTP Port', 'order':
            '2', 'value': '8081'}, 'authentication': {'description': 'API Call Authentication', 'type': 'enumeration',
            'options': ['mandatory', 'optional'], 'default': 'optional', 'displayName': 'Authentication', 'order': '5',
            'value': 'optional'}}.
        notification_type (NotificationType): How often an instance sends (see GET /edge/notification/type). Example:
            one shot.
        enable (bool):
        retrigger_time (float):  Example: 60.
        channels (list[str]): Names of the extra delivery channels.
    """

    name: str
    description: str
    rule: str
    rule_config: Category
    channel: str
    delivery_config: Category
    notification_type: NotificationType
    enable: bool
    retrigger_time: float
    channels: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description = self.description

        rule = self.rule

        rule_config = self.rule_config.to_dict()

        channel = self.channel

        delivery_config = self.delivery_config.to_dict()

        notification_type = self.notification_type.value

        enable = self.enable

        retrigger_time = self.retrigger_time

        channels = self.channels

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "description": description,
                "rule": rule,
                "ruleConfig": rule_config,
                "channel": channel,
                "deliveryConfig": delivery_config,
                "notificationType": notification_type,
                "enable": enable,
                "retriggerTime": retrigger_time,
                "channels": channels,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category import Category  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description")

        rule = d.pop("rule")

        rule_config = Category.from_dict(d.pop("ruleConfig"))

        channel = d.pop("channel")

        delivery_config = Category.from_dict(d.pop("deliveryConfig"))

        notification_type = NotificationType(d.pop("notificationType"))

        enable = d.pop("enable")

        retrigger_time = d.pop("retriggerTime")

        channels = cast(list[str], d.pop("channels"))

        _obj = cls(
            name=name,
            description=description,
            rule=rule,
            rule_config=rule_config,
            channel=channel,
            delivery_config=delivery_config,
            notification_type=notification_type,
            enable=enable,
            retrigger_time=retrigger_time,
            channels=channels,
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
