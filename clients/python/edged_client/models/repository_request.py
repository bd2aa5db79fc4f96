from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="RepositoryRequest")


@_attrs_define
class RepositoryRequest:
    """The package repository to use.

    Attributes:
        url (str): Base URL of the repository. Example: https://packages.example.org/edged.
        version (str | Unset): The release to follow; `latest` (the default) follows the newest. Example: latest.
    """

    url: str
    version: str | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        version = d.pop("version", UNSET)

        _obj = cls(
            url=url,
            version=version,
        )

        return _obj
