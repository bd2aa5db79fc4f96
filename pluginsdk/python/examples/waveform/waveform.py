#!/usr/bin/env python3
"""A south plugin of the edged gateway producing a configurable waveform:
sine, square, triangle or sawtooth, of a frequency and amplitude, sampled
rate times per second."""

import math
import time

from edged_plugin import Item, Reading, SouthPlugin, serve

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


class Waveform(SouthPlugin):
    name = "waveform"
    version = "1.0.0"
    description = "Produces a sine, square, triangle or sawtooth wave"
    persists = True
    items = {
        "asset": Item("Asset code of the readings", default="waveform", order="1"),
        "shape": Item("Shape of the wave", type="enumeration", default="sine", options=SHAPES, order="2"),
        "frequency": Item("Cycles per second", type="float", default="0.1", order="3"),
        "amplitude": Item("Peak value", type="float", default="1.0", order="4"),
        "rate": Item("Readings per second", type="integer", default="1", minimum="1", maximum="1000", order="5"),
    }

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
        if config.get("shape") not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}")
        for k in ("frequency", "amplitude"):
            float(config[k])
        if int(config["rate"]) < 1:
            raise ValueError("rate must be at least 1")
        self.config = dict(config)

    def interval(self) -> float:
        return 1.0 / int(self.config["rate"])

    def poll(self):
        c = self.config
        t = self.clock()
        value = float(c["amplitude"]) * wave(c["shape"], t * float(c["frequency"]))
        self.samples += 1
        return [Reading(c["asset"], {"value": value})]

    def state(self):
        return {"samples": self.samples}


if __name__ == "__main__":
    serve(Waveform())
