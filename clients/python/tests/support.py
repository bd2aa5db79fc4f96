"""Helpers of the SDK tests: free ports, polling, the gateway's address."""

import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

# The tests run from a copy outside the source tree (scripts/test-sdk-python.sh),
# which names the repository, whose gateway they build, in EDGE_REPO_ROOT.
REPO_ROOT = Path(os.environ.get("EDGE_REPO_ROOT") or Path(__file__).resolve().parents[3])
ADMIN_PASSWORD = "Py-Sdk-Passw0rd!"

T = TypeVar("T")


@dataclass
class Gateway:
    url: str
    admin_password: str


def free_port() -> int:
    """Return a TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def eventually(what: str, seconds: float, check: Callable[[], T | None]) -> T:
    """Call `check` every 50 ms until it returns something other than None
    (exceptions count as "not yet"); fail after `seconds`."""
    deadline = time.monotonic() + seconds
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
            if value is not None:
                return value
        except Exception as e:  # noqa: BLE001 - retried until the deadline
            last = e
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s (last error: {last!r})")
