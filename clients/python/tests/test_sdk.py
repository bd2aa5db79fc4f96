"""The Python SDK, as installed from its wheel, against a live gateway (see
conftest.py).

Every operation these tests call is built: a 501 fails the test.
"""

import datetime
import uuid

import httpx
import pytest
from support import Gateway, eventually, free_port

from edged_client import (
    ApiError,
    BadRequestError,
    Client,
    NotFoundError,
    UnauthorizedError,
    check,
)
from edged_client.api.assets import get_asset_readings, list_assets
from edged_client.api.audit import create_audit_entry, list_audit_entries
from edged_client.api.configuration import (
    export_config,
    get_category,
    get_category_item,
    plan_config,
    reset_category_item,
    set_category_item,
)
from edged_client.api.services import create_service, delete_service
from edged_client.api.system import ping
from edged_client.api.users import list_roles
from edged_client.models import (
    AuditEntryCreate,
    AuditEntryCreateDetails,
    AuditSource,
    ConfigValue,
    FleetCategory,
    FleetChangeAction,
    FleetChangeKind,
    FleetDocument,
    FleetSecretReference,
    FleetValues,
    PingHealth,
    Reading,
    ServiceCreateRequest,
    ServiceCreateRequestConfig,
)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_ping(client: Client) -> None:
    result = ping.sync(client=client)
    assert result.uptime >= 0
    assert result.health in (PingHealth.GREEN, PingHealth.AMBER, PingHealth.RED)
    assert result.version


def test_change_and_reset_configuration(client: Client) -> None:
    before = get_category_item.sync("service", "name", client=client)
    value = unique("py-sdk gateway")

    changed = set_category_item.sync("service", "name", client=client, body=ConfigValue(value=value))
    assert changed.value == value
    category = get_category.sync("service", client=client)
    assert category["name"].value == value

    reset = check(reset_category_item.sync_detailed("service", "name", client=client))
    default = before.default if isinstance(before.default, str) else ""
    assert reset.value == default
    assert get_category_item.sync("service", "name", client=client).value == default


@pytest.mark.parametrize("detailed", [False, True], ids=["sync", "sync_detailed"])
def test_unknown_category_is_a_typed_404(client: Client, detailed: bool) -> None:
    name = unique("no-such-category")
    with pytest.raises(NotFoundError) as raised:
        if detailed:
            get_category.sync_detailed(name, client=client)
        else:
            get_category.sync(name, client=client)
    err = raised.value
    assert isinstance(err, ApiError)
    assert err.status_code == 404
    assert name in err.message
    assert err.request_id, "the error carries the X-Request-Id"


def test_create_and_list_audit_entries(client: Client) -> None:
    marker = unique("py-sdk")
    details = AuditEntryCreateDetails.from_dict({"marker": marker})
    before = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=5)
    created = create_audit_entry.sync(
        client=client, body=AuditEntryCreate(source=AuditSource.LOGGN, severity="warning", details=details)
    )
    assert created.severity == "WARNING"
    # Timestamps are aware datetimes in UTC.
    assert created.timestamp.tzinfo is datetime.UTC
    assert before <= created.timestamp <= datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=5)

    page = list_audit_entries.sync(client=client, source=AuditSource.LOGGN, limit=100)
    mine = [e for e in page.audit if e.details.to_dict().get("marker") == marker]
    assert len(mine) == 1
    assert mine[0].timestamp == created.timestamp
    assert page.total_count >= 1


def test_audit_entries_iterate_over_every_page(client: Client) -> None:
    marker = unique("py-sdk-pages")
    for n in range(5):
        details = AuditEntryCreateDetails.from_dict({"marker": marker, "n": n})
        create_audit_entry.sync(
            client=client, body=AuditEntryCreate(source=AuditSource.NTFAD, severity="information", details=details)
        )
    total = list_audit_entries.sync(client=client, source=AuditSource.NTFAD, limit=1).total_count
    entries = list(client.audit_entries(source=AuditSource.NTFAD, page_size=2))
    assert len(entries) == total
    mine = [e.details.to_dict()["n"] for e in entries if e.details.to_dict().get("marker") == marker]
    assert mine == [4, 3, 2, 1, 0], "newest first"
    assert all(a.timestamp >= b.timestamp for a, b in zip(entries, entries[1:], strict=False))


