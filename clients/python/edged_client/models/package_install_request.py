from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.package_install_request_format import PackageInstallRequestFormat
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="PackageInstallRequest")


@_attrs_define
class PackageInstallRequest:
    """A service package to install from the configured repository (`?action=install`).

    Attributes:
        format_ (PackageInstallRequestFormat): Where the package comes from. Example: repository.
        name (str): The package name. Example: notification.
        version (str | Unset): The version to install; the latest when omitted. Example: 1.0.0.
        allow_downgrade (bool | Unset): Install the package again although it is installed, to move it down to the
            release `POST /edge/repository` pinned (`version`, when given, must be that release): 409 when no release is
            pinned or it is not lower than the installed version. The move is audited PKGUP WARNING with `"downgrade":
            true`, and the services using the plugin restart. Default: False. Example: False.
    """

    format_: PackageInstallRequestFormat
    name: str
    version: str | Unset = UNSET
    allow_downgrade: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        name = self.name

        version = self.version

        allow_downgrade = self.allow_downgrade

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "format": format_,
                "name": name,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version
        if allow_downgrade is not UNSET:
            field_dict["allowDowngrade"] = allow_downgrade

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        format_ = PackageInstallRequestFormat(d.pop("format"))

        name = d.pop("name")

        version = d.pop("version", UNSET)

        allow_downgrade = d.pop("allowDowngrade", UNSET)

        _obj = cls(
            format_=format_,
            name=name,
            version=version,
            allow_downgrade=allow_downgrade,
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
