"""`make test-fuzz`: Schemathesis against a gateway this script starts.

Starts the edged binary on a temporary data directory and a free port with
EDGE_ADMIN_PASSWORD set, logs in as admin, and runs `schemathesis run` on
the contract the gateway serves (GET /edge/openapi.json) with that token,
seeded so that a run can be repeated exactly. Afterwards it checks that the
gateway still runs and the token still works (so that the run did not end
its own session half-way), stops the gateway with SIGTERM and exits with
Schemathesis' status. The gateway's log is printed when anything failed.

Run from the repository root with the tools virtualenv's Python; the
Makefile passes the settings (see its test-fuzz target).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ADMIN_PASSWORD = "Fuzz-Admin-Password-1"

# The checks of the run: no 5xx, every status, content type and body as the
# contract documents it for that operation.
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


def request(method: str, url: str, token: str = "", body: dict | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("authorization", token)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(proc: subprocess.Popen, url: str, limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"edged exited with {proc.returncode} before it answered ping")
        try:
            if request("GET", url + "/edge/ping")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"edged did not answer ping within {limit:.0f}s")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", required=True, help="the edged binary")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--max-examples", type=int, required=True, help="test cases per operation")
    p.add_argument("--workers", default="1", help="Schemathesis workers (1: the run repeats exactly)")
    p.add_argument("--exclude", default="", help="operationIds not run at all (space-separated)")
    p.add_argument(
        "--unbuilt",
        default="",
        help="requests whose 501 answer is excused: operationIds, or operationId:name=value (space-separated)",
    )
    p.add_argument("--db", default="", help="PostgreSQL URL for the gateway (default: its embedded SQLite)")
    p.add_argument("--report-dir", default="test-output/fuzz", help="JUnit report of the run")
    args = p.parse_args()

    schemathesis = Path(sys.executable).parent / "schemathesis"
    work = Path(tempfile.mkdtemp(prefix="edged-fuzz-"))
    log_path = work / "edged.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "ab") as log:
        gateway = subprocess.Popen(
            [args.binary, "--data", str(work / "data"), "--port", str(port), "--db", args.db],
            env={**os.environ, "EDGE_ADMIN_PASSWORD": ADMIN_PASSWORD},
            stdout=log,
            stderr=log,
        )
    code = 1
    try:
        wait_ready(gateway, url, 30)
        status, body = request("POST", url + "/edge/login", body={"username": "admin", "password": ADMIN_PASSWORD})
        if status != 200:
            raise RuntimeError(f"admin login answered {status}: {body[:300]!r}")
        token = json.loads(body)["token"]

        exclude = args.exclude.split()
        unbuilt = args.unbuilt.split()
        storage = "PostgreSQL" if args.db else "SQLite"
        print(f"fuzz: edged at {url} on {storage}; seed {args.seed}, {args.max_examples} examples per operation")
        print(f"fuzz: left out: {' '.join(exclude) or 'nothing'}")
        print(f"fuzz: 501 excused (still answering it): {' '.join(unbuilt) or 'nothing'}")
        # fmt: off
        cmd = [
            str(schemathesis), "--config-file", str(Path(__file__).resolve().parent / "schemathesis.toml"),
            "run", url + "/edge/openapi.json",
            "--url", url,
            "--header", f"authorization: {token}",
            "--checks", CHECKS,
            "--max-examples", str(args.max_examples),
            "--seed", str(args.seed),
            "--generation-database", "none",
            "--workers", args.workers,
            "--report", "junit", "--report-junit-path", str(Path(args.report_dir) / "junit.xml"),
            "--no-color",
        ] + [f"--exclude-operation-id={op}" for op in exclude]
        # fmt: on
        env = {
            **os.environ,
            "SCHEMATHESIS_HOOKS": "fuzz_hooks",
            "PYTHONPATH": str(Path(__file__).resolve().parent),
            "EDGE_FUZZ_UNBUILT": " ".join(unbuilt),
        }
        started = time.monotonic()
        code = subprocess.call(cmd, env=env)
        print(f"fuzz: schemathesis finished in {time.monotonic() - started:.0f}s with status {code}")

        if gateway.poll() is not None:
            print(f"fuzz: FAIL: edged exited during the run with {gateway.returncode}")
            code = code or 1
        elif (s := request("GET", url + "/edge/user", token)[0]) != 200:
            print(f"fuzz: FAIL: the run's admin token answers {s} after the run: it lost its session half-way")
            code = code or 1
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        print(f"fuzz: {e}")
        code = 1
    finally:
        if gateway.poll() is None:
            gateway.send_signal(signal.SIGTERM)
            try:
                gateway.wait(timeout=20)
            except subprocess.TimeoutExpired:
                gateway.kill()
                gateway.wait()
                print("fuzz: FAIL: edged did not stop within 20s of SIGTERM")
                code = code or 1
        if code != 0:
            text = log_path.read_text(errors="replace")
            print(f"--- edged log ({log_path}, last 20000 bytes) ---\n{text[-20000:]}\n--- end of log ---")
        shutil.rmtree(work, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
