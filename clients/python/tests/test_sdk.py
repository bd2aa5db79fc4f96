"""The Python SDK against a live gateway (see conftest.py).

Every operation these tests call is built: a 501 fails the test.
"""

import uuid
from http import HTTPStatus

import httpx
import pytest
from support import Gateway, eventually, free_port

from edged_client import (
    ApiError,
    AuthenticatedClient,
    BadRequestError,
    Client,
    NotFoundError,
    UnauthorizedError,
    check,
)
from edged_client.api.assets import get_asset_readings, list_assets
from edged_client.api.audit import create_audit_entry, list_audit_entries
from edged_client.api.configuration import get_category, get_category_item, reset_category_item, set_category_item
from edged_client.api.services import create_service, delete_service
from edged_client.api.system import ping
from edged_client.api.users import login, logout
from edged_client.models import (
    AuditEntryCreate,
    AuditEntryCreateDetails,
    AuditSource,
    ConfigValue,
    Error,
    LoginRequest,
    PingHealth,
    ServiceCreateRequest,
    ServiceCreateRequestConfig,
    ServiceCreateRequestConfigAdditionalProperty,
)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_ping(client: Client) -> None:
    result = check(ping.sync_detailed(client=client))
    assert result.uptime >= 0
    assert result.health in (PingHealth.GREEN, PingHealth.AMBER, PingHealth.RED)
    assert result.version


def test_change_and_reset_configuration(client: Client) -> None:
    before = check(get_category_item.sync_detailed("service", "name", client=client))
    value = unique("py-sdk gateway")

    changed = check(set_category_item.sync_detailed("service", "name", client=client, body=ConfigValue(value=value)))
    assert changed.value == value
    category = check(get_category.sync_detailed("service", client=client))
    assert category["name"].value == value

    reset = check(reset_category_item.sync_detailed("service", "name", client=client))
    default = before.default if isinstance(before.default, str) else ""
    assert reset.value == default
    assert check(get_category_item.sync_detailed("service", "name", client=client)).value == default


def test_unknown_category_is_a_typed_404(client: Client) -> None:
    name = unique("no-such-category")
    response = get_category.sync_detailed(name, client=client)
    # Without check: the documented error is parsed into the Error model.
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert isinstance(response.parsed, Error)

    with pytest.raises(NotFoundError) as raised:
        check(response)
    err = raised.value
    assert isinstance(err, ApiError)
    assert err.status_code == 404
    assert name in err.message
    assert err.request_id, "the error carries the X-Request-Id"


def test_create_and_list_audit_entries(client: Client) -> None:
    marker = unique("py-sdk")
    details = AuditEntryCreateDetails.from_dict({"marker": marker})
    created = check(
        create_audit_entry.sync_detailed(
            client=client, body=AuditEntryCreate(source=AuditSource.LOGGN, severity="warning", details=details)
        )
    )
    assert created.severity == "WARNING"

    page = check(list_audit_entries.sync_detailed(client=client, source=AuditSource.LOGGN, limit=100))
    mine = [e for e in page.audit if e.details.to_dict().get("marker") == marker]
    assert len(mine) == 1
    assert page.total_count >= 1


def test_invalid_audit_entry_is_a_typed_400(client: Client) -> None:
    with pytest.raises(BadRequestError) as raised:
        check(
            create_audit_entry.sync_detailed(
                client=client,
                body=AuditEntryCreate(
                    source=AuditSource.LOGGN, severity="loud", details=AuditEntryCreateDetails.from_dict({})
                ),
            )
        )
    assert raised.value.message


def test_login(client: Client, gateway: Gateway) -> None:
    result = check(
        login.sync_detailed(client=client, body=LoginRequest(username="admin", password=gateway.admin_password))
    )
    assert result.token
    assert result.admin is True

    with AuthenticatedClient(base_url=gateway.url, token=result.token) as admin:
        check(ping.sync_detailed(client=admin))
        with pytest.raises(UnauthorizedError):
            check(
                login.sync_detailed(
                    client=client, body=LoginRequest(username="admin", password="wrong-" + gateway.admin_password)
                )
            )
        check(logout.sync_detailed(client=admin))


def test_ingest_through_http_south_and_browse(client: Client) -> None:
    port = free_port()
    service = unique("py-sdk-south")
    config = ServiceCreateRequestConfig()
    config["port"] = ServiceCreateRequestConfigAdditionalProperty(value=str(port))
    check(
        create_service.sync_detailed(
            client=client,
            body=ServiceCreateRequest(name=service, type_="south", plugin="http_south", enabled=True, config=config),
        )
    )
    try:
        asset = unique("py-sdk-asset")
        readings = [
            {"timestamp": "2024-05-01 10:15:42.123456", "asset": asset, "readings": {"temperature": 21.5}},
            {"timestamp": "2024-05-01T10:15:43Z", "asset": asset, "readings": {"temperature": 22}},
        ]

        # The service starts in the background: post until it listens.
        def post() -> bool:
            r = httpx.post(f"http://127.0.0.1:{port}/sensor-reading", json=readings, timeout=2)
            r.raise_for_status()
            return True

        eventually("http_south accepting readings", 30, post)

        check(get_asset_readings.sync_detailed(asset, client=client))

        # Readings reach storage asynchronously.
        def stored() -> list | None:
            rs = check(get_asset_readings.sync_detailed(asset, client=client))
            return rs if len(rs) == len(readings) else None

        got = eventually("the readings in storage", 30, stored)
        assert sorted(r.reading["temperature"] for r in got) == [21.5, 22]

        windowed = check(get_asset_readings.sync_detailed(asset, client=client, hours=1000000))
        assert isinstance(windowed, list)

        assets = check(list_assets.sync_detailed(client=client))
        mine = [a for a in assets if a.asset_code == asset]
        assert len(mine) == 1 and mine[0].count == len(readings)
    finally:
        try:
            check(delete_service.sync_detailed(service, client=client))
        except ApiError:
            pass
