"""Calls one generated operation with the retry policy (retry.py): an answer whose PlatformError is retryable is
retried after the spec's wait; a network error or time-out is retried only for calls that are safe to repeat (reads,
and sends, whose idempotency key makes a repeat return the original). Any other non-2xx answer raises PlatformError.

The generated operation builds the request (`_get_kwargs`) and parses a success (`_parse_response`); an error
body is read here, so that a code newer than the generated enum, or a body that is not JSON, still makes a
PlatformError rather than a parsing failure."""
import asyncio
import math
import random as random_module
import time
from typing import Any, Awaitable, Callable

import httpx

from .errors import PlatformError
from .retry import MAX_RETRIES, Waits, retry_after_seconds


def _wait_after(response: httpx.Response, waits: Waits) -> float:
    """The wait before retrying an error answer; its PlatformError is raised when it is not to be retried."""
    error = PlatformError.from_response(response.status_code, response.content, response.headers)
    delay = waits.next(retry_after_seconds(response.headers)) if error.retryable else None
    if delay is None:
        raise error
    return delay


class SyncCaller:
    def __init__(self, client: Any, max_retries: int = MAX_RETRIES, sleep: Callable[[float], None] = time.sleep,
                 random: Callable[[], float] = random_module.random, max_retry_wait: float = math.inf):
        self.client = client
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.sleep = sleep
        self.random = random

    def __call__(self, operation: Any, *args: Any, safe_to_repeat: bool = False, **kwargs: Any) -> Any:
        waits = Waits(self.max_retries, self.max_retry_wait, self.random)
        while True:
            try:
                response = self.client.get_httpx_client().request(**operation._get_kwargs(*args, **kwargs))
            except httpx.TransportError:
                delay = waits.next(None) if safe_to_repeat else None
                if delay is None:
                    raise
                self.sleep(delay)
                continue
            if 200 <= response.status_code < 300:
                return operation._parse_response(client=self.client, response=response)
            self.sleep(_wait_after(response, waits))


class AsyncCaller:
    def __init__(self, client: Any, max_retries: int = MAX_RETRIES, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 random: Callable[[], float] = random_module.random, max_retry_wait: float = math.inf):
        self.client = client
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.sleep = sleep
        self.random = random

    async def __call__(self, operation: Any, *args: Any, safe_to_repeat: bool = False, **kwargs: Any) -> Any:
        waits = Waits(self.max_retries, self.max_retry_wait, self.random)
        while True:
            try:
                response = await self.client.get_async_httpx_client().request(**operation._get_kwargs(*args, **kwargs))
            except httpx.TransportError:
                delay = waits.next(None) if safe_to_repeat else None
                if delay is None:
                    raise
                await self.sleep(delay)
                continue
            if 200 <= response.status_code < 300:
                return operation._parse_response(client=self.client, response=response)
            await self.sleep(_wait_after(response, waits))
