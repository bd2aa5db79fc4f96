"""The package as a user installs it: metadata, license, typing marker, and
the sdist and wheel built by scripts/test-sdk-python.sh (EDGE_SDK_DIST)."""

import os
import tarfile
import zipfile
from importlib.metadata import distribution
from pathlib import Path

import pytest

import edged_client

DIST = distribution("edged-client")


def test_installed_not_from_the_source_tree() -> None:
    here = Path(edged_client.__file__).resolve()
    assert "site-packages" in here.parts, here


def test_metadata() -> None:
    meta = DIST.metadata
    assert meta["License-Expression"] == "Apache-2.0"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues", "Documentation"} <= urls.keys()
    assert all(u.startswith("https://") for u in urls.values())
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Description-Content-Type"] == "text/markdown"


def test_license_and_typing_marker_are_installed() -> None:
    files = {str(f) for f in DIST.files or []}
    assert any(f.endswith("licenses/LICENSE") for f in files), sorted(files)[:20]
    assert "edged_client/py.typed" in files


def dist_dir() -> Path:
    d = os.environ.get("EDGE_SDK_DIST")
    if not d:
        pytest.skip("EDGE_SDK_DIST names the built sdist and wheel: run make test-sdk-python")
    return Path(d)


def test_sdist() -> None:
    (sdist,) = dist_dir().glob("edged_client-*.tar.gz")
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "edged_client/py.typed", "edged_client/client.py"} <= names


def test_wheel() -> None:
    (wheel,) = dist_dir().glob("edged_client-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert "edged_client/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.startswith("tests/") for n in names)
