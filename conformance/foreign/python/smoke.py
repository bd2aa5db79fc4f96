"""Smoke program of the client openapi-python-client generates from openapi.yaml.

Drives the gateway at EDGE_URL (admin password in EDGE_ADMIN_PASSWORD) as an
integrator would: logs in, creates a user, pages the audit log, creates an
http_south service, posts readings to it, reads the asset's readings and
summary, lists the south services with that one running and reads the
statistics, then deletes the service. Exits non-zero, saying what was wrong,
on the first failure. scripts/test-foreign-clients.sh runs it with the
generated package (edged_api_client) on PYTHONPATH.
"""

import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any, TypeVar

from edged_api_client import AuthenticatedClient, Client
from edged_api_client.api.assets import get_asset_readings, get_asset_summary
from edged_api_client.api.audit import list_audit_entries
from edged_api_client.api.services import create_service, delete_service, list_south_services
from edged_api_client.api.statistics import list_statistics
from edged_api_client.api.users import create_user, login
from edged_api_client.models import (
    AuditList,
    LoginRequest,
    LoginResult,
    Message,
    ServiceCreated,
    ServiceCreateRequest,
    ServiceCreateRequestConfig,
    ServiceConfigValue,
    SouthList,
    User,
    UserCreate,
)

T = TypeVar("T")
LANG = "python"


def fail(what: str) -> None:
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def want(what: str, got: Any, kind: type[T]) -> T:
    """Returns got when it is a kind, fails naming what otherwise (an Error model or None)."""
    if not isinstance(got, kind):
        fail(f"{what}: got {got!r}")
    return got


def eventually(what: str, seconds: float, check: Callable[[], T | None]) -> T:
    """Calls check every 100 ms until it returns something other than None."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            fail(f"{what}: not within {seconds} s")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main() -> None:
    url = os.environ["EDGE_URL"].rstrip("/")
    password = os.environ["EDGE_ADMIN_PASSWORD"]
    host = url.split("://", 1)[1].rsplit(":", 1)[0]
    suffix = f"{int(time.time() * 1000) % 10**9}"

    anonymous = Client(base_url=url)
    result = want("login", login.sync(client=anonymous, body=LoginRequest(username="admin", password=password)), LoginResult)
    if not result.token or not result.admin:
        fail(f"login: {result!r}")
    client = AuthenticatedClient(base_url=url, token=result.token)
    print("logged in as admin")

    name = f"smoke-{LANG}-{suffix}"
    user = want("createUser", create_user.sync(client=client, body=UserCreate(username=name, password="Smoke-Passw0rd!" + suffix)), User)
    if user.user_name != name:
        fail(f"createUser: user {user.user_name!r}, want {name!r}")
    print(f"created user {name}")

    # Three pages of two entries, newest first: the user's creation (USRAD)
    # is among them, and no page goes back in time.
    seen: list[str] = []
    last = "9999"
    total = 0
    for page in range(3):
        got = want(f"listAuditEntries page {page + 1}", list_audit_entries.sync(client=client, limit=2, skip=2 * page), AuditList)
        total = got.total_count
        if len(got.audit) != 2:
            fail(f"audit page {page + 1}: {len(got.audit)} entries, want 2 (totalCount {total})")
        for e in got.audit:
            if e.timestamp > last:
                fail(f"audit page {page + 1}: {e.timestamp} after {last}")
            last = e.timestamp
            seen.append(str(e.source))
    if "USRAD" not in seen:
        fail(f"audit: sources {seen}, want USRAD among the newest")
    print(f"paged the audit log: {total} entries")

    service = f"smoke-{LANG}-south-{suffix}"
    port = free_port()
    config = ServiceCreateRequestConfig()
    config["port"] = ServiceConfigValue(value=str(port))
    created = want(
        "createService",
        create_service.sync(
            client=client,
            body=ServiceCreateRequest(name=service, type_="south", plugin="http_south", enabled=True, config=config),
        ),
        ServiceCreated,
    )
    print(f"created service {created.name} on port {port}")

    asset = f"smoke-{LANG}-asset-{suffix}"
    body = json.dumps(
        [{"timestamp": f"2024-05-01 10:15:4{i}", "asset": asset, "readings": {"temperature": 20 + i}} for i in range(3)]
    ).encode()

    def post() -> bool | None:
        req = urllib.request.Request(f"http://{host}:{port}/sensor-reading", data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return True if resp.status == 200 else fail(f"ingest: status {resp.status}")
        except urllib.error.HTTPError as e:
            fail(f"ingest: {e.code} {e.read()!r}")
        except OSError:
            return None  # the service's listener is not up yet
        return None

    eventually("ingest accepted", 15, post)
    print("posted 3 readings")

    def readings() -> list[Any] | None:
        got = get_asset_readings.sync(asset, client=client, limit=10)
        return got if isinstance(got, list) and len(got) == 3 else None

    rows = eventually("3 readings of the asset", 15, readings)
    values = sorted(r.reading["temperature"] for r in rows)
    if values != [20, 21, 22]:
        fail(f"readings: temperatures {values}")
    summary = get_asset_summary.sync(asset, client=client)
    if summary is None or not hasattr(summary, "additional_properties") or "temperature" not in summary.additional_properties:
        fail(f"getAssetSummary: {summary!r}")
    t = summary.additional_properties["temperature"]
    if (t.min_, t.max_, t.average) != (20, 22, 21):
        fail(f"summary: {t!r}")
    print("read the readings and the summary")

    def running() -> bool | None:
        got = want("listSouthServices", list_south_services.sync(client=client), SouthList)
        return True if any(s.name == service and str(s.status) == "running" for s in got.services) else None

    eventually(f"{service} running in the south list", 30, running)
    print(f"{service} is running")

    stats = list_statistics.sync(client=client)
    if not isinstance(stats, list):
        fail(f"listStatistics: {stats!r}")
    counts = {s.key: s.value for s in stats}
    if counts.get(asset, 0) < 3 or counts.get(f"{service}-Ingest", 0) < 3:
        fail(f"statistics: {asset} = {counts.get(asset)}, {service}-Ingest = {counts.get(f'{service}-Ingest')}")
    print("read the statistics")

    want("deleteService", delete_service.sync(service, client=client), Message)
    print("smoke: ok")


if __name__ == "__main__":
    main()
