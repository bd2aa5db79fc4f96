from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.fleet_change import FleetChange
    from ..models.fleet_changes_summary import FleetChangesSummary


T = TypeVar("T", bound="FleetChanges")


@_attrs_define
class FleetChanges:
    """The changes of a plan or an apply, in order, and their count by action.

    Attributes:
        changes (list[FleetChange]):
        summary (FleetChangesSummary):
    """

    changes: list[FleetChange]
    summary: FleetChangesSummary
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        summary = self.summary.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_change import FleetChange  # noqa: PLC0415
        from ..models.fleet_changes_summary import FleetChangesSummary  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = FleetChange.from_dict(changes_item_data)

            changes.append(changes_item)

        summary = FleetChangesSummary.from_dict(d.pop("summary"))

        _obj = cls(
            changes=changes,
            summary=summary,
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
