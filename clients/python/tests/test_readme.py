"""The README as published (the package's long description): every code
block marked ``python example`` type-checks under ``mypy --strict`` and runs
as it is against the live gateway, and every link works off the repository."""

import os
import re
import subprocess
import sys
from importlib.metadata import metadata
from pathlib import Path

import pytest
from support import Gateway

README = metadata("edged-client").get_payload()  # type: ignore[attr-defined]
EXAMPLES = re.findall(r"^```python example\n(.*?)^```$", README, flags=re.S | re.M)


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 3


def test_links_are_absolute() -> None:
    # A relative link breaks once the README is shown by the package index.
    links = re.findall(r"\]\(([^)]+)\)", README)
    assert links
    relative = [link for link in links if not re.match(r"https?://|#", link)]
    assert relative == []


@pytest.fixture(scope="module")
def example_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    directory = tmp_path_factory.mktemp("readme")
    files = []
    for i, code in enumerate(EXAMPLES):
        path = directory / f"example_{i + 1}.py"
        path.write_text(code)
        files.append(path)
    return files


def test_examples_pass_mypy_strict(example_files: list[Path]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, example_files)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[f"example {i + 1}" for i in range(len(EXAMPLES))])
def test_example_runs(example_files: list[Path], gateway: Gateway, index: int) -> None:
    env = {**os.environ, "EDGE_URL": gateway.url, "EDGE_ADMIN_PASSWORD": gateway.admin_password}
    result = subprocess.run(
        [sys.executable, str(example_files[index])], capture_output=True, text=True, env=env, timeout=120
    )
    print(result.stdout)
    assert result.returncode == 0, f"README example {index + 1} failed:\n{EXAMPLES[index]}\n{result.stderr}"
