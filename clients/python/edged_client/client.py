"""The client of the gateway: base URL, session token, timeout and retries.

The template of this module is edged's own (tools/python/templates): one
`Client` class, which every API function takes, with the convenience layer of
the SDK (log-in, paged iterators) on top.
"""

import random
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

import anyio
import httpx

if TYPE_CHECKING:
    from .models.audit_entry import AuditEntry
    from .models.audit_source import AuditSource
    from .models.login_result import LoginResult
    from .models.task import Task
    from .models.task_state import TaskState

#: Seconds each request may take (connect, send, wait for and read the answer).
DEFAULT_TIMEOUT = 30.0
#: How many times an idempotent request answered 429 or 503 is sent again.
DEFAULT_RETRIES = 3
#: The longest wait in seconds before a retry; an answer whose Retry-After
#: asks for more is returned at once.
DEFAULT_MAX_RETRY_WAIT = 30.0
#: The page size of the iterators.
DEFAULT_PAGE_SIZE = 100

T = TypeVar("T")

# Methods whose repetition has the effect of one request (RFC 9110, 9.2.2).
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
_RETRY_STATUSES = frozenset({429, 503})


def _retry_wait(
    request: httpx.Request, response: httpx.Response, attempt: int, retries: int, max_wait: float
) -> float | None:
    """The seconds to wait before sending request again, or None not to."""
    from .errors import retry_after

    if attempt >= retries or request.method not in _IDEMPOTENT or response.status_code not in _RETRY_STATUSES:
        return None
    wait = retry_after(response.headers.get("retry-after"))
    if wait is None:
        # 0.25 s doubling up to 8 s, half of it random, so that clients
        # turned away together do not come back together.
        step = 0.25 * 2 ** min(attempt, 5)
        wait = step / 2 + random.uniform(0, step / 2)  # noqa: S311 - jitter, not a secret
    return wait if wait <= max_wait else None


class _RetryTransport(httpx.BaseTransport):
    """Sends an idempotent request again when the gateway answers 429 or 503."""

    def __init__(self, inner: httpx.BaseTransport, retries: int, max_wait: float) -> None:
        self._inner = inner
        self._retries = retries
        self._max_wait = max_wait

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        attempt = 0
        while True:
            response = self._inner.handle_request(request)
            wait = _retry_wait(request, response, attempt, self._retries, self._max_wait)
            if wait is None:
                return response
            response.read()
            response.close()
            time.sleep(wait)
            attempt += 1

    def close(self) -> None:
        self._inner.close()


class _AsyncRetryTransport(httpx.AsyncBaseTransport):
    """`_RetryTransport` for the async client."""

    def __init__(self, inner: httpx.AsyncBaseTransport, retries: int, max_wait: float) -> None:
        self._inner = inner
        self._retries = retries
        self._max_wait = max_wait

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        attempt = 0
        while True:
            response = await self._inner.handle_async_request(request)
            wait = _retry_wait(request, response, attempt, self._retries, self._max_wait)
            if wait is None:
                return response
            await response.aread()
            await response.aclose()
            await anyio.sleep(wait)
            attempt += 1

    async def aclose(self) -> None:
        await self._inner.aclose()


