"""Django: request.body is the raw body; request.headers is case-insensitive. Exempt the view from CSRF."""
import os

from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from platform_webhooks import WebhookVerificationError, verify

SECRETS = [os.environ["WEBHOOK_SECRET"]]


@csrf_exempt
@require_POST
def webhooks(request):
    try:
        verified = verify(request.body, request.headers, SECRETS)
    except WebhookVerificationError as err:
        return JsonResponse({"error": err.code.value}, status=401)
    print("received", verified.event["type"])  # de-duplicate on verified.id
    return HttpResponse(status=204)
