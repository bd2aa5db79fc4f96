from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="AssetTimespan")


@_attrs_define
class AssetTimespan:
    """
    Attributes:
        oldest (datetime.datetime): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff` (format `timestamp`, as
            `Timestamp`). Example: 2024-05-01 10:15:42.123456.
        newest (datetime.datetime): UTC time with microseconds, `YYYY-MM-DD HH:MM:SS.ffffff` (format `timestamp`, as
            `Timestamp`). Example: 2024-05-01 10:15:42.123456.
    """

    oldest: datetime.datetime
    newest: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        oldest = self.oldest.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

        newest = self.newest.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")

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
        oldest = datetime.datetime.fromisoformat(d.pop("oldest")).replace(tzinfo=datetime.UTC)

        newest = datetime.datetime.fromisoformat(d.pop("newest")).replace(tzinfo=datetime.UTC)

        _obj = cls(
            oldest=oldest,
            newest=newest,
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