class Client:
    """A client of the gateway at ``base_url`` (e.g. ``"http://localhost:8081"``).

    Every API function (``edged_client.api.<tag>.<operation>``) takes it as
    ``client=``. It sends the session token, once `login` or ``token=`` set it,
    in the ``authorization`` header of every request; bounds each request by
    ``timeout`` seconds (30 by default; None for no bound); and sends a GET,
    HEAD, OPTIONS, PUT or DELETE answered 429 or 503 again, up to ``retries``
    times, after the wait its ``Retry-After`` asks for (at most
    ``max_retry_wait`` seconds) or an exponential backoff. POST is never
    retried.

    ``verify`` is the TLS verification of an https:// gateway (True, a CA
    bundle path, or an `ssl.SSLContext`); ``cert`` the client certificate
    (a path, or a ``(certfile, keyfile)`` pair) for `login_with_certificate`.
    ``headers`` are sent with every request; ``httpx_args`` go to the
    ``httpx.Client`` and ``httpx.AsyncClient`` constructors.

    Use it as a context manager, or call `close`, to release its connections.
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT,
        verify: ssl.SSLContext | str | bool = True,
        cert: str | tuple[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = False,
        httpx_args: Mapping[str, Any] | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"edged: base URL {base_url!r}: want http:// or https://")
        if retries < 0:
            raise ValueError(f"edged: negative number of retries {retries}")
        self._base_url = base_url.rstrip("/")
        self._token = token
        self._timeout = timeout
        self._retries = retries
        self._max_retry_wait = max_retry_wait
        self._verify = verify
        self._cert = cert
        self._headers = dict(headers or {})
        self._follow_redirects = follow_redirects
        self._httpx_args = dict(httpx_args or {})
        self._client: httpx.Client | None = None
        self._async_client: httpx.AsyncClient | None = None

    @property
    def base_url(self) -> str:
        """The gateway's base URL."""
        return self._base_url

    @property
    def token(self) -> str | None:
        """The session token the client sends, or None."""
        return self._token

    @token.setter
    def token(self, token: str | None) -> None:
        self._token = token
        for c in (self._client, self._async_client):
            if c is not None:
                if token:
                    c.headers["authorization"] = token
                else:
                    c.headers.pop("authorization", None)

    def _client_headers(self) -> dict[str, str]:
        headers = dict(self._headers)
        if self._token:
            headers["authorization"] = self._token
        return headers

    def get_httpx_client(self) -> httpx.Client:
        """The underlying ``httpx.Client``, built on first use: base URL, token,
        timeout and retries included. Requests sent with it directly
        (``client.get_httpx_client().get("/edge/ping")``) are not checked."""
        if self._client is None:
            transport = _RetryTransport(
                httpx.HTTPTransport(verify=self._verify, cert=self._cert), self._retries, self._max_retry_wait
            )
            self._client = httpx.Client(
                base_url=self._base_url,
                headers=self._client_headers(),
                timeout=self._timeout,
                follow_redirects=self._follow_redirects,
                transport=transport,
                **self._httpx_args,
            )
        return self._client

    def get_async_httpx_client(self) -> httpx.AsyncClient:
        """The underlying ``httpx.AsyncClient``, as `get_httpx_client`."""
        if self._async_client is None:
            transport = _AsyncRetryTransport(
                httpx.AsyncHTTPTransport(verify=self._verify, cert=self._cert), self._retries, self._max_retry_wait
            )
            self._async_client = httpx.AsyncClient(
                base_url=self._base_url,
                headers=self._client_headers(),
                timeout=self._timeout,
                follow_redirects=self._follow_redirects,
                transport=transport,
                **self._httpx_args,
            )
        return self._async_client

    def close(self) -> None:
        """Close the connections of the sync client."""
        if self._client is not None:
            self._client.close()
            self._client = None

    async def aclose(self) -> None:
        """Close the connections of the async client."""
        if self._async_client is not None:
            await self._async_client.aclose()
            self._async_client = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *args: object) -> None:
        await self.aclose()

    def login(self, username: str, password: str) -> "LoginResult":
        """Log in with a user name and password and send the session token from
        now on. A wrong name or password raises `UnauthorizedError`; a locked
        account `TooManyRequestsError`, whose ``retry_after`` says for how long."""
        from .api.users import login
        from .models.login_request import LoginRequest

        result = login.sync(client=self, body=LoginRequest(username=username, password=password))
        self.token = result.token
        return result

    def login_with_certificate(self) -> "LoginResult":
        """Log in with the client certificate this client presents (``cert=``,
        over https://) and send the session token from now on. The gateway must
        request client certificates; the certificate's subject common name is
        the user name."""
        from .errors import api_error
        from .models.login_result import LoginResult

        response = self.get_httpx_client().post("/edge/authenticate")
        if not 200 <= response.status_code <= 299:
            raise api_error(response)
        result = LoginResult.from_dict(response.json())
        self.token = result.token
        return result

    def logout(self) -> None:
        """End the session of the client's token and forget the token."""
        from .api.users import logout

        logout.sync(client=self)
        self.token = None

    def audit_entries(
        self,
        *,
        source: "AuditSource | None" = None,
        severity: str | None = None,
        skip: int = 0,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> Iterator["AuditEntry"]:
        """Iterate over the audit entries matching the filters, newest first,
        fetching pages of ``page_size`` entries as the loop advances, until
        ``totalCount`` of them are read. Entries added meanwhile may shift the
        pages, so that one entry comes twice."""
        from .api.audit import list_audit_entries

        def fetch(limit: int, skip: int) -> tuple[list["AuditEntry"], int | None]:
            page = list_audit_entries.sync(client=self, source=source, severity=severity, limit=limit, skip=skip)
            return page.audit, page.total_count

        return pages(fetch, skip=skip, page_size=page_size)

    def tasks(
        self,
        *,
        name: str | None = None,
        state: "TaskState | None" = None,
        skip: int = 0,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> Iterator["Task"]:
        """Iterate over the tasks matching the filters, newest first, fetching
        pages of ``page_size`` tasks as the loop advances, until a page comes
        back short."""
        from .api.tasks import list_tasks

        def fetch(limit: int, skip: int) -> tuple[list["Task"], int | None]:
            return list_tasks.sync(client=self, name=name, state=state, limit=limit, skip=skip).tasks, None

        return pages(fetch, skip=skip, page_size=page_size)


def pages(
    fetch: Callable[[int, int], tuple[list[T], int | None]], *, skip: int = 0, page_size: int = DEFAULT_PAGE_SIZE
) -> Iterator[T]:
    """Iterate over every item of a paged list. ``fetch(limit, skip)`` returns
    one page and the number of items of the whole list (None when the list
    does not say); iteration stops at that number, or else at the first page
    shorter than ``page_size``."""
    if page_size <= 0:
        raise ValueError(f"edged: page size {page_size} is not positive")
    while True:
        items, total = fetch(page_size, skip)
        yield from items
        skip += len(items)
        if len(items) < page_size or (total is not None and skip >= total):
            return


async def apages(
    fetch: Callable[[int, int], Awaitable[tuple[list[T], int | None]]],
    *,
    skip: int = 0,
    page_size: int = DEFAULT_PAGE_SIZE,
) -> AsyncIterator[T]:
    """`pages` for an async ``fetch``."""
    if page_size <= 0:
        raise ValueError(f"edged: page size {page_size} is not positive")
    while True:
        items, total = await fetch(page_size, skip)
        for item in items:
            yield item
        skip += len(items)
        if len(items) < page_size or (total is not None and skip >= total):
            return


#: The generated code's name of the client of operations that need a token:
#: the same class, which sends one once it has it.
AuthenticatedClient = Client
