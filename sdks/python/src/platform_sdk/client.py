"""Client (sync) and AsyncClient: the platform's API with an API key or a portal session's token, over the generated client."""
import asyncio
import math
import random as random_module
import time
from typing import Any, Awaitable, Callable, Dict, Optional

import httpx

from .generated import AuthenticatedClient
from .resources import (
    AsyncEndpoints,
    AsyncEvents,
    AsyncEventTypes,
    AsyncTenants,
    Deliveries,
    Endpoints,
    Events,
    EventTypes,
    PortalSessions,
    Tenants,
)
from .retry import MAX_RETRIES
from .transport import AsyncCaller, SyncCaller

DEFAULT_TIMEOUT_SECONDS = 30.0


def _generated_client(base_url: str, api_key: str, timeout: float, httpx_args: Optional[Dict[str, Any]]) -> AuthenticatedClient:
    return AuthenticatedClient(
        base_url=base_url.rstrip("/"),
        token=api_key,
        timeout=httpx.Timeout(timeout),
        httpx_args=dict(httpx_args or {}),
    )


class Client:
    """`Client("https://platform.example", "svc_live_weh_...")`, or with a portal session's `whpt_...` token (portal_sessions.create),
    which sees and changes only its tenant's records; `max_retries` bounds the retries of one call (the spec's 5),
    `max_retry_wait` its seconds of waiting between tries in all (no bound unless set; five waits are 31 × Retry-After,
    15.5 minutes at a 503's longest, 31 at a 429's), `sleep` and `random` are the waits' clock and jitter
    (injected by tests), `httpx_args` go to httpx.Client (e.g. `{"verify": "ca.pem"}` or a `transport`)."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float = DEFAULT_TIMEOUT_SECONDS, max_retries: int = MAX_RETRIES,
                 max_retry_wait: float = math.inf, sleep: Callable[[float], None] = time.sleep, random: Callable[[], float] = random_module.random,
                 httpx_args: Optional[Dict[str, Any]] = None):
        self.generated = _generated_client(base_url, api_key, timeout, httpx_args)
        call = SyncCaller(self.generated, max_retries, sleep, random, max_retry_wait)
        self.events = Events(call)
        self.endpoints = Endpoints(call)
        self.deliveries = Deliveries(call)
        self.event_types = EventTypes(call)
        self.tenants = Tenants(call)
        self.portal_sessions = PortalSessions(call)

    def close(self) -> None:
        self.generated.get_httpx_client().close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncClient:
    """The same as Client with `await` (and `async for` over the list() methods)."""

    def __init__(self, base_url: str, api_key: str, *, timeout: float = DEFAULT_TIMEOUT_SECONDS, max_retries: int = MAX_RETRIES,
                 max_retry_wait: float = math.inf, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, random: Callable[[], float] = random_module.random,
                 httpx_args: Optional[Dict[str, Any]] = None):
        self.generated = _generated_client(base_url, api_key, timeout, httpx_args)
        call = AsyncCaller(self.generated, max_retries, sleep, random, max_retry_wait)
        self.events = AsyncEvents(call)
        self.endpoints = AsyncEndpoints(call)
        self.deliveries = Deliveries(call)
        self.event_types = AsyncEventTypes(call)
        self.tenants = AsyncTenants(call)
        self.portal_sessions = PortalSessions(call)

    async def aclose(self) -> None:
        await self.generated.get_async_httpx_client().aclose()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
