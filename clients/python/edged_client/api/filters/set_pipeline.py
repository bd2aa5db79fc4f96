from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.pipeline import Pipeline
from ...models.pipeline_request import PipelineRequest
from ...types import UNSET, Response


def _get_kwargs(
    service_name: str,
    *,
    body: PipelineRequest,
    append: bool | None = None,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    if append is not None:
        params["append"] = append

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/filter/{service_name}/pipeline".format(
            service_name=quote(str(service_name), safe=""),
        ),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Pipeline:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Pipeline.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Pipeline]:
    # Parsed first: an answer outside 2xx raises its ApiError, whatever its
    # status (HTTPStatus knows only the registered ones).
    parsed = _parse_response(client=client, response=response)
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=parsed,
    )


def sync_detailed(
    service_name: str,
    *,
    client: Client,
    body: PipelineRequest,
    append: bool | None = None,
) -> Response[Pipeline]:
    """Set or extend a service's filter pipeline

     Sets the pipeline of a south or north service to the filter instances named, in order (an empty list
    removes every filter), or with `append=true` adds them after the current ones. A running service
    applies the change at once: instances it keeps run on with their state, new ones start with the
    state they persisted in this service, dropped ones persist theirs. A south pipeline runs before the
    ingest buffer (what it drops or changes is never stored); a north pipeline runs before the north
    plugin (it changes what is sent, not what is stored). Each filter records asset tracking events of
    kind `Filter` with its plugin's name; the statistic `<service>-Filtered` counts the readings the
    pipeline dropped (for a north service UNSENT too). 400 when an instance is named twice; 404 for an
    unknown service or filter instance.

    Args:
        service_name (str):
        append (bool | Unset):  Default: False.
        body (PipelineRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Pipeline]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        body=body,
        append=append,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_name: str,
    *,
    client: Client,
    body: PipelineRequest,
    append: bool | None = None,
) -> Pipeline:
    """Set or extend a service's filter pipeline

     Sets the pipeline of a south or north service to the filter instances named, in order (an empty list
    removes every filter), or with `append=true` adds them after the current ones. A running service
    applies the change at once: instances it keeps run on with their state, new ones start with the
    state they persisted in this service, dropped ones persist theirs. A south pipeline runs before the
    ingest buffer (what it drops or changes is never stored); a north pipeline runs before the north
    plugin (it changes what is sent, not what is stored). Each filter records asset tracking events of
    kind `Filter` with its plugin's name; the statistic `<service>-Filtered` counts the readings the
    pipeline dropped (for a north service UNSENT too). 400 when an instance is named twice; 404 for an
    unknown service or filter instance.

    Args:
        service_name (str):
        append (bool | Unset):  Default: False.
        body (PipelineRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Pipeline
    """

    return sync_detailed(
        service_name=service_name,
        client=client,
        body=body,
        append=append,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    *,
    client: Client,
    body: PipelineRequest,
    append: bool | None = None,
) -> Response[Pipeline]:
    """Set or extend a service's filter pipeline

     Sets the pipeline of a south or north service to the filter instances named, in order (an empty list
    removes every filter), or with `append=true` adds them after the current ones. A running service
    applies the change at once: instances it keeps run on with their state, new ones start with the
    state they persisted in this service, dropped ones persist theirs. A south pipeline runs before the
    ingest buffer (what it drops or changes is never stored); a north pipeline runs before the north
    plugin (it changes what is sent, not what is stored). Each filter records asset tracking events of
    kind `Filter` with its plugin's name; the statistic `<service>-Filtered` counts the readings the
    pipeline dropped (for a north service UNSENT too). 400 when an instance is named twice; 404 for an
    unknown service or filter instance.

    Args:
        service_name (str):
        append (bool | Unset):  Default: False.
        body (PipelineRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Pipeline]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        body=body,
        append=append,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    *,
    client: Client,
    body: PipelineRequest,
    append: bool | None = None,
) -> Pipeline:
    """Set or extend a service's filter pipeline

     Sets the pipeline of a south or north service to the filter instances named, in order (an empty list
    removes every filter), or with `append=true` adds them after the current ones. A running service
    applies the change at once: instances it keeps run on with their state, new ones start with the
    state they persisted in this service, dropped ones persist theirs. A south pipeline runs before the
    ingest buffer (what it drops or changes is never stored); a north pipeline runs before the north
    plugin (it changes what is sent, not what is stored). Each filter records asset tracking events of
    kind `Filter` with its plugin's name; the statistic `<service>-Filtered` counts the readings the
    pipeline dropped (for a north service UNSENT too). 400 when an instance is named twice; 404 for an
    unknown service or filter instance.

    Args:
        service_name (str):
        append (bool | Unset):  Default: False.
        body (PipelineRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Pipeline
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            client=client,
            body=body,
            append=append,
        )
    ).parsed
