"""Contains some shared types for properties"""

from collections.abc import Mapping, MutableMapping
from http import HTTPStatus
from typing import IO, BinaryIO, Generic, Literal, TypeVar

from attrs import define


class Unset:
    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Unset = Unset()

# The types that `httpx.Client(files=)` can accept, copied from that library.
FileContent = IO[bytes] | bytes | str
FileTypes = (
    # (filename, file (or bytes), content_type)
    tuple[str | None, FileContent, str | None]
    # (filename, file (or bytes), content_type, headers)
    | tuple[str | None, FileContent, str | None, Mapping[str, str]]
)
RequestFiles = list[tuple[str, FileTypes]]


@define
class File:
    """Contains information for file uploads"""

    payload: BinaryIO
    file_name: str | None = None
    mime_type: str | None = None

    def to_tuple(self) -> FileTypes:
        """Return a tuple representation that httpx will accept for multipart/form-data"""
        return self.file_name, self.payload, self.mime_type


T = TypeVar("T")


@define
class Response(Generic[T]):
    """A response from an endpoint"""

    status_code: HTTPStatus
    content: bytes
    headers: MutableMapping[str, str]
    parsed: T


def model_repr(model: object) -> str:
    """The ``repr`` of a model: its class and the fields that are set, as
    ``Ping(uptime=1.5, health=<PingHealth.GREEN: 'green'>)``. A field left unset
    (``UNSET``) is not shown, nor are empty additional properties."""
    parts = []
    for attribute in getattr(type(model), "__attrs_attrs__", ()):
        value = getattr(model, attribute.name)
        if isinstance(value, Unset) or (attribute.name == "additional_properties" and not value):
            continue
        parts.append(f"{attribute.name}={value!r}")
    return f"{type(model).__name__}({', '.join(parts)})"


__all__ = ["UNSET", "File", "FileTypes", "RequestFiles", "Response", "Unset", "model_repr"]
