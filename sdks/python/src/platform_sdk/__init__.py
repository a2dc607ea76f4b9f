"""The platform's senders' SDK: send webhook events, manage endpoints, read deliveries.

    from platform_sdk import Client
    client = Client("http://localhost:3000", "svc_live_...")
    event = client.events.send("order.created", {"order": "ord_1"})
"""
from .client import AsyncClient, Client
from .errors import ErrorCode, PlatformError
from .retry import MAX_RETRIES, retry_delay

__all__ = ["AsyncClient", "Client", "ErrorCode", "PlatformError", "MAX_RETRIES", "retry_delay"]
