from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.filter_create_request_filter_config import FilterCreateRequestFilterConfig


T = TypeVar("T", bound="FilterCreateRequest")


@_attrs_define
class FilterCreateRequest:
    """A filter instance to create.

    Attributes:
        name (str): The instance's name: no control characters, no leading or trailing space; also names its category
            and its persisted data in a service. Example: scale1.
        plugin (str): The filter plugin. Example: scale.
        filter_config (FilterCreateRequestFilterConfig | Unset): Initial values of the instance's items, keyed by item
            name, each a string checked against its item's rules. Example: {'rules': '[{"datapoint": "temp*", "factor": 0.1,
            "offset": -40}]'}.
    """

    name: str
    plugin: str
    filter_config: FilterCreateRequestFilterConfig | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plugin = self.plugin

        filter_config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filter_config, Unset):
            filter_config = self.filter_config.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "plugin": plugin,
            }
        )
        if filter_config is not UNSET:
            field_dict["filter_config"] = filter_config

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filter_create_request_filter_config import FilterCreateRequestFilterConfig  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        plugin = d.pop("plugin")

        _filter_config = d.pop("filter_config", UNSET)
        filter_config: FilterCreateRequestFilterConfig | Unset
        if isinstance(_filter_config, Unset):
            filter_config = UNSET
        else:
            filter_config = FilterCreateRequestFilterConfig.from_dict(_filter_config)

        _obj = cls(
            name=name,
            plugin=plugin,
            filter_config=filter_config,
        )

        return _obj
