"""Configuration declared as a dataclass, as the Go SDK declares it with
struct tags (edgeplugin.ItemsOf, edgeplugin.Decode): each field is an item,
its type and default derived from the field's, the rest given with
:func:`item`. The gateway sees the same item schema either way.

::

    @dataclass
    class Config:
        asset: str = item("Asset code", default="sine", mandatory=True)
        rate: int = item("Readings per second", default=1, minimum=1, maximum=1000)
        shape: str = item("Wave shape", default="sine", options=["sine", "square"])

    class Sine(SouthPlugin):
        config_class = Config   # items derived; self.settings is a Config
"""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

from .item import Item

_KEY = "edged_item"


def item(
    description: str,
    *,
    default: Any = dataclasses.MISSING,
    name: str = "",
    type: str = "",
    display_name: str = "",
    order: str = "",
    options: typing.Sequence[str] = (),
    minimum: Any = "",
    maximum: Any = "",
    length: Any = "",
    mandatory: bool = False,
    readonly: bool = False,
    validity: str = "",
) -> Any:
    """A dataclass field that is a configuration item. type overrides the
    one the field's annotation gives (password, URL, JSON, …); options make
    it an enumeration; name, when set, is the item's name in place of the
    field's."""
    meta = {
        _KEY: dict(
            description=description,
            name=name,
            type=type or ("enumeration" if options else ""),
            display_name=display_name,
            order=str(order),
            options=list(options),
            minimum=str(minimum),
            maximum=str(maximum),
            length=str(length),
            mandatory="true" if mandatory else "",
            readonly="true" if readonly else "",
            validity=validity,
        )
    }
    if default is dataclasses.MISSING:
        return dataclasses.field(default=None, metadata=meta)
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda d=default: json.loads(json.dumps(d)), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def _kind(hint: Any) -> str:
    """The item type of a field annotated hint."""
    origin = typing.get_origin(hint)
    if origin is typing.Union:  # Optional[X]
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return _kind(args[0]) if len(args) == 1 else "JSON"
    if hint is bool:
        return "boolean"
    if hint is int:
        return "integer"
    if hint is float:
        return "float"
    if hint is str:
        return "string"
    return "JSON"


def _text(value: Any, kind: str) -> str:
    """A default as the configuration holds it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind == "JSON" and not isinstance(value, str):
        return json.dumps(value)
    return str(value)


def _fields(cls: type) -> list[tuple[dataclasses.Field, str, dict, str]]:
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        meta = f.metadata.get(_KEY)
        if meta is None:
            continue
        kind = _kind(hints[f.name])
        out.append((f, meta["name"] or f.name, meta, kind))
    return out


def items_of(cls: type) -> dict[str, Item]:
    """The configuration items the dataclass cls declares."""
    out: dict[str, Item] = {}
    for pos, (f, name, meta, kind) in enumerate(_fields(cls), start=1):
        if not meta["description"]:
            raise ValueError(f"item {name!r} has no description")
        if name in out:
            raise ValueError(f"item {name!r} is declared twice")
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f.default_factory()  # type: ignore[misc]
        else:
            default = None
        out[name] = Item(
            description=meta["description"],
            type=meta["type"] or kind,
            default=_text(default, kind),
            display_name=meta["display_name"],
            order=meta["order"] or str(pos),
            options=meta["options"],
            minimum=meta["minimum"],
            maximum=meta["maximum"],
            length=meta["length"],
            mandatory=meta["mandatory"],
            readonly=meta["readonly"],
            validity=meta["validity"],
        )
    return out


def decode(cls: type, config: dict[str, str]) -> Any:
    """An instance of the dataclass cls filled from config (an item it
    lacks takes its default). A value that does not parse as its field's
    type raises ValueError naming the item."""
    values = {}
    items = items_of(cls)
    for f, name, meta, kind in _fields(cls):
        text = config.get(name, items[name].default)
        try:
            if text.strip() == "" and (f.default is None or kind in ("integer", "float", "boolean")):
                value: Any = None  # an item without default left empty
            elif kind == "integer":
                value = int(text)
            elif kind == "float":
                value = float(text)
            elif kind == "boolean":
                if text.lower() not in ("true", "false"):
                    raise ValueError("not a boolean")
                value = text.lower() == "true"
            elif kind == "JSON":
                value = json.loads(text) if text.strip() else None
            else:
                value = text
        except ValueError as e:
            raise ValueError(f"item {name!r} = {text!r}: {e}") from None
        values[f.name] = value
    return cls(**values)
