from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="FleetItemDefinition")


@_attrs_define
class FleetItemDefinition:
    """The definition of an item of a category the document creates (as in `POST /edge/category`).

    Attributes:
        type_ (str):
        description (str):
        default (str | Unset):
        display_name (str | Unset):
        order (str | Unset):
        options (list[str] | Unset):
        validity (str | Unset):
        minimum (str | Unset):
        maximum (str | Unset):
        length (str | Unset):
        readonly (str | Unset):
        mandatory (str | Unset):
    """

    type_: str
    description: str
    default: str | Unset = UNSET
    display_name: str | Unset = UNSET
    order: str | Unset = UNSET
    options: list[str] | Unset = UNSET
    validity: str | Unset = UNSET
    minimum: str | Unset = UNSET
    maximum: str | Unset = UNSET
    length: str | Unset = UNSET
    readonly: str | Unset = UNSET
    mandatory: str | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        description = self.description

        default = self.default

        display_name = self.display_name

        order = self.order

        options: list[str] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options

        validity = self.validity

        minimum = self.minimum

        maximum = self.maximum

        length = self.length

        readonly = self.readonly

        mandatory = self.mandatory

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "description": description,
            }
        )
        if default is not UNSET:
            field_dict["default"] = default
        if display_name is not UNSET:
            field_dict["displayName"] = display_name
        if order is not UNSET:
            field_dict["order"] = order
        if options is not UNSET:
            field_dict["options"] = options
        if validity is not UNSET:
            field_dict["validity"] = validity
        if minimum is not UNSET:
            field_dict["minimum"] = minimum
        if maximum is not UNSET:
            field_dict["maximum"] = maximum
        if length is not UNSET:
            field_dict["length"] = length
        if readonly is not UNSET:
            field_dict["readonly"] = readonly
        if mandatory is not UNSET:
            field_dict["mandatory"] = mandatory

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = d.pop("type")

        description = d.pop("description")

        default = d.pop("default", UNSET)

        display_name = d.pop("displayName", UNSET)

        order = d.pop("order", UNSET)

        options = cast(list[str], d.pop("options", UNSET))

        validity = d.pop("validity", UNSET)

        minimum = d.pop("minimum", UNSET)

        maximum = d.pop("maximum", UNSET)

        length = d.pop("length", UNSET)

        readonly = d.pop("readonly", UNSET)

        mandatory = d.pop("mandatory", UNSET)

        _obj = cls(
            type_=type_,
            description=description,
            default=default,
            display_name=display_name,
            order=order,
            options=options,
            validity=validity,
            minimum=minimum,
            maximum=maximum,
            length=length,
            readonly=readonly,
            mandatory=mandatory,
        )

        return _obj
