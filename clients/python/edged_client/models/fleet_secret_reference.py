from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

T = TypeVar("T", bound="FleetSecretReference")


@_attrs_define
class FleetSecretReference:
    """Where a secret comes from on the machine that resolves the document; exactly one field.

    Attributes:
        from_env (str | Unset): An environment variable holding the secret. Example: EDGE_SECRET_NORTH1_PASSWORD.
        from_file (str | Unset): A file holding the secret (a final newline is dropped). Example: /run/secrets/north1.
    """

    from_env: str | Unset = UNSET
    from_file: str | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        from_env = self.from_env

        from_file = self.from_file

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if from_env is not UNSET:
            field_dict["fromEnv"] = from_env
        if from_file is not UNSET:
            field_dict["fromFile"] = from_file

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_env = d.pop("fromEnv", UNSET)

        from_file = d.pop("fromFile", UNSET)

        _obj = cls(
            from_env=from_env,
            from_file=from_file,
        )

        return _obj
