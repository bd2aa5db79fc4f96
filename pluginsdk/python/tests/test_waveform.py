"""Tests of the Python SDK and the waveform example over the real gRPC
contract: in process through server(), and as a process through go-plugin's
handshake."""

import json
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from edged_plugin import server
from edged_plugin.pb import plugin_pb2, plugin_pb2_grpc

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "examples" / "waveform"))
from waveform import Waveform, wave  # noqa: E402


@pytest.fixture
def channel():
    clock = iter(i * 0.25 for i in range(1_000_000))
    srv, port, _ = server(Waveform(clock=lambda: next(clock)))
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield ch
    ch.close()
    srv.stop(None)


def config(**changes):
    cfg = {"asset": "wave", "shape": "square", "frequency": "1", "amplitude": "2", "rate": "1000"}
    cfg.update(changes)
    return cfg


@pytest.mark.parametrize(
    "shape,phase,want",
    [("sine", 0.25, 1.0), ("square", 0.75, -1.0), ("triangle", 0.5, 1.0), ("sawtooth", 0.0, -1.0)],
)
def test_wave(shape, phase, want):
    assert wave(shape, phase) == pytest.approx(want)


def test_describe(channel):
    d = plugin_pb2_grpc.PluginStub(channel).Describe(plugin_pb2.DescribeRequest())
    assert (d.name, d.kind, d.version, d.persists) == ("waveform", "south", "1.0.0", True)
    assert d.items["shape"].options == ["sine", "square", "triangle", "sawtooth"]
    assert d.items["rate"].default == "1"


def test_run_produces_the_wave(channel):
    south = plugin_pb2_grpc.SouthStub(channel)
    south.Start(plugin_pb2.StartRequest(service="s", config=config(), state=b'{"samples": 5}'))
    values = []
    stream = south.Run(plugin_pb2.RunRequest())
    for batch in stream:
        for r in batch.readings:
            assert r.asset == "wave"
            values.append(json.loads(r.values_json)["value"])
        if len(values) >= 4:
            stream.cancel()
            break
    # Phases 0, 0.25, 0.5, 0.75 of a square wave of amplitude 2.
    assert values[:4] == [2.0, 2.0, -2.0, -2.0]
    state = json.loads(south.State(plugin_pb2.StateRequest()).state)
    assert state["samples"] >= 9


def test_refusals(channel):
    south = plugin_pb2_grpc.SouthStub(channel)
    with pytest.raises(grpc.RpcError) as e:
        south.Start(plugin_pb2.StartRequest(service="s", config=config(shape="circle")))
    assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    south.Start(plugin_pb2.StartRequest(service="s", config=config()))
    with pytest.raises(grpc.RpcError) as e:
        south.Reconfigure(plugin_pb2.ReconfigureRequest(config=config(rate="0")))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert not south.Reconfigure(plugin_pb2.ReconfigureRequest(config=config(shape="sine"))).restart
    with pytest.raises(grpc.RpcError) as e:
        south.Write(plugin_pb2.WriteRequest(values={"x": "1"}))
    assert e.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_handshake_as_a_process():
    env = dict(os.environ, EDGED_PLUGIN_MAGIC_COOKIE="4c0e1d6c9a3b4f5e8d7a2b1c0f9e8d7c",
               PYTHONPATH=str(ROOT), EDGED_PLUGIN_PYTHON=sys.executable)
    proc = subprocess.Popen([str(ROOT / "examples" / "waveform" / "plugin")], env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        core, app, network, address, protocol = line.split("|")
        assert (core, app, network, protocol) == ("1", "1", "tcp", "grpc")
        with grpc.insecure_channel(address) as ch:
            resp = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service="plugin"))
            assert resp.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        proc.kill()
        proc.wait()


def test_refuses_to_run_by_hand():
    env = {k: v for k, v in os.environ.items() if k != "EDGED_PLUGIN_MAGIC_COOKIE"}
    env.update(PYTHONPATH=str(ROOT), EDGED_PLUGIN_PYTHON=sys.executable)
    out = subprocess.run([str(ROOT / "examples" / "waveform" / "plugin")], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "gateway" in out.stderr
