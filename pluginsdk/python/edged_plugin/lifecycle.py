"""The part every plugin class shares: its description and the lifecycle
of its configuration and state."""

from __future__ import annotations

from typing import Optional

from .item import Item


class PluginBase:
    """A plugin's description (set name, version, description, items, and
    persists with state()) and its configuration's lifecycle."""

    kind = ""
    name = ""
    version = ""
    description = ""
    items: dict[str, Item] = {}
    persists = False

    def __init__(self) -> None:
        self.service = ""
        self.config: dict[str, str] = {}

    def start(self, service: str, config: dict[str, str], state: Optional[dict]) -> None:
        """Takes the configuration and the persisted state; raise to fail the start."""
        self.service, self.config = service, dict(config)

    def reconfigure(self, config: dict[str, str]) -> None:
        """Applies a changed configuration; raise Restart for a new instance,
        another exception keeps the old configuration."""
        self.config = dict(config)

    def state(self) -> dict:
        """The state to persist when persists is true."""
        return {}
