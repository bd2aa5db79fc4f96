from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AssetTimespan")


@_attrs_define
class AssetTimespan:
    """
    Attributes:
        oldest (str): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff`. Example: 2024-05-01 10:15:42.123456.
        newest (str): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff`. Example: 2024-05-01 10:15:42.123456.
    """

    oldest: str
    newest: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        oldest = self.oldest

        newest = self.newest

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "oldest": oldest,
                "newest": newest,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        oldest = d.pop("oldest")

        newest = d.pop("newest")

        asset_timespan = cls(
            oldest=oldest,
            newest=newest,
        )

        asset_timespan.additional_properties = d
        return asset_timespan

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
