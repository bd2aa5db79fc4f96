from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="PurgeStarted")


@_attrs_define
class PurgeStarted:
    """
    Attributes:
        message (str):  Example: Deleting 1000000 readings in the background.
        id (UUID): The id of the background deletion task. Example: 3f6c2a1e-7b8d-4c9e-a0f1-2b3c4d5e6f70.
        link (str): The path of the task's status (`GET /edge/task/{id}`). Example:
            /edge/task/3f6c2a1e-7b8d-4c9e-a0f1-2b3c4d5e6f70.
        pending (int): The readings buffered (of the asset, or in all) when the deletion started. Example: 1000000.
    """

    message: str
    id: UUID
    link: str
    pending: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        id = str(self.id)

        link = self.link

        pending = self.pending

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "id": id,
                "link": link,
                "pending": pending,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        id = UUID(d.pop("id"))

        link = d.pop("link")

        pending = d.pop("pending")

        _obj = cls(
            message=message,
            id=id,
            link=link,
            pending=pending,
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
