from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.fleet_category_definitions import FleetCategoryDefinitions
    from ..models.fleet_values import FleetValues


T = TypeVar("T", bound="FleetCategory")


@_attrs_define
class FleetCategory:
    """A configuration category of no service, filter or notification. Only the items listed are managed. `definitions`
    (with `description` and `displayName`) let apply create a category the gateway lacks; seeded categories are exported
    without them.

        Attributes:
            name (str):
            items (FleetValues): Item values keyed by item name.
            description (str | Unset):
            display_name (str | Unset):
            definitions (FleetCategoryDefinitions | Unset):
    """

    name: str
    items: FleetValues
    description: str | Unset = UNSET
    display_name: str | Unset = UNSET
    definitions: FleetCategoryDefinitions | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        items = self.items.to_dict()

        description = self.description

        display_name = self.display_name

        definitions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.definitions, Unset):
            definitions = self.definitions.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "items": items,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if display_name is not UNSET:
            field_dict["displayName"] = display_name
        if definitions is not UNSET:
            field_dict["definitions"] = definitions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_category_definitions import FleetCategoryDefinitions  # noqa: PLC0415
        from ..models.fleet_values import FleetValues  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        items = FleetValues.from_dict(d.pop("items"))

        description = d.pop("description", UNSET)

        display_name = d.pop("displayName", UNSET)

        _definitions = d.pop("definitions", UNSET)
        definitions: FleetCategoryDefinitions | Unset
        if isinstance(_definitions, Unset):
            definitions = UNSET
        else:
            definitions = FleetCategoryDefinitions.from_dict(_definitions)

        _obj = cls(
            name=name,
            items=items,
            description=description,
            display_name=display_name,
            definitions=definitions,
        )

        return _obj
