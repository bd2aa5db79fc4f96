from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.category_create_items import CategoryCreateItems
    from ..models.category_create_value import CategoryCreateValue


T = TypeVar("T", bound="CategoryCreate")


@_attrs_define
class CategoryCreate:
    """A category to create or merge into. Item definitions may come in `items` or in `value` (both are accepted and
    combined; a name in both is 400). On an existing key new items are added, existing items keep their current value
    while their definition is updated, and items not named stay.

        Example:
            {'key': 'pump', 'description': 'Pump station settings', 'value': {'interval': {'description': 'Polling interval
                in seconds', 'type': 'integer', 'default': '10'}}}

        Attributes:
            key (str): The unique key of the category; 1 to 255 characters, no control characters, not blank (only white
                space is 400). Example: pump.
            description (str | Unset): What the category configures. Example: Pump station settings.
            displayName (str | Unset): Label for display; defaults to the key. Example: Pump station.
            display_name (str | Unset): The alternative spelling of `displayName`; giving both with different values is 400.
            items (CategoryCreateItems | Unset): Item definitions keyed by item name.
            value (CategoryCreateValue | Unset): Item definitions keyed by item name (the alternative spelling of `items`).
    """

    key: str
    description: str | Unset = UNSET
    displayName: str | Unset = UNSET
    display_name: str | Unset = UNSET
    items: CategoryCreateItems | Unset = UNSET
    value: CategoryCreateValue | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        description = self.description

        displayName = self.displayName

        display_name = self.display_name

        items: dict[str, Any] | Unset = UNSET
        if not isinstance(self.items, Unset):
            items = self.items.to_dict()

        value: dict[str, Any] | Unset = UNSET
        if not isinstance(self.value, Unset):
            value = self.value.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if displayName is not UNSET:
            field_dict["displayName"] = displayName
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if items is not UNSET:
            field_dict["items"] = items
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.category_create_items import CategoryCreateItems  # noqa: PLC0415
        from ..models.category_create_value import CategoryCreateValue  # noqa: PLC0415

        d = dict(src_dict)
        key = d.pop("key")

        description = d.pop("description", UNSET)

        displayName = d.pop("displayName", UNSET)

        display_name = d.pop("display_name", UNSET)

        _items = d.pop("items", UNSET)
        items: CategoryCreateItems | Unset
        if isinstance(_items, Unset):
            items = UNSET
        else:
            items = CategoryCreateItems.from_dict(_items)

        _value = d.pop("value", UNSET)
        value: CategoryCreateValue | Unset
        if isinstance(_value, Unset):
            value = UNSET
        else:
            value = CategoryCreateValue.from_dict(_value)

        _obj = cls(
            key=key,
            description=description,
            displayName=displayName,
            display_name=display_name,
            items=items,
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
