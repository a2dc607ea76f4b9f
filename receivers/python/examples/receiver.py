"""A complete HTTPS receiver on the standard library's http.server: 200 {"verified": "<id>"} for a
verified delivery, 401 {"error": "<code>"} otherwise; each request logged as one JSON line on stdout
(the platform's tests replay and cross-check them).

    WEBHOOK_SECRETS="whsec_... whsec_..." TLS_CERT=cert.pem TLS_KEY=key.pem python examples/receiver.py

CLOCK_OFFSET_SECONDS shifts its clock (tests judge a replay "6 minutes later" this way).
"""
import base64
import json
import os
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from platform_webhooks import WebhookVerificationError, verify

SECRETS = os.environ["WEBHOOK_SECRETS"].split()
SCHEME = os.environ.get("WEBHOOK_SCHEME") or "standard"
OFFSET = int(os.environ.get("CLOCK_OFFSET_SECONDS") or 0)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))  # the raw bytes, unparsed
        try:
            verified = verify(body, self.headers.items(), SECRETS, scheme=SCHEME, now=lambda: time.time() + OFFSET)
            status, answer = 200, {"verified": verified.id}
        except WebhookVerificationError as err:
            status, answer = 401, {"error": err.code.value}
        payload = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)
        line = {"status": status, "headers": {k.lower(): v for k, v in self.headers.items()}, "body_base64": base64.b64encode(body).decode()}
        print(json.dumps(line), flush=True)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT") or 0)), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.environ["TLS_CERT"], os.environ["TLS_KEY"])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
