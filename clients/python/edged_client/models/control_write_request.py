from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.control_destination import ControlDestination
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.control_write_request_values import ControlWriteRequestValues


T = TypeVar("T", bound="ControlWriteRequest")


@_attrs_define
class ControlWriteRequest:
    """
    Attributes:
        destination (ControlDestination): Where a control request goes: `service` (the south service `name`), `asset`
            (the running south service ingesting asset `name`) or `broadcast` (every running south service able to do it).
        values (ControlWriteRequestValues): Datapoint name → value. Example: {'setpoint': 21.5}.
        name (str | Unset): The service or asset; required unless broadcasting. Example: plc1.
    """

    destination: ControlDestination
    values: ControlWriteRequestValues
    name: str | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        destination = self.destination.value

        values = self.values.to_dict()

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "destination": destination,
                "values": values,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.control_write_request_values import ControlWriteRequestValues  # noqa: PLC0415

        d = dict(src_dict)
        destination = ControlDestination(d.pop("destination"))

        values = ControlWriteRequestValues.from_dict(d.pop("values"))

        name = d.pop("name", UNSET)

        _obj = cls(
            destination=destination,
            values=values,
            name=name,
        )

        return _obj
