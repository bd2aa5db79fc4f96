"""Errors raised by the API functions.

The template of this module is edged's own (tools/python/templates): it keeps
the generator's `UnexpectedStatus` and adds `ApiError`, raised by every API
function for an answer outside 2xx, with one subclass per status a caller
usually handles.
"""

import email.utils
import json
import time
from collections.abc import Mapping
from http import HTTPStatus
from typing import Protocol, TypeVar

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
    log lines quote.
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
        text = f"{status_code} {_phrase(status_code)}: {message}"
        if request_id:
            text += f" (request id {request_id})"
        super().__init__(text)


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


def _phrase(status_code: int) -> str:
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return "Unknown Status"


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
        message = response.content.decode(errors="replace").strip()[:200] or _phrase(status)
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
    "check",
]
