from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.set_aside_reading import SetAsideReading


T = TypeVar("T", bound="SetAsideList")


@_attrs_define
class SetAsideList:
    """
    Attributes:
        total (int): How many readings this north service or task has set aside, all pages together. Example: 1.
        readings (list[SetAsideReading]):
    """

    total: int
    readings: list[SetAsideReading]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        readings = []
        for readings_item_data in self.readings:
            readings_item = readings_item_data.to_dict()
            readings.append(readings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "readings": readings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.set_aside_reading import SetAsideReading  # noqa: PLC0415

        d = dict(src_dict)
        total = d.pop("total")

        readings = []
        _readings = d.pop("readings")
        for readings_item_data in _readings:
            readings_item = SetAsideReading.from_dict(readings_item_data)

            readings.append(readings_item)

        _obj = cls(
            total=total,
            readings=readings,
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
