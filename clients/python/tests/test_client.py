"""The client's timeout and retries, against a stand-in server whose
answers each test scripts."""

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from edged_client import DEFAULT_TIMEOUT, ApiError, Client, ServiceUnavailableError, TooManyRequestsError, pages
from edged_client.api.configuration import get_category_item, set_category_item
from edged_client.api.users import login
from edged_client.models import ConfigValue, LoginRequest

ITEM = {"description": "d", "type": "string", "default": "", "value": "v"}


class Script:
    """The answers of the stand-in server, in turn (the last one repeats),
    and the requests it got."""

    def __init__(self, *answers: tuple[int, dict[str, str]]) -> None:
        self.answers = list(answers)
        self.requests: list[str] = []
        self.release = threading.Event()
        self.hold = False


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script((200, {}))

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length).decode()
            script.requests.append(f"{self.command} {self.path} {body}")
            if script.hold:
                script.release.wait(30)
            status, headers = script.answers[min(len(script.requests), len(script.answers)) - 1]
            payload = json.dumps(ITEM if status == 200 else {"message": "busy"}).encode()
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_PUT = do_POST = answer

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", script
    finally:
        script.release.set()
        httpd.shutdown()
        httpd.server_close()


def test_default_timeout() -> None:
    with Client("http://127.0.0.1:1") as client:
        assert client.get_httpx_client().timeout == httpx.Timeout(DEFAULT_TIMEOUT)
        assert DEFAULT_TIMEOUT == 30.0


def test_timeout(server: tuple[str, Script]) -> None:
    url, script = server
    script.hold = True
    with Client(url, timeout=0.2) as client, pytest.raises(httpx.TimeoutException):
        get_category_item.sync("service", "name", client=client)


@pytest.mark.parametrize(
    ("answers", "retries", "want_requests", "want_error"),
    [
        pytest.param([(503, {"retry-after": "0"}), (200, {})], 3, 2, None, id="503 then 200"),
        pytest.param([(429, {"retry-after": "0"}), (429, {"retry-after": "0"}), (200, {})], 3, 3, None, id="429 twice"),
        pytest.param([(503, {"retry-after": "0"})], 3, 4, ServiceUnavailableError, id="gives up"),
        pytest.param([(503, {"retry-after": "0"})], 0, 1, ServiceUnavailableError, id="retries=0"),
        pytest.param([(503, {"retry-after": "3600"})], 3, 1, ServiceUnavailableError, id="Retry-After beyond the cap"),
        pytest.param([(503, {}), (200, {})], 1, 2, None, id="backoff without Retry-After"),
    ],
)
def test_retries(
    server: tuple[str, Script],
    answers: list[tuple[int, dict[str, str]]],
    retries: int,
    want_requests: int,
    want_error: type[ApiError] | None,
) -> None:
    url, script = server
    script.answers = answers
    with Client(url, retries=retries) as client:
        if want_error is None:
            assert set_category_item.sync("service", "name", client=client, body=ConfigValue(value="x")).value == "v"
        else:
            with pytest.raises(want_error) as raised:
                set_category_item.sync("service", "name", client=client, body=ConfigValue(value="x"))
            assert raised.value.retry_after == float(answers[-1][1].get("retry-after", "0"))
    assert script.requests == ['PUT /edge/category/service/name {"value":"x"}'] * want_requests


def test_post_is_not_retried(server: tuple[str, Script]) -> None:
    url, script = server
    script.answers = [(429, {"retry-after": "0"})]
    with Client(url) as client, pytest.raises(TooManyRequestsError):
        login.sync(client=client, body=LoginRequest(username="a", password="b"))
    assert len(script.requests) == 1


def test_async_retries(server: tuple[str, Script]) -> None:
    url, script = server
    script.answers = [(503, {"retry-after": "0"}), (200, {})]

    async def run() -> str:
        async with Client(url) as client:
            return (await get_category_item.asyncio("service", "name", client=client)).value

    assert asyncio.run(run()) == "v"
    assert len(script.requests) == 2


@pytest.mark.parametrize(
    ("total", "page_size", "with_total", "want_skips"),
    [
        pytest.param(7, 3, True, [0, 3, 6], id="total count"),
        pytest.param(6, 3, True, [0, 3], id="total count, full last page"),
        pytest.param(6, 3, False, [0, 3, 6], id="short page"),
        pytest.param(0, 3, True, [0], id="empty"),
    ],
)
def test_pages(total: int, page_size: int, with_total: bool, want_skips: list[int]) -> None:
    skips: list[int] = []

    def fetch(limit: int, skip: int) -> tuple[list[int], int | None]:
        skips.append(skip)
        return list(range(skip, min(skip + limit, total))), total if with_total else None

    assert list(pages(fetch, page_size=page_size)) == list(range(total))
    assert skips == want_skips
