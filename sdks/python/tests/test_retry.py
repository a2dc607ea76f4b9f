"""The retry policy, with an injected sleep and random (no real waiting) and a mock transport (no network)."""
import json

import httpx
import pytest

from platform_sdk import Client, ErrorCode, PlatformError

EVENT = {"id": 7, "type": "order.created", "timestamp": 1, "idempotency_key": "k", "destinations": 0}


def limited(retry_after="2"):
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    body = {"error": "Rate limit exceeded", "code": "rate_limit_exceeded", "retry_after": 2, "remaining": 0, "request_id": "req_1"}
    return httpx.Response(429, headers=headers, json=body)


def overloaded():
    return httpx.Response(503, headers={"Retry-After": "1"}, json={"error": "Overloaded", "code": "overloaded"})


class Script:
    """Answers the n-th request with answers[n] (the last one repeats), keeping every request."""

    def __init__(self, *answers):
        self.answers = answers
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer() if callable(answer) else answer


def client_for(script, waits, random=lambda: 0.0, **options):
    return Client("http://platform.test", "svc_live_test", sleep=waits.append, random=random,
                  httpx_args={"transport": httpx.MockTransport(script)}, **options)


def keys(script):
    return [json.loads(r.content)["idempotency_key"] for r in script.requests]


def test_a_429_is_retried_after_retry_after_seconds_doubled_on_each_retry():
    script = Script(limited, limited, limited, httpx.Response(202, json=EVENT))
    waits = []
    event = client_for(script, waits).events.send("order.created", {"n": 1})
    assert event.id == 7
    assert waits == [2.0, 4.0, 8.0]


def test_the_jitter_adds_up_to_500_ms_from_the_random_source():
    script = Script(limited, limited, httpx.Response(202, json=EVENT))
    waits = []
    client_for(script, waits, random=lambda: 0.999999).events.send("order.created", {})
    assert waits == pytest.approx([2.5, 4.5], abs=1e-5)
    assert all(w - base <= 0.5 for w, base in zip(waits, [2, 4]))


def test_without_retry_after_the_wait_starts_at_one_second():
    script = Script(lambda: limited(None), lambda: limited(None), httpx.Response(202, json=EVENT))
    waits = []
    client_for(script, waits).events.send("order.created", {})
    assert waits == [1.0, 2.0]


def test_at_most_5_retries_then_the_last_error_is_raised_with_its_code():
    script = Script(limited)
    waits = []
    with pytest.raises(PlatformError) as raised:
        client_for(script, waits).events.send("order.created", {})
    assert len(script.requests) == 6
    assert waits == [2.0, 4.0, 8.0, 16.0, 32.0]
    assert raised.value.status == 429
    assert raised.value.code is ErrorCode.RATE_LIMIT_EXCEEDED
    assert raised.value.request_id == "req_1"
    assert raised.value.retry_after == 2


def test_max_retries_is_an_option():
    script = Script(limited)
    waits = []
    with pytest.raises(PlatformError):
        client_for(script, waits, max_retries=2).events.send("order.created", {})
    assert len(script.requests) == 3


def test_a_retry_whose_wait_would_pass_max_retry_wait_is_not_made_and_the_last_error_is_raised_at_once():
    script = Script(limited)
    waits = []
    with pytest.raises(PlatformError) as raised:
        client_for(script, waits, max_retry_wait=10.0).events.send("order.created", {})
    assert waits == [2.0, 4.0]
    assert len(script.requests) == 3
    assert raised.value.code is ErrorCode.RATE_LIMIT_EXCEEDED


def test_the_waits_after_a_timed_out_send_count_against_max_retry_wait_too():
    script = Script(httpx.ReadTimeout("slow"))
    waits = []
    with pytest.raises(httpx.ReadTimeout):
        client_for(script, waits, max_retry_wait=2.5).events.send("order.created", {})
    assert waits == [1.0]
    assert len(script.requests) == 2


