#!/usr/bin/env bash
# test-sdk-python.sh: tests the Python SDK as a user gets it. It builds the
# sdist and the wheel of clients/python, installs the wheel into a fresh
# virtualenv outside the source tree (with pytest and mypy, pinned by
# tools/python/requirements.txt), type-checks the SDK's tests and the docs
# page's Python request samples with mypy --strict there, and runs the tests from a copy outside the tree against a
# gateway they start (or EDGE_URL): the SDK's own tests, the package checks
# and every example of the README as published. `make test-sdk-python` runs it.
set -euo pipefail

root=$(pwd)
py="$root/tools/python/.venv/bin/python"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "-- build the sdist and the wheel"
(cd clients/python && "$py" -c 'import sys, pdm.backend as b; b.build_sdist(sys.argv[1]); b.build_wheel(sys.argv[1])' "$work/dist")
rm -rf clients/python/.pdm-build
ls "$work/dist"

echo "-- install the wheel into a fresh virtualenv"
"${PYTHON:-python3}" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -c tools/python/requirements.txt \
	"$work"/dist/edged_client-*.whl pytest mypy
"$work/venv/bin/pip" check --disable-pip-version-check

echo "-- mypy --strict on the tests and the docs page's Python request samples, against the installed package"
cp -r clients/python/tests "$work/tests"
go run ./scripts/sdkgen samples -o "$work/samples/docs.yaml" -check "$work/samples" openapi.yaml
(cd "$work" && venv/bin/mypy --strict --no-incremental tests samples/python/samples.py)

echo "-- the tests, the package checks and the README's examples"
cd "$work"
EDGE_REPO_ROOT="$root" EDGE_SDK_DIST="$work/dist" venv/bin/python -m pytest -p no:cacheprovider -v -rs tests
