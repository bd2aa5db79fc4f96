"""An SMTP server from aiosmtpd, for the notification service's email tests.

Usage: smtp_server.py PORT [--cert FILE --key FILE] [--user NAME --password PW]

Listens on 127.0.0.1:PORT. With a certificate and key it offers STARTTLS
and requires it before anything else; with a user it offers AUTH (only
after STARTTLS when there is a certificate) and requires it before MAIL.
Prints "READY" once it listens, then one JSON line per message it accepts:
MESSAGE {"from": …, "to": [...], "data": the message, "tls": whether the
session was encrypted, "user": the authenticated login or null}, and one
line AUTHFAIL {"user": …} per refused login.
"""

import argparse
import json
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Handler:
    async def handle_DATA(self, server, session, envelope):
        user = None
        if session.authenticated and isinstance(session.auth_data, LoginPassword):
            user = session.auth_data.login.decode()
        line = {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "data": envelope.content.decode("utf-8", "replace"),
            "tls": session.ssl is not None,
            "user": user,
        }
        print("MESSAGE " + json.dumps(line), flush=True)
        return "250 Message accepted"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("port", type=int)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--user")
    p.add_argument("--password")
    a = p.parse_args()

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == a.user
            and auth_data.password.decode() == a.password
        )
        if not ok:
            login = auth_data.login.decode() if isinstance(auth_data, LoginPassword) else None
            print("AUTHFAIL " + json.dumps({"user": login}), flush=True)
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    kwargs = {}
    if a.cert:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(a.cert, a.key)
        kwargs.update(tls_context=ctx, require_starttls=True)
    if a.user:
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(a.cert))
    controller = Controller(Handler(), hostname="127.0.0.1", port=a.port, **kwargs)
    controller.start()
    print("READY", flush=True)
    threading.Event().wait()  # until killed


if __name__ == "__main__":
    sys.exit(main())
