"""The SDK answers the gateway's offer of protocol versions with the
highest both speak."""

import pytest

from edged_plugin.plugin import app_protocol_version


@pytest.mark.parametrize(
    "offered, answer",
    [
        ("1,2", 2),  # this gateway
        ("2,1", 2),
        ("1", 1),  # a gateway that speaks version 1 only
        ("", 1),  # a gateway that predates versions
        ("1,2,3", 2),  # a newer gateway: it still speaks 2
        ("3", 1),  # none in common: go-plugin's client refuses the answer
    ],
)
def test_app_protocol_version(offered, answer):
    assert app_protocol_version(offered) == answer


@pytest.mark.parametrize(
    "offered, answer",
    [
        ("1,2", 2),
        ("2", 2),
        ("1,2,3", 2),
        ("1", 2),  # a gateway without typed services: it refuses the answer
        ("", 2),
    ],
)
def test_service_protocol_version(offered, answer):
    for kind in ("notification", "dispatcher"):
        assert app_protocol_version(offered, kind) == answer
