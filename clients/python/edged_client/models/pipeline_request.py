from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import model_repr as _model_repr

T = TypeVar("T", bound="PipelineRequest")


@_attrs_define
class PipelineRequest:
    """
    Attributes:
        pipeline (list[str]): Filter instances, in the order they run. Example: ['scale1', 'expr1', 'delta1'].
    """

    pipeline: list[str]

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        pipeline = self.pipeline

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pipeline": pipeline,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pipeline = cast(list[str], d.pop("pipeline"))

        _obj = cls(
            pipeline=pipeline,
        )

        return _obj