def test_tasks_iterate(client: Client) -> None:
    tasks = list(client.tasks(page_size=1))
    assert tasks == list(client.tasks(page_size=100))[: len(tasks)]
    for t in tasks:
        assert t.start_time.tzinfo is datetime.UTC


def test_invalid_audit_entry_is_a_typed_400(client: Client) -> None:
    with pytest.raises(BadRequestError) as raised:
        create_audit_entry.sync(
            client=client,
            body=AuditEntryCreate(
                source=AuditSource.LOGGN, severity="loud", details=AuditEntryCreateDetails.from_dict({})
            ),
        )
    assert raised.value.message


def test_login_keeps_the_token(gateway: Gateway) -> None:
    with Client(gateway.url) as anonymous:
        # Without a token, the roles list is refused: log in (401).
        with pytest.raises(UnauthorizedError) as refused:
            list_roles.sync(client=anonymous)
        assert refused.value.request_id

    with Client(gateway.url) as client:
        with pytest.raises(UnauthorizedError):
            client.login("admin", "wrong-" + gateway.admin_password)
        assert client.token is None
        result = client.login("admin", gateway.admin_password)
        assert result.token and client.token == result.token
        assert result.admin is True
        roles = list_roles.sync(client=client)
        assert any(r.name == "admin" for r in roles.roles)

        client.logout()
        assert client.token is None
        with pytest.raises(UnauthorizedError):
            list_roles.sync(client=client)


def test_ingest_through_http_south_and_browse(client: Client) -> None:
    port = free_port()
    service = unique("py-sdk-south")
    config = ServiceCreateRequestConfig.from_dict({"port": {"value": str(port)}})
    create_service.sync(
        client=client,
        body=ServiceCreateRequest(name=service, type_="south", plugin="http_south", enabled=True, config=config),
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

        # Readings reach storage asynchronously; until the first does, the
        # asset is unknown (404).
        def stored() -> list[Reading] | None:
            try:
                rs = get_asset_readings.sync(asset, client=client)
            except NotFoundError:
                return None
            return rs if len(rs) == len(readings) else None

        got = eventually("the readings in storage", 30, stored)
        assert sorted(r.reading["temperature"] for r in got) == [21.5, 22]
        assert sorted(r.timestamp for r in got) == [
            datetime.datetime(2024, 5, 1, 10, 15, 42, 123456, tzinfo=datetime.UTC),
            datetime.datetime(2024, 5, 1, 10, 15, 43, tzinfo=datetime.UTC),
        ]

        windowed = get_asset_readings.sync(asset, client=client, hours=1000000)
        assert isinstance(windowed, list)

        assets = list_assets.sync(client=client)
        mine = [a for a in assets if a.asset_code == asset]
        assert len(mine) == 1 and mine[0].count == len(readings)
    finally:
        try:
            delete_service.sync(service, client=client)
        except ApiError:
            pass


def test_fleet_configuration_export_and_plan(gateway: Gateway) -> None:
    with Client(gateway.url) as client:
        client.login("admin", gateway.admin_password)
        doc = export_config.sync(client=client)
        assert doc.version == 1
        assert isinstance(doc.users, list) and any(u.name == "admin" for u in doc.users)
        assert isinstance(doc.categories, list)
        purge = next(c for c in doc.categories if c.name == "PURGE_READ")
        age = purge.items["age"]
        assert isinstance(age, str)

        def purge_age(value: str | FleetSecretReference) -> FleetDocument:
            return FleetDocument(
                version=1, categories=[FleetCategory(name="PURGE_READ", items=FleetValues.from_dict({"age": value}))]
            )

        # The gateway's own value is no change; another one is one change.
        unchanged = plan_config.sync(client=client, body=purge_age(age))
        assert unchanged.changes == [] and unchanged.summary.change == 0
        other = str(int(age) + 1)
        plan = plan_config.sync(client=client, body=purge_age(other))
        assert [(c.action, c.kind, c.name, c.field, c.from_, c.to) for c in plan.changes] == [
            (
                FleetChangeAction.FLEET_ACTION_CHANGE,
                FleetChangeKind.FLEET_KIND_CATEGORY,
                "PURGE_READ",
                "items.age",
                age,
                other,
            )
        ]
        assert get_category_item.sync("PURGE_READ", "age", client=client).value == age

        # A reference is resolved by the client, never by the gateway.
        with pytest.raises(BadRequestError) as refused:
            plan_config.sync(client=client, body=purge_age(FleetSecretReference(from_env="AGE")))
        assert "not resolved" in refused.value.message
