"""Errors raised by the API functions.

The template of this module is edged's own (tools/python/templates): it keeps
the generator's `UnexpectedStatus` and adds `ApiError`, raised by every API
function for an answer outside 2xx, with one subclass per status a caller
usually handles.
"""

import email.utils
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import ParamSpec, Protocol, TypeVar

from .types import Response


class UnexpectedStatus(Exception):
    """Raised by api functions when the response status an undocumented status and Client.raise_on_unexpected_status is True"""

    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content

        super().__init__(
            f"Unexpected status code: {status_code}\n\nResponse content:\n{content.decode(errors='ignore')}"
        )


class ApiError(Exception):
    """A response of the gateway with a status outside 2xx.

    Every error body of the API is ``{"message": "..."}``: ``message`` holds that
    sentence (or the raw body, or the status phrase, when the body has another
    shape). ``request_id`` is the response's ``X-Request-Id``, which the gateway's
    log lines quote. ``str(error)`` is the text the Go and TypeScript SDKs render
    the same answer as::

        edged: 400 Bad Request: name: must not be empty (request id req-1)

    The API functions raise it; `result` and `aresult` return it as a value.
    """

    def __init__(
        self,
        status_code: int,
        message: str,
        request_id: str | None = None,
        *,
        retry_after: float | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes = b"",
    ):
        self.status_code = status_code
        self.message = message
        self.request_id = request_id
        #: The wait in seconds the answer's ``Retry-After`` asks for (429 after
        #: failed logins, 503), or None.
        self.retry_after = retry_after
        #: The answer's headers and body.
        self.headers: Mapping[str, str] = headers or {}
        self.content = content
        super().__init__(render(status_code, message, request_id))


class BadRequestError(ApiError):
    """400: malformed or invalid input."""


class UnauthorizedError(ApiError):
    """401: missing or invalid credentials or token."""


class ForbiddenError(ApiError):
    """403: authenticated, but the caller's role does not allow the call."""


class NotFoundError(ApiError):
    """404: unknown resource."""


class ConflictError(ApiError):
    """409: conflict with the current state (e.g. a name already taken)."""


class PayloadTooLargeError(ApiError):
    """413: the request body is too large."""


class TooManyRequestsError(ApiError):
    """429: account locked after failed logins (see ``retry_after``)."""


class OperationNotImplementedError(ApiError):
    """501: the gateway does not implement this operation yet."""


class ServiceUnavailableError(ApiError):
    """503: the gateway's storage is unavailable (see ``retry_after``)."""


_ERROR_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    429: TooManyRequestsError,
    501: OperationNotImplementedError,
    503: ServiceUnavailableError,
}


# The phrase of each status, as Go's net/http names it, so that the three SDKs
# render an answer alike whatever the Python version (whose HTTPStatus renamed
# some: 413 is "Content Too Large" from 3.13).
_PHRASES: dict[int, str] = {
    300: "Multiple Choices",
    301: "Moved Permanently",
    302: "Found",
    303: "See Other",
    304: "Not Modified",
    305: "Use Proxy",
    307: "Temporary Redirect",
    308: "Permanent Redirect",
    400: "Bad Request",
    401: "Unauthorized",
    402: "Payment Required",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    406: "Not Acceptable",
    407: "Proxy Authentication Required",
    408: "Request Timeout",
    409: "Conflict",
    410: "Gone",
    411: "Length Required",
    412: "Precondition Failed",
    413: "Request Entity Too Large",
    414: "Request URI Too Long",
    415: "Unsupported Media Type",
    416: "Requested Range Not Satisfiable",
    417: "Expectation Failed",
    418: "I'm a teapot",
    421: "Misdirected Request",
    422: "Unprocessable Entity",
    423: "Locked",
    424: "Failed Dependency",
    425: "Too Early",
    426: "Upgrade Required",
    428: "Precondition Required",
    429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    451: "Unavailable For Legal Reasons",
    500: "Internal Server Error",
    501: "Not Implemented",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
    505: "HTTP Version Not Supported",
    506: "Variant Also Negotiates",
    507: "Insufficient Storage",
    508: "Loop Detected",
    510: "Not Extended",
    511: "Network Authentication Required",
}


