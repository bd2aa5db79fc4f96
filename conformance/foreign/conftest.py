"""The gateway the foreign clients' smoke programs run against.

It is the Python SDK tests' own fixture (clients/python/tests/conftest.py),
loaded from there rather than written again: EDGE_URL names a running
gateway (its admin password in EDGE_ADMIN_PASSWORD); otherwise cmd/edged is
built with `go build`, started on a temporary data directory and a free
port, and stopped after the session.
"""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SDK_TESTS = ROOT / "clients" / "python" / "tests"

# The fixture's module imports its helpers (support) and the SDK
# (edged_client) by name.
for path in (SDK_TESTS, ROOT / "clients" / "python"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

_spec = importlib.util.spec_from_file_location("edged_sdk_gateway", SDK_TESTS / "conftest.py")
assert _spec is not None and _spec.loader is not None
_sdk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sdk)

gateway = _sdk.gateway
