"""FastAPI: `await request.body()` is the raw body; do not declare a pydantic body parameter."""
import os

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from platform_webhooks import WebhookVerificationError, verify

app = FastAPI()
SECRETS = [os.environ["WEBHOOK_SECRET"]]


@app.post("/webhooks")
async def webhooks(request: Request):
    try:
        verified = verify(await request.body(), request.headers, SECRETS)
    except WebhookVerificationError as err:
        return JSONResponse({"error": err.code.value}, status_code=401)
    print("received", verified.event["type"])  # de-duplicate on verified.id
    return Response(status_code=204)