def _phrase(status_code: int) -> str:
    return _PHRASES.get(status_code, "")


def render(status_code: int, message: str, request_id: str | None = None) -> str:
    """The text of an answer outside 2xx, as all three SDKs render it:
    ``edged: STATUS PHRASE: MESSAGE (request id ID)`` (no phrase for a status
    without one, no request id when the answer had none)."""
    text = f"edged: {status_code}"
    phrase = _phrase(status_code)
    if phrase:
        text += f" {phrase}"
    if message:
        text += f": {message}"
    if request_id:
        text += f" (request id {request_id})"
    return text


class _Answer(Protocol):
    """What api_error reads of an answer: an httpx.Response fits."""

    @property
    def status_code(self) -> int: ...

    @property
    def content(self) -> bytes: ...

    @property
    def headers(self) -> Mapping[str, str]: ...


def retry_after(value: str | None) -> float | None:
    """Parse a ``Retry-After`` header (seconds, or an HTTP date) into seconds."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def api_error(response: _Answer) -> ApiError:
    """Return the `ApiError` (subclass) describing an answer outside 2xx."""
    status = int(response.status_code)
    message = ""
    try:
        body = json.loads(response.content)
        if isinstance(body, dict) and isinstance(body.get("message"), str):
            message = body["message"]
    except ValueError:
        pass
    if not message:
        # The body's text, at most 200 characters, else the status's phrase.
        message = response.content.decode(errors="replace").strip()
        if len(message) > 200:
            message = message[:200] + "…"
        message = message or _phrase(status)
    request_id = None
    wait = None
    for name, value in response.headers.items():
        if name.lower() == "x-request-id":
            request_id = value
        elif name.lower() == "retry-after":
            wait = retry_after(value)
    return _ERROR_BY_STATUS.get(status, ApiError)(
        status, message, request_id, retry_after=wait, headers=response.headers, content=response.content
    )


T = TypeVar("T")
P = ParamSpec("P")


def result(call: Callable[P, Response[T]], /, *args: P.args, **kwargs: P.kwargs) -> Response[T] | ApiError:
    """Call an operation's ``sync_detailed`` and return its answer as a value:
    the `Response` of a 2xx answer, or the `ApiError` (subclass) of any other,
    returned rather than raised. Transport errors are still raised.

    >>> answer = result(get_category.sync_detailed, "nope", client=client)
    >>> if isinstance(answer, NotFoundError):
    ...     print(answer.status_code, answer.message, answer.request_id)
    """
    try:
        return call(*args, **kwargs)
    except ApiError as e:
        return e


async def aresult(
    call: Callable[P, Awaitable[Response[T]]], /, *args: P.args, **kwargs: P.kwargs
) -> Response[T] | ApiError:
    """`result` for ``asyncio_detailed``: the `Response` of a 2xx answer, or
    the `ApiError` of any other, returned rather than raised."""
    try:
        return await call(*args, **kwargs)
    except ApiError as e:
        return e


def check(response: Response[T]) -> T:
    """Return the parsed body of a ``sync_detailed`` or ``asyncio_detailed``
    result. Those raise `ApiError` for an answer outside 2xx themselves: this
    only unwraps the body.

    >>> category = check(get_category.sync_detailed("rest_api", client=client))
    """
    return response.parsed


__all__ = [
    "ApiError",
    "BadRequestError",
    "ConflictError",
    "ForbiddenError",
    "NotFoundError",
    "OperationNotImplementedError",
    "PayloadTooLargeError",
    "ServiceUnavailableError",
    "TooManyRequestsError",
    "UnauthorizedError",
    "UnexpectedStatus",
    "api_error",
    "aresult",
    "check",
    "render",
    "result",
]