def test_a_spent_monthly_quota_is_not_retried_it_lasts_until_the_next_period():
    body = {"error": "Monthly quota exceeded", "code": "quota_exceeded", "quota_limit": 500, "quota_used": 500,
            "reset_at": "2026-12-01T00:00:00.000Z"}
    script = Script(httpx.Response(429, headers={"Retry-After": "500000"}, json=body))
    waits = []
    with pytest.raises(PlatformError) as raised:
        client_for(script, waits).events.send("order.created", {})
    assert raised.value.code is ErrorCode.QUOTA_EXCEEDED
    assert len(script.requests) == 1
    assert waits == []


def test_a_503_overloaded_shed_is_retried():
    script = Script(overloaded, httpx.Response(202, json=EVENT))
    waits = []
    assert client_for(script, waits).events.send("order.created", {}).id == 7
    assert waits == [1.0]


def test_other_errors_are_not_retried():
    script = Script(httpx.Response(500, json={"error": "boom", "code": "internal_error"}))
    waits = []
    with pytest.raises(PlatformError) as raised:
        client_for(script, waits).events.send("order.created", {})
    assert (len(script.requests), waits, raised.value.code) == (1, [], ErrorCode.INTERNAL_ERROR)


def test_every_retry_of_a_send_carries_the_same_generated_idempotency_key():
    script = Script(limited, overloaded, httpx.ReadTimeout("lost"), httpx.Response(200, json=EVENT))
    client_for(script, []).events.send("order.created", {})
    sent = keys(script)
    assert len(sent) == 4 and len(set(sent)) == 1
    assert len(sent[0]) == 36  # a UUID


def test_two_sends_get_two_different_keys():
    script = Script(httpx.Response(202, json=EVENT))
    client = client_for(script, [])
    client.events.send("a", {})
    client.events.send("a", {})
    assert len(set(keys(script))) == 2


def test_a_given_idempotency_key_is_sent_as_given():
    script = Script(limited, httpx.Response(202, json=EVENT))
    client_for(script, []).events.send("a", {}, idempotency_key="order-1_created")
    assert keys(script) == ["order-1_created", "order-1_created"]


def test_a_send_that_timed_out_is_retried_after_one_second():
    script = Script(httpx.ReadTimeout("lost"), httpx.Response(202, json=EVENT))
    waits = []
    assert client_for(script, waits).events.send("a", {}).id == 7
    assert waits == [1.0]


def test_an_endpoint_creation_that_timed_out_is_not_repeated():
    script = Script(httpx.ReadTimeout("lost"))
    with pytest.raises(httpx.ReadTimeout):
        client_for(script, []).endpoints.create("https://example.com/hook")
    assert len(script.requests) == 1


def test_an_unknown_error_code_is_kept_as_a_string():
    script = Script(httpx.Response(400, json={"error": "new", "code": "some_future_code"}))
    with pytest.raises(PlatformError) as raised:
        client_for(script, []).events.send("a", {})
    assert raised.value.code == "some_future_code"


def test_paging_follows_next_cursor_until_it_is_null():
    def item(i):
        return {**EVENT, "id": i, "data": {}, "status": "pending", "created_at": "2026-01-01T00:00:00Z"}
    pages = {None: {"data": [item(3), item(2)], "next_cursor": "c1"}, "c1": {"data": [item(1)], "next_cursor": None}}
    script = Script(lambda: httpx.Response(200, json=pages[script.requests[-1].url.params.get("cursor")]))
    assert [e.id for e in client_for(script, []).events.list()] == [3, 2, 1]


def test_the_async_client_retries_the_same_way():
    import asyncio
    from platform_sdk import AsyncClient

    script = Script(limited, limited, httpx.Response(202, json=EVENT))
    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    async def main():
        async with AsyncClient("http://platform.test", "k", sleep=sleep, random=lambda: 0.5,
                               httpx_args={"transport": httpx.MockTransport(script)}) as client:
            return await client.events.send("a", {})

    assert asyncio.run(main()).id == 7
    assert waits == [2.25, 4.25]
    assert len(set(keys(script))) == 1
