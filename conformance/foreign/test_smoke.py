"""Runs each foreign client's smoke program against the gateway.

scripts/test-foreign-clients.sh generates and builds the clients under
FOREIGN_BUILD (build/foreign) and names the languages that built in
FOREIGN_LANGS; each test runs one language's smoke program with the
gateway's address and admin password in EDGE_URL and EDGE_ADMIN_PASSWORD.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BUILD = Path(os.environ.get("FOREIGN_BUILD", HERE.parents[1] / "build" / "foreign"))
LANGS = os.environ.get("FOREIGN_LANGS", "java rust python").split()


def command(lang: str) -> tuple[list[str], dict[str, str]]:
    """The command that runs lang's smoke program, and its extra environment."""
    if lang in ("java", "kotlin"):
        smoke = BUILD / lang / "smoke" / "target"
        classpath = f"{(smoke / 'classpath.txt').read_text().strip()}:{smoke / 'classes'}"
        main = "edged.smoke.Smoke" if lang == "java" else "edged.smoke.SmokeKt"
        return ["java", "-cp", classpath, main], {}
    if lang == "rust":
        return [str(BUILD / "rust" / "target" / "debug" / "edged-smoke")], {}
    if lang == "python":
        return [sys.executable, str(HERE / "python" / "smoke.py")], {"PYTHONPATH": str(BUILD / "python")}
    raise ValueError(f"unknown language {lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_smoke(gateway, lang: str) -> None:  # type: ignore[no-untyped-def]
    cmd, extra = command(lang)
    env = {**os.environ, **extra, "EDGE_URL": gateway.url, "EDGE_ADMIN_PASSWORD": gateway.admin_password}
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    print(run.stdout)
    if run.returncode != 0:
        pytest.fail(f"{lang} smoke program failed (exit {run.returncode}):\n{run.stdout}{run.stderr}", pytrace=False)
