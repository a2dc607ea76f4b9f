"""The platform's senders' SDK: send webhook events, manage endpoints, tenants, portal sessions and event types, read deliveries.

    import os
    from platform_sdk import Client
    client = Client(os.environ.get("PLATFORM_URL", "http://127.0.0.1:3000"), "svc_live_weh_...")  # or a portal session's whpt_ token
    event = client.events.send("order.created", {"order": "ord_1"})
"""
from .client import AsyncClient, Client
from .errors import ErrorCode, PlatformError
from .generated.models import DeliveryStatus, EventStatus
from .retry import MAX_RETRIES, retry_delay

__all__ = ["AsyncClient", "Client", "DeliveryStatus", "ErrorCode", "EventStatus", "PlatformError", "MAX_RETRIES", "retry_delay"]
