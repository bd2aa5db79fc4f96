"""A client library for accessing edged — Edge Data Gateway API"""

from .client import AuthenticatedClient, Client
from .errors import (
    ApiError,
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    OperationNotImplementedError,
    TooManyRequestsError,
    UnauthorizedError,
    check,
)

__all__ = (
    "ApiError",
    "AuthenticatedClient",
    "BadRequestError",
    "Client",
    "ConflictError",
    "ForbiddenError",
    "NotFoundError",
    "OperationNotImplementedError",
    "TooManyRequestsError",
    "UnauthorizedError",
    "check",
)
