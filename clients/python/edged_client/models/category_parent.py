from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.category_summary import CategorySummary


T = TypeVar("T", bound="CategoryParent")


@_attrs_define
class CategoryParent:
    """The parent of a category; `null` for a root.

    Attributes:
        parent (CategorySummary): A category in the category list.
    """

    parent: CategorySummary
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        parent = self.parent.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "parent": parent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category_summary import CategorySummary  # noqa: PLC0415

        d = dict(src_dict)
        parent = CategorySummary.from_dict(d.pop("parent"))

        category_parent = cls(
            parent=parent,
        )

        category_parent.additional_properties = d
        return category_parent

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
