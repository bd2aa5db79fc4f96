from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AuditLogCode")


@_attrs_define
class AuditLogCode:
    """An audit source code and what it stands for.

    Attributes:
        code (str): An audit source code as the gateway reports it: one of `AuditSource`'s codes today, but an open set.
            Newer gateways add codes (each named in `GET /edge/audit/logcode`), so a client must accept a code it does not
            know rather than fail: the schema is a string, not an enumeration, for that reason. Codes are five upper-case
            letters. Example: CONCH.
        description (str):  Example: Configuration change.
    """

    code: str
    description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        description = d.pop("description")

        _obj = cls(
            code=code,
            description=description,
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
