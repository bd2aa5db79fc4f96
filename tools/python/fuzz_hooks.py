"""Schemathesis hooks of `make test-fuzz` (loaded through SCHEMATHESIS_HOOKS).

- Requests that would end the fuzzing session itself are not sent: ending
  every session of user 1 (the admin whose token the run uses) or deleting
  user 1. The conformance suite covers those calls.
- A request the gateway does not build yet (EDGE_FUZZ_UNBUILT, the
  Makefile's FUZZ_UNBUILT) answers 501, which the contract documents; only
  the server-error check's failure for that 501 is dropped, and
  Schemathesis counts it as dropped by `filter_failure` in its summary.
  Every other check still applies to those requests, and nothing is
  excused for any other request: a built operation answering 501 fails.
- A 502 from an operation whose contract documents 502 (the package calls:
  the configured package repository did not answer, or answered what the
  gateway refuses) is the upstream's failure, not the gateway's: the
  server-error check's failure for it is dropped too; every other check
  applies.

EDGE_FUZZ_UNBUILT holds space-separated entries: an operationId (every
request of it), or `operationId:name=value` for the requests of that
operation whose query parameter or JSON body field `name` equals `value`,
case-insensitively (`createService:type=notification`).
"""

import os

import schemathesis
from schemathesis.core.failures import ServerError


def _parse(spec: str) -> dict[str, list[tuple[str, str] | None]]:
    out: dict[str, list[tuple[str, str] | None]] = {}
    for entry in spec.split():
        op, _, cond = entry.partition(":")
        name, _, value = cond.partition("=")
        out.setdefault(op, []).append((name, value.lower()) if cond else None)
    return out


UNBUILT = _parse(os.environ.get("EDGE_FUZZ_UNBUILT", ""))

# Operations whose call with user_id 1 would end the run's admin session.
ENDS_SESSION_OF_USER = frozenset({"logoutUserSessions", "deleteUser", "deleteUserById"})


def _operation_id(case) -> str:
    return case.operation.definition.raw.get("operationId", "")


def _names_user_1(value) -> bool:
    """Whether a generated user_id could reach the gateway as user 1 ("1", "01", "+1", 1.0)."""
    try:
        return float(str(value).strip()) == 1
    except ValueError:
        return False


def _is_unbuilt(case) -> bool:
    """Whether the request of case is one the gateway does not build yet."""
    conditions = UNBUILT.get(_operation_id(case))
    if conditions is None:
        return False
    query = case.query or {}
    body = case.body if isinstance(case.body, dict) else {}
    for cond in conditions:
        if cond is None:
            return True
        name, value = cond
        for source in (query, body):
            v = source.get(name)
            if isinstance(v, str) and v.lower() == value:
                return True
    return False


@schemathesis.hook
def filter_case(context, case) -> bool:
    if _operation_id(case) in ENDS_SESSION_OF_USER:
        return not _names_user_1((case.path_parameters or {}).get("user_id"))
    return True


def _documents(case, status: int) -> bool:
    """Whether the contract documents status as an answer of case's operation."""
    return str(status) in (case.operation.definition.raw.get("responses") or {})


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    if not isinstance(failure, ServerError):
        return True
    if response.status_code == 501 and _is_unbuilt(case):
        return False
    if response.status_code == 502 and _documents(case, 502):
        return False
    return True
