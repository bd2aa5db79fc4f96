"""The SDK refuses a batch larger than the gateway takes in one message."""

import threading

import grpc
import pytest

from edged_plugin import MAX_MESSAGE_BYTES, BatchTooLarge, Reading, SouthPlugin, server
from edged_plugin.pb import plugin_pb2, plugin_pb2_grpc


class Big(SouthPlugin):
    """Emits one batch of size bytes of values, then records what emit did."""

    name, version = "big", "1.0.0"

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.refusal: list[BaseException] = []

    def run(self, emit, stopped: threading.Event) -> None:
        value = "a" * (1 << 20)
        try:
            emit([Reading("big", {"x": value}) for _ in range(self.size >> 20)])
        except BatchTooLarge as e:
            self.refusal.append(e)
            raise
        stopped.wait()


@pytest.mark.parametrize("size, refused", [(1 << 20, False), (200 << 20, True)])
def test_emit_refuses_an_oversized_batch(size, refused):
    plugin = Big(size)
    srv, port, _ = server(plugin)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)])
    try:
        south = plugin_pb2_grpc.SouthStub(ch)
        south.Start(plugin_pb2.StartRequest(service="s", config={}))
        stream = south.Run(plugin_pb2.RunRequest())
        if refused:
            with pytest.raises(grpc.RpcError) as e:
                next(iter(stream))
            assert e.value.code() == grpc.StatusCode.ABORTED
            assert f"more than the {MAX_MESSAGE_BYTES} a plugin may send at once" in e.value.details()
            assert plugin.refusal
        else:
            batch = next(iter(stream))
            assert len(batch.readings) == 1
            stream.cancel()
    finally:
        ch.close()
        srv.stop(None)
