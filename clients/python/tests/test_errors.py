"""Answers outside 2xx: the text an error renders as (the same in the Go and
TypeScript SDKs, from clients/testdata/error-answers.json), reading a failed
answer as a value (`result`, `aresult`), and model reprs."""

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from support import REPO_ROOT

from edged_client import ApiError, BadRequestError, Client, NotFoundError, aresult, result
from edged_client.api.configuration import get_category_item
from edged_client.models import ConfigItem, ServiceRecord, ServiceStatus
from edged_client.types import UNSET, Response

CASES: list[dict[str, Any]] = json.loads((REPO_ROOT / "clients" / "testdata" / "error-answers.json").read_text())["cases"]


class Answer:
    """What the stand-in gateway answers every request with."""

    status = 200
    headers: dict[str, str] = {}
    body = b""


@pytest.fixture
def gateway() -> Iterator[tuple[str, Answer]]:
    answer = Answer()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(answer.status)
            for k, v in answer.headers.items():
                self.send_header(k, v)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", answer
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_error_rendering(gateway: tuple[str, Answer], case: dict[str, Any]) -> None:
    url, answer = gateway
    answer.status, answer.headers, answer.body = case["status"], case["headers"], case["body"].encode()
    with Client(url, retries=0) as client:
        with pytest.raises(ApiError) as raised:
            get_category_item.sync("service", "name", client=client)
    assert str(raised.value) == case["want"]
    assert raised.value.status_code == case["status"]


def test_result(gateway: tuple[str, Answer]) -> None:
    url, answer = gateway
    answer.status, answer.headers = 404, {"X-Request-Id": "r-7"}
    answer.body = b'{"message": "category \\"nope\\" not found"}'
    with Client(url, retries=0) as client:
        failed = result(get_category_item.sync_detailed, "nope", "name", client=client)
        assert isinstance(failed, NotFoundError)
        assert (failed.status_code, failed.message, failed.request_id) == (404, 'category "nope" not found', "r-7")
        assert failed.headers["x-request-id"] == "r-7"

        answer.status, answer.headers = 200, {}
        answer.body = json.dumps({"description": "d", "type": "string", "default": "", "value": "v"}).encode()
        ok = result(get_category_item.sync_detailed, "service", "name", client=client)
        assert isinstance(ok, Response)
        assert ok.status_code == 200 and ok.parsed.value == "v"

        answer.status, answer.body = 400, b'{"message": "bad"}'

        async def call() -> Response[ConfigItem] | ApiError:
            return await aresult(get_category_item.asyncio_detailed, "service", "name", client=client)

        failed_async = asyncio.run(call())
        assert isinstance(failed_async, BadRequestError) and failed_async.message == "bad"


def test_model_repr() -> None:
    record = ServiceRecord.from_dict(
        {
            "name": "s",
            "type": "Southbound",
            "address": "localhost",
            "management_port": 8081,
            "service_port": None,
            "protocol": "http",
            "status": "running",
        }
    )
    assert record.reason is UNSET
    text = repr(record)
    assert "Unset" not in text and "UNSET" not in text and "reason" not in text, text
    assert text.startswith("ServiceRecord(name='s', ") and f"status={ServiceStatus.RUNNING!r}" in text, text
    assert repr(UNSET) == "UNSET"
