from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ConfigValue")


@_attrs_define
class ConfigValue:
    """A new value for a configuration item.

    Attributes:
        value (str): The value, always a string (serialized JSON for a JSON item). Example: 8082.
    """

    value: str

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        value = d.pop("value")

        _obj = cls(
            value=value,
        )

        return _obj
