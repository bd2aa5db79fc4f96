from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.package_install_request_format import PackageInstallRequestFormat
from ..types import UNSET, Unset

T = TypeVar("T", bound="PackageInstallRequest")


@_attrs_define
class PackageInstallRequest:
    """A service package to install from the configured repository (`?action=install` in the specification's spelling,
    optional).

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

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        name = self.name

        version = self.version

        allow_downgrade = self.allow_downgrade

        field_dict: dict[str, Any] = {}

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

        return _obj
