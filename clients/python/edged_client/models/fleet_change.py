from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fleet_change_action import FleetChangeAction
from ..models.fleet_change_kind import FleetChangeKind
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="FleetChange")


@_attrs_define
class FleetChange:
    """One change: a whole object created or removed, or one field changed (`field` is e.g. `enabled`, `pipeline`, `role`,
    `items.age`, `config.port`; secrets show as `****`).

        Attributes:
            action (FleetChangeAction):
            kind (FleetChangeKind):
            name (str): The object's name (a channel's is `notification/channel`).
            field (str | Unset):
            from_ (str | Unset):
            to (str | Unset):
    """

    action: FleetChangeAction
    kind: FleetChangeKind
    name: str
    field: str | Unset = UNSET
    from_: str | Unset = UNSET
    to: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        kind = self.kind.value

        name = self.name

        field = self.field

        from_ = self.from_

        to = self.to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "kind": kind,
                "name": name,
            }
        )
        if field is not UNSET:
            field_dict["field"] = field
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = FleetChangeAction(d.pop("action"))

        kind = FleetChangeKind(d.pop("kind"))

        name = d.pop("name")

        field = d.pop("field", UNSET)

        from_ = d.pop("from", UNSET)

        to = d.pop("to", UNSET)

        _obj = cls(
            action=action,
            kind=kind,
            name=name,
            field=field,
            from_=from_,
            to=to,
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
