from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.notification_plugin import NotificationPlugin


T = TypeVar("T", bound="NotificationPlugins")


@_attrs_define
class NotificationPlugins:
    """
    Attributes:
        rules (list[NotificationPlugin]):
        delivery (list[NotificationPlugin]):
    """

    rules: list[NotificationPlugin]
    delivery: list[NotificationPlugin]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        delivery = []
        for delivery_item_data in self.delivery:
            delivery_item = delivery_item_data.to_dict()
            delivery.append(delivery_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rules": rules,
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.notification_plugin import NotificationPlugin  # noqa: PLC0415

        d = dict(src_dict)
        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = NotificationPlugin.from_dict(rules_item_data)

            rules.append(rules_item)

        delivery = []
        _delivery = d.pop("delivery")
        for delivery_item_data in _delivery:
            delivery_item = NotificationPlugin.from_dict(delivery_item_data)

            delivery.append(delivery_item)

        _obj = cls(
            rules=rules,
            delivery=delivery,
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
