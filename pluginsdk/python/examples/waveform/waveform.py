#!/usr/bin/env python3
"""A south plugin of the edged gateway producing a configurable waveform:
sine, square, triangle or sawtooth, of a frequency and amplitude, sampled
rate times per second."""

import math
import time
from dataclasses import dataclass

from edged_plugin import Reading, SouthPlugin, decode, item, serve

SHAPES = ["sine", "square", "triangle", "sawtooth"]


def wave(shape: str, phase: float) -> float:
    """The value of a unit waveform at phase (in cycles)."""
    frac = phase % 1.0
    if shape == "square":
        return 1.0 if frac < 0.5 else -1.0
    if shape == "triangle":
        return 4 * frac - 1 if frac < 0.5 else 3 - 4 * frac
    if shape == "sawtooth":
        return 2 * frac - 1
    return math.sin(2 * math.pi * frac)


@dataclass
class Config:
    """The plugin's configuration: its items are derived from the fields."""

    asset: str = item("Asset code of the readings", default="waveform")
    shape: str = item("Shape of the wave", default="sine", options=SHAPES)
    frequency: float = item("Cycles per second", default=0.1)
    amplitude: float = item("Peak value", default=1.0)
    rate: int = item("Readings per second", default=1, minimum=1, maximum=1000)


class Waveform(SouthPlugin):
    name = "waveform"
    version = "1.0.0"
    description = "Produces a sine, square, triangle or sawtooth wave"
    persists = True
    config_class = Config

    def __init__(self, clock=time.time) -> None:
        super().__init__()
        self.clock = clock
        self.samples = 0

    def start(self, service, config, state):
        self.reconfigure(config)
        super().start(service, config, state)
        if state:
            self.samples = int(state.get("samples", 0))

    def reconfigure(self, config):
        settings = decode(Config, config)
        if settings.shape not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}")
        if settings.rate < 1:
            raise ValueError("rate must be at least 1")
        super().reconfigure(config)

    def interval(self) -> float:
        return 1.0 / self.settings.rate

    def poll(self):
        c = self.settings
        t = self.clock()
        value = c.amplitude * wave(c.shape, t * c.frequency)
        self.samples += 1
        return [Reading(c.asset, {"value": value})]

    def state(self):
        return {"samples": self.samples}


if __name__ == "__main__":
    serve(Waveform())
