from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="OwnUserUpdate")


@_attrs_define
class OwnUserUpdate:
    """
    Attributes:
        real_name (str): The new real name. Example: Pat Operator.
    """

    real_name: str

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        real_name = self.real_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "real_name": real_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        real_name = d.pop("real_name")

        _obj = cls(
            real_name=real_name,
        )

        return _obj
