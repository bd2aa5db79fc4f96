from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="Statistic")


@_attrs_define
class Statistic:
    """A counter, absolute since start.

    Attributes:
        key (str): BUFFERED, DISCARDED, PURGED, READINGS, UNSENT, UNSNPURGED, the name of a north service or task
            (readings sent), an asset code (readings ingested) or `<south service>-Ingest`. Example: READINGS.
        description (str): What the counter counts. Example: Readings received.
        value (int): The count. Example: 15220.
    """

    key: str
    description: str
    value: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        description = self.description

        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "description": description,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        description = d.pop("description")

        value = d.pop("value")

        _obj = cls(
            key=key,
            description=description,
            value=value,
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
