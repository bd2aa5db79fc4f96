"""The plugin's end of HashiCorp go-plugin's gRPC broker (service
plugin.GRPCBroker, go-plugin's internal/plugin/grpc_broker.proto): enough
of it to dial a server the gateway serves through the broker, as a
service's Host is.

The gateway opens the bidirectional stream StartStream to the plugin once
it has connected. To serve something on id, it listens on a socket of its
own and sends ConnInfo{service_id: id, network, address} down the stream;
the plugin dials that address. The SDK does not ask for go-plugin's
multiplexing (no sixth field in the handshake line), so no knocks are
exchanged, and it serves nothing through the broker itself.
"""

from __future__ import annotations

import threading
import time
from typing import Optional

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

SERVICE = "plugin.GRPCBroker"
# How long dial waits for the gateway to announce an id (go-plugin's
# GRPCBroker.Dial waits as long).
DIAL_TIMEOUT = 5.0


def _conn_info_class():
    """The message plugin.ConnInfo, built from its descriptor: field
    numbers and types exactly as grpc_broker.proto declares them."""
    f = descriptor_pb2.FileDescriptorProto(name="edged_plugin/go_plugin_grpc_broker.proto", package="plugin", syntax="proto3")
    m = f.message_type.add(name="ConnInfo")
    T = descriptor_pb2.FieldDescriptorProto
    m.field.add(name="service_id", number=1, type=T.TYPE_UINT32, label=T.LABEL_OPTIONAL)
    m.field.add(name="network", number=2, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    m.field.add(name="address", number=3, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    m.field.add(name="knock", number=4, type=T.TYPE_MESSAGE, label=T.LABEL_OPTIONAL, type_name=".plugin.ConnInfo.Knock")
    k = m.nested_type.add(name="Knock")
    k.field.add(name="knock", number=1, type=T.TYPE_BOOL, label=T.LABEL_OPTIONAL)
    k.field.add(name="ack", number=2, type=T.TYPE_BOOL, label=T.LABEL_OPTIONAL)
    k.field.add(name="error", number=3, type=T.TYPE_STRING, label=T.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("plugin.ConnInfo"))


ConnInfo = _conn_info_class()


class BrokerError(Exception):
    """The gateway did not announce the id asked for in time."""


class Broker:
    """Serves plugin.GRPCBroker and dials what the gateway announces."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._conns: dict[int, tuple[str, str]] = {}

    def handler(self) -> grpc.GenericRpcHandler:
        """The gRPC handler to add to the plugin's server."""
        return grpc.method_handlers_generic_handler(
            SERVICE,
            {
                "StartStream": grpc.stream_stream_rpc_method_handler(
                    self._start_stream,
                    request_deserializer=ConnInfo.FromString,
                    response_serializer=ConnInfo.SerializeToString,
                )
            },
        )

    def _start_stream(self, requests, context):
        # The plugin sends nothing: it neither serves through the broker
        # nor knocks. The stream lives as long as the gateway keeps it.
        for info in requests:
            if info.HasField("knock"):
                continue
            with self._cond:
                self._conns[info.service_id] = (info.network, info.address)
                self._cond.notify_all()
        return
        yield  # a generator: the stream's (empty) answers

    def dial(self, service_id: int, timeout: Optional[float] = None) -> grpc.Channel:
        """Returns a channel to the server the gateway serves on
        service_id, once the gateway has announced it (at most timeout
        seconds from now, DIAL_TIMEOUT by default)."""
        if timeout is None:
            timeout = DIAL_TIMEOUT
        deadline = time.monotonic() + timeout
        with self._cond:
            while service_id not in self._conns:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrokerError(f"the gateway announced no connection of id {service_id} within {timeout:g} s")
                self._cond.wait(left)
            network, address = self._conns.pop(service_id)
        if network == "unix":
            target = "unix:" + address
        elif network in ("tcp", "tcp4", "tcp6"):
            target = address
        else:
            raise BrokerError(f"the gateway announced id {service_id} on network {network!r}, which the SDK cannot dial")
        return grpc.insecure_channel(target)
