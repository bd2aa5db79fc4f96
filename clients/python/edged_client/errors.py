"""Errors raised by the API functions and by `check`.

The template of this module is edged's own (tools/python/templates): it keeps
the generator's `UnexpectedStatus` and adds `ApiError`, one subclass per status
a caller usually handles, and `check`.
"""

import json
from http import HTTPStatus
from typing import TypeVar

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

    def __init__(self, status_code: int, message: str, request_id: str | None = None):
        self.status_code = status_code
        self.message = message
        self.request_id = request_id
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


class TooManyRequestsError(ApiError):
    """429: account locked after failed logins."""


class OperationNotImplementedError(ApiError):
    """501: the gateway does not implement this operation yet."""


_ERROR_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    429: TooManyRequestsError,
    501: OperationNotImplementedError,
}


def _phrase(status_code: int) -> str:
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return "Unknown Status"


def api_error(response: Response) -> ApiError:
    """Return the `ApiError` (subclass) describing a response outside 2xx."""
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
    for name, value in response.headers.items():
        if name.lower() == "x-request-id":
            request_id = value
    return _ERROR_BY_STATUS.get(status, ApiError)(status, message, request_id)


T = TypeVar("T")


def check(response: Response[T]) -> T:
    """Return the parsed body of a 2xx response of a ``sync_detailed`` or
    ``asyncio_detailed`` call; raise the `ApiError` of any other status.

    >>> category = check(get_category.sync_detailed("rest_api", client=client))
    """
    if 200 <= int(response.status_code) < 300:
        return response.parsed  # type: ignore[return-value]
    raise api_error(response)


__all__ = [
    "ApiError",
    "BadRequestError",
    "ConflictError",
    "ForbiddenError",
    "NotFoundError",
    "OperationNotImplementedError",
    "TooManyRequestsError",
    "UnauthorizedError",
    "UnexpectedStatus",
    "api_error",
    "check",
]
