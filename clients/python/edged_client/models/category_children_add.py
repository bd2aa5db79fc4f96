from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="CategoryChildrenAdd")


@_attrs_define
class CategoryChildrenAdd:
    """The keys of the categories to attach as children.

    Attributes:
        children (list[str]):  Example: ['pump'].
    """

    children: list[str]

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        children = self.children

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "children": children,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        children = cast(list[str], d.pop("children"))

        _obj = cls(
            children=children,
        )

        return _obj
