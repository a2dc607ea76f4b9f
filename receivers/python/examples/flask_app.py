"""Flask: request.get_data() is the raw body; never request.get_json() before verifying."""
import os

from flask import Flask, jsonify, request

from platform_webhooks import WebhookVerificationError, verify

app = Flask(__name__)
SECRETS = [os.environ["WEBHOOK_SECRET"]]


@app.post("/webhooks")
def webhooks():
    try:
        verified = verify(request.get_data(), request.headers, SECRETS)
    except WebhookVerificationError as err:
        return jsonify(error=err.code.value), 401
    print("received", verified.event["type"])  # de-duplicate on verified.id
    return "", 204
