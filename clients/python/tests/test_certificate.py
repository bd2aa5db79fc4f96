"""Certificate login: the client presents its certificate over TLS to a
stand-in gateway, which logs in the certificate's subject."""

import json
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import cast

import pytest

from edged_client import Client, UnauthorizedError


def self_signed(directory: Path, name: str, san: str = "") -> tuple[str, str]:
    """Make a self-signed certificate and key for CN=name (openssl)."""
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    args = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    args += ["-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", f"/CN={name}"]
    if san:
        args += ["-addext", f"subjectAltName={san}"]
    subprocess.run(args, check=True, capture_output=True)
    return str(cert), str(key)


@pytest.fixture
def tls_gateway(tmp_path: Path) -> Iterator[tuple[str, str, tuple[str, str]]]:
    server_cert, server_key = self_signed(tmp_path, "gateway", "IP:127.0.0.1")
    client = self_signed(tmp_path, "alice")
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def reply(self, status: int, body: object) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:
            assert isinstance(self.connection, ssl.SSLSocket)
            peer = self.connection.getpeercert()
            if self.path != "/edge/authenticate" or not peer:
                self.reply(401, {"message": "No credentials"})
                return
            subject = cast("tuple[tuple[tuple[str, str], ...], ...]", peer["subject"])
            cn = next(value for rdn in subject for key, value in rdn if key == "commonName")
            self.reply(200, {"message": "Logged in successfully", "uid": 7, "token": f"cert-{cn}", "admin": False})

        def do_GET(self) -> None:
            seen.append(self.headers.get("authorization", ""))
            self.reply(200, {"uptime": 1, "health": "green", "version": "1", "hostName": "gw"})

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(server_cert, server_key)
    context.verify_mode = ssl.CERT_OPTIONAL
    context.load_verify_locations(client[0])
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"https://127.0.0.1:{httpd.server_address[1]}", server_cert, client
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert seen == ["cert-alice"], "after the login, the token is sent"


def test_login_with_certificate(tls_gateway: tuple[str, str, tuple[str, str]]) -> None:
    url, ca, client_cert = tls_gateway
    with Client(url, cert=client_cert, verify=ca) as client:
        result = client.login_with_certificate()
        assert result.token == "cert-alice" and client.token == "cert-alice" and result.uid == 7
        client.get_httpx_client().get("/edge/ping")

    with Client(url, verify=ca) as anonymous, pytest.raises(UnauthorizedError):
        anonymous.login_with_certificate()
