from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.config_item_mandatory import ConfigItemMandatory
from ..models.config_item_readonly import ConfigItemReadonly
from ..models.config_item_type import ConfigItemType
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ConfigItem")


@_attrs_define
class ConfigItem:
    """A configuration item. Every attribute but `options` is a string, numbers and booleans included.

    Attributes:
        description (str): Text for display. Example: Port to accept HTTP connections on.
        type_ (ConfigItemType): The item's type, which drives validation and display. `JSON` values are serialized JSON;
            `password` values read back as `****`. Example: integer.
        value (str): The current value, always a string (JSON items hold serialized JSON, password items read back as
            `****`); empty when nothing is set. Example: 8081.
        default (str | Unset): The default value. Example: 8081.
        display_name (str | Unset): Label for display. Example: HTTP Port.
        order (str | Unset): Display order, an integer serialized as a string. Example: 2.
        options (list[str] | Unset): The allowed values of an `enumeration` item. Example: ['mandatory', 'optional'].
        validity (str | Unset): Condition over other items of the category under which this item is relevant. Example:
            enableHttp == "false".
        minimum (str | Unset): Smallest allowed value of a numeric item. Example: 1.
        maximum (str | Unset): Largest allowed value of a numeric item. Example: 65535.
        length (str | Unset): Maximum length of a string item. Example: 80.
        readonly (ConfigItemReadonly | Unset): "true" when the value cannot be changed through the API. Example: false.
        mandatory (ConfigItemMandatory | Unset): "true" when the value may not be empty. Example: true.
    """

    description: str
    type_: ConfigItemType
    value: str
    default: str | Unset = UNSET
    display_name: str | Unset = UNSET
    order: str | Unset = UNSET
    options: list[str] | Unset = UNSET
    validity: str | Unset = UNSET
    minimum: str | Unset = UNSET
    maximum: str | Unset = UNSET
    length: str | Unset = UNSET
    readonly: ConfigItemReadonly | Unset = UNSET
    mandatory: ConfigItemMandatory | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        type_ = self.type_.value

        value = self.value

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

        readonly: str | Unset = UNSET
        if not isinstance(self.readonly, Unset):
            readonly = self.readonly.value

        mandatory: str | Unset = UNSET
        if not isinstance(self.mandatory, Unset):
            mandatory = self.mandatory.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "type": type_,
                "value": value,
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
        description = d.pop("description")

        type_ = ConfigItemType(d.pop("type"))

        value = d.pop("value")

        default = d.pop("default", UNSET)

        display_name = d.pop("displayName", UNSET)

        order = d.pop("order", UNSET)

        options = cast(list[str], d.pop("options", UNSET))

        validity = d.pop("validity", UNSET)

        minimum = d.pop("minimum", UNSET)

        maximum = d.pop("maximum", UNSET)

        length = d.pop("length", UNSET)

        _readonly = d.pop("readonly", UNSET)
        readonly: ConfigItemReadonly | Unset
        if isinstance(_readonly, Unset):
            readonly = UNSET
        else:
            readonly = ConfigItemReadonly(_readonly)

        _mandatory = d.pop("mandatory", UNSET)
        mandatory: ConfigItemMandatory | Unset
        if isinstance(_mandatory, Unset):
            mandatory = UNSET
        else:
            mandatory = ConfigItemMandatory(_mandatory)

        _obj = cls(
            description=description,
            type_=type_,
            value=value,
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
