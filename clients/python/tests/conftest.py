"""A gateway for the SDK tests.

EDGE_URL names a running gateway (its admin password in EDGE_ADMIN_PASSWORD);
otherwise the fixture builds cmd/edged with `go build` and starts it on a
temporary data directory and a free port, and stops it after the session.
"""

import os
import signal
import subprocess
from collections.abc import Iterator

import httpx
import pytest
from support import ADMIN_PASSWORD, REPO_ROOT, Gateway, eventually, free_port

from edged_client import Client


@pytest.fixture(scope="session")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    external = os.environ.get("EDGE_URL")
    if external:
        yield Gateway(url=external.rstrip("/"), admin_password=os.environ.get("EDGE_ADMIN_PASSWORD", ""))
        return

    workdir = tmp_path_factory.mktemp("edged")
    binary = workdir / "edged"
    subprocess.run(
        ["go", "build", "-o", str(binary), "./cmd/edged"],
        cwd=REPO_ROOT,
        env={**os.environ, "CGO_ENABLED": "0"},
        check=True,
    )
    port = free_port()
    log_path = workdir / "edged.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [str(binary), "--data", str(workdir / "data"), "--port", str(port)],
            env={**os.environ, "EDGE_ADMIN_PASSWORD": ADMIN_PASSWORD},
            stdout=log,
            stderr=log,
        )
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool | None:
        if proc.poll() is not None:
            raise RuntimeError(f"edged exited with {proc.returncode}")
        return True if httpx.get(f"{url}/edge/ping", timeout=1).status_code == 200 else None

    try:
        eventually("edged answering ping", 30, ready)
    except AssertionError:
        proc.kill()
        print(log_path.read_text())
        raise
    try:
        yield Gateway(url=url, admin_password=ADMIN_PASSWORD)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if os.environ.get("EDGE_KEEP_LOG"):
            print(log_path.read_text())


@pytest.fixture
def client(gateway: Gateway) -> Iterator[Client]:
    with Client(base_url=gateway.url) as c:
        yield c
