"""The spec's advice on 429 (and the 503 `overloaded` shed): wait Retry-After seconds, doubled on each retry,
plus a random jitter of up to 500 ms, at most 5 retries; and, when the caller sets one, at most
`max_retry_wait` seconds of waiting in all. Which answers are retried is PlatformError.retryable."""
from typing import Callable, Mapping, Optional

MAX_RETRIES = 5
MAX_JITTER_SECONDS = 0.5
# The wait when the answer says nothing (no Retry-After, or no answer at all: a time-out).
DEFAULT_RETRY_AFTER_SECONDS = 1.0


def retry_after_seconds(headers: Mapping[str, str]) -> Optional[float]:
    """Retry-After as seconds, or None when absent or not a number of seconds."""
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def retry_delay(retry: int, retry_after: Optional[float], random: Callable[[], float]) -> float:
    """Seconds to wait before retry number `retry` (0 for the first retry)."""
    base = DEFAULT_RETRY_AFTER_SECONDS if retry_after is None else retry_after
    return base * 2**retry + random() * MAX_JITTER_SECONDS


class Waits:
    """The waits of one call, in turn: `next` is the wait before the next retry, or None when `max_retries` or
    `max_retry_wait` (seconds of waiting in all) says to give up."""

    def __init__(self, max_retries: int, max_retry_wait: float, random: Callable[[], float]):
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.random = random
        self.retry = 0
        self.waited = 0.0

    def next(self, retry_after: Optional[float]) -> Optional[float]:
        delay = retry_delay(self.retry, retry_after, self.random)
        if self.retry >= self.max_retries or self.waited + delay > self.max_retry_wait:
            return None
        self.retry += 1
        self.waited += delay
        return delay
