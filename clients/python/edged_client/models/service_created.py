from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="ServiceCreated")


@_attrs_define
class ServiceCreated:
    """
    Attributes:
        message (str):  Example: Service sine created.
        name (str): The service name, or for an install the package name. Example: sine.
        id (UUID): The new service's schedule id, or for an install the id of the install task. Example:
            0ad4b5f2-1f3c-4e4f-9f55-2a1b7e9c3d10.
        link (str | Unset): For an install, the path of the install task's status (`GET /edge/task/{id}`). Example:
            /edge/task/0ad4b5f2-1f3c-4e4f-9f55-2a1b7e9c3d10.
        log (str | Unset): For an install, the name of its repository log (`GET /edge/package/log/{name}`). Example:
            261123-14-31-05-3-install-csv_south.log.
    """

    message: str
    name: str
    id: UUID
    link: str | Unset = UNSET
    log: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        name = self.name

        id = str(self.id)

        link = self.link

        log = self.log

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "name": name,
                "id": id,
            }
        )
        if link is not UNSET:
            field_dict["link"] = link
        if log is not UNSET:
            field_dict["log"] = log

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        name = d.pop("name")

        id = UUID(d.pop("id"))

        link = d.pop("link", UNSET)

        log = d.pop("log", UNSET)

        _obj = cls(
            message=message,
            name=name,
            id=id,
            link=link,
            log=log,
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
