"""A configuration item as the plugin contract carries it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .pb import plugin_pb2


@dataclass
class Item:
    """A configuration item; values are strings whatever the type."""

    description: str
    type: str = "string"
    default: str = ""
    display_name: str = ""
    order: str = ""
    options: list[str] = field(default_factory=list)
    minimum: str = ""
    maximum: str = ""
    length: str = ""
    mandatory: str = ""
    readonly: str = ""
    validity: str = ""

    def to_pb(self, name: str) -> plugin_pb2.Item:
        return plugin_pb2.Item(
            description=self.description,
            type=self.type,
            default=self.default,
            display_name=self.display_name or name,
            order=self.order or "1",
            options=self.options,
            minimum=self.minimum,
            maximum=self.maximum,
            length=self.length,
            mandatory=self.mandatory,
            readonly=self.readonly,
            validity=self.validity,
        )
