"""Checks deliveries with the official `standardwebhooks` package (PyPI), the oracle of the
platform's tests: reads [{"secret", "headers", "body_base64"}] on stdin, prints one result each."""
import base64
import json
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

results = []
for item in json.load(sys.stdin):
    try:
        Webhook(item["secret"]).verify(base64.b64decode(item["body_base64"]), item["headers"])
        results.append("valid")
    except WebhookVerificationError as err:
        results.append(f"refused: {err}")
print(json.dumps(results))
