from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="CategoryChildrenAdd")


@_attrs_define
class CategoryChildrenAdd:
    """The keys of the categories to attach as children.

    Attributes:
        children (list[str]):  Example: ['pump'].
    """

    children: list[str]

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

        category_children_add = cls(
            children=children,
        )

        return category_children_add
