"""A client library for accessing edged — Edge Data Gateway API"""

from .client import DEFAULT_PAGE_SIZE, DEFAULT_RETRIES, DEFAULT_TIMEOUT, AuthenticatedClient, Client, apages, pages
from .errors import (
    ApiError,
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    OperationNotImplementedError,
    PayloadTooLargeError,
    ServiceUnavailableError,
    TooManyRequestsError,
    UnauthorizedError,
    aresult,
    check,
    result,
)

__all__ = (
    "DEFAULT_PAGE_SIZE",
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEOUT",
    "ApiError",
    "AuthenticatedClient",
    "BadRequestError",
    "Client",
    "ConflictError",
    "ForbiddenError",
    "NotFoundError",
    "OperationNotImplementedError",
    "PayloadTooLargeError",
    "ServiceUnavailableError",
    "TooManyRequestsError",
    "UnauthorizedError",
    "apages",
    "aresult",
    "check",
    "pages",
    "result",
)
