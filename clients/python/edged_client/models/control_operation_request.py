from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.control_destination import ControlDestination
from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.control_operation_request_parameters import ControlOperationRequestParameters


T = TypeVar("T", bound="ControlOperationRequest")


@_attrs_define
class ControlOperationRequest:
    """
    Attributes:
        destination (ControlDestination): Where a control request goes: `service` (the south service `name`), `asset`
            (the running south service ingesting asset `name`) or `broadcast` (every running south service able to do it).
        operation (str):  Example: Reset.
        name (str | Unset): The service or asset; required unless broadcasting. Example: line1.
        parameters (ControlOperationRequestParameters | Unset): Parameter name → value. Example: {'counter': 0}.
    """

    destination: ControlDestination
    operation: str
    name: str | Unset = UNSET
    parameters: ControlOperationRequestParameters | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        destination = self.destination.value

        operation = self.operation

        name = self.name

        parameters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = self.parameters.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "destination": destination,
                "operation": operation,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if parameters is not UNSET:
            field_dict["parameters"] = parameters

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.control_operation_request_parameters import ControlOperationRequestParameters  # noqa: PLC0415

        d = dict(src_dict)
        destination = ControlDestination(d.pop("destination"))

        operation = d.pop("operation")

        name = d.pop("name", UNSET)

        _parameters = d.pop("parameters", UNSET)
        parameters: ControlOperationRequestParameters | Unset
        if isinstance(_parameters, Unset):
            parameters = UNSET
        else:
            parameters = ControlOperationRequestParameters.from_dict(_parameters)

        _obj = cls(
            destination=destination,
            operation=operation,
            name=name,
            parameters=parameters,
        )

        return _obj
