"""Scenarios against a real platform (test/integration/sdk-python.test.ts starts one and sets the environment):
PLATFORM_URL, PLATFORM_API_KEY (an unlimited account), PLATFORM_FREE_API_KEY (a Free-tier account, for the 429),
TLS_CERT and TLS_KEY (the certificate the platform trusts, served by the receiver of the end-to-end test)."""
import json
import os
import ssl
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from platform_sdk import AsyncClient, Client, DeliveryStatus, ErrorCode, PlatformError

pytestmark = pytest.mark.skipif("PLATFORM_URL" not in os.environ, reason="needs a platform: run test/integration/sdk-python.test.ts")

PLACEHOLDER_URL = "https://127.0.0.1:9/hook"


def unique(prefix):
    return f"{prefix}.{uuid.uuid4().hex[:12]}"


def eventually(check, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(0.2)


@pytest.fixture
def client():
    with Client(os.environ["PLATFORM_URL"], os.environ["PLATFORM_API_KEY"]) as c:
        yield c


class Receiver:
    """An HTTPS receiver written with the Python receiver library (receivers/python): 200 for a verified delivery, 401 otherwise."""

    def __init__(self):
        from platform_webhooks import WebhookVerificationError, verify

        self.secrets = []
        self.verified = []
        self.refused = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    delivery = verify(body, self.headers.items(), receiver.secrets)
                    receiver.verified.append(delivery)
                    status = 200
                except WebhookVerificationError as err:
                    receiver.refused.append(err.code)
                    status = 401
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.environ["TLS_CERT"], os.environ["TLS_KEY"])
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def test_register_an_endpoint_then_read_update_list_and_delete_it(client):
    created = client.endpoints.create(PLACEHOLDER_URL, events=["order.created"])
    assert created.secret.startswith("whsec_")
    assert client.endpoints.get(created.id).url == PLACEHOLDER_URL
    updated = client.endpoints.update(created.id, events=["order.created", "order.paid"])
    assert updated.events == ["order.created", "order.paid"]
    assert created.id in [e.id for e in client.endpoints.list(page_size=1)]
    client.endpoints.delete(created.id)
    with pytest.raises(PlatformError) as raised:
        client.endpoints.get(created.id)
    assert (raised.value.status, raised.value.code) == (404, ErrorCode.NOT_FOUND)


def test_recover_takes_an_aware_datetime_and_refuses_a_naive_one_before_sending(client):
    endpoint = client.endpoints.create(PLACEHOLDER_URL, events=["order.created"])
    recovery = client.endpoints.recover(endpoint.id, since=datetime.now(timezone.utc) - timedelta(hours=1))
    assert (recovery.endpoint_id, recovery.count) == (endpoint.id, 0)
    with pytest.raises(ValueError, match="since needs a time zone"):
        client.endpoints.recover(endpoint.id, since=datetime.now() - timedelta(hours=1))
    client.endpoints.delete(endpoint.id)


def test_register_a_rabbitmq_endpoint_then_read_it_back_without_its_credentials(client):
    username, password = unique("sdk-py-user"), unique("sdk-py-password")
    # No broker listens there: registration checks the destination's rules and host (the test platform allows
    # private networks), not the broker.
    destination = {
        "type": "rabbitmq",
        "config": {"uri": "amqps://127.0.0.1:5671/prod", "exchange": "webhooks"},
        "credentials": {"username": username, "password": password},
    }
    created = client.endpoints.create(destination=destination, events=["order.created"])
    try:
        got = client.endpoints.get(created.id)
        assert got.url is None
        assert got.destination.type_ == "rabbitmq"
        assert got.destination.config.to_dict() == {"uri": "amqps://127.0.0.1:5671/prod", "exchange": "webhooks", "routing_key": ""}
        assert got.destination.credentials_set == ["password", "username"]
        for answer in (created, got):
            text = json.dumps(answer.to_dict(), default=str)
            assert password not in text and username not in text
    finally:
        client.endpoints.delete(created.id)


def test_register_an_event_type_with_a_schema_then_a_send_that_does_not_match_it_is_refused(client):
    name = unique("invoice.paid")
    schema = {"type": "object", "properties": {"amount": {"type": "integer", "minimum": 0}}, "required": ["amount"]}
    created = client.event_types.create(name, description="An invoice was paid.", schema=schema, example={"amount": 5})
    assert (created.name, created.schema.to_dict(), created.example.to_dict()) == (name, schema, {"amount": 5})
    with pytest.raises(PlatformError) as raised:
        client.event_types.create(name)
    assert (raised.value.status, raised.value.code) == (409, ErrorCode.EVENT_TYPE_EXISTS)

    with pytest.raises(PlatformError) as raised:
        client.events.send(name, {"amount": -1})
    assert (raised.value.status, raised.value.code) == (422, ErrorCode.SCHEMA_MISMATCH)
    assert [d["path"] for d in raised.value.details] == ["data.amount"]
    assert client.events.send(name, {"amount": 1}).type_ == name

    assert client.event_types.get(name).description == "An invoice was paid."
    assert name in [t.name for t in client.event_types.list(page_size=1)]
    changed = client.event_types.update(name, schema=None, example=None)
    assert (changed.description, changed.schema, changed.example) == ("An invoice was paid.", None, None)
    assert client.events.send(name, {"amount": -1}).type_ == name
    client.event_types.delete(name)
    with pytest.raises(PlatformError) as raised:
        client.event_types.get(name)
    assert (raised.value.status, raised.value.code) == (404, ErrorCode.NOT_FOUND)


def quiet_endpoint(client, tenant_id):
    """An endpoint of tenant_id subscribed to a type no event here has: a tenant to count, list and scope, with no delivery made."""
    return client.endpoints.create("https://example.com/hooks/tenant", events=[unique("quiet")], tenant_id=tenant_id)


def test_an_event_sent_for_tenant_a_reaches_a_s_endpoint_only_not_tenant_b_s(client, receiver):
    tenant_a, tenant_b, kind = unique("cus_a"), unique("cus_b"), unique("invoice.paid")
    endpoint_a = client.endpoints.create(receiver.url, events=[kind], tenant_id=tenant_a)
    endpoint_b = client.endpoints.create(receiver.url, events=[kind], tenant_id=tenant_b)
    receiver.secrets += [endpoint_a.secret, endpoint_b.secret]
    assert (endpoint_a.tenant_id, endpoint_b.tenant_id) == (tenant_a, tenant_b)

    sent = client.events.send(kind, {"invoice": "inv_a"}, tenant_id=tenant_a)
    assert (sent.tenant_id, sent.destinations) == (tenant_a, 1)

    def delivered():
        deliveries = client.events.get(sent.id).deliveries
        return deliveries if deliveries and all(d.status == "succeeded" for d in deliveries) else None

    assert [d.endpoint_id for d in eventually(delivered)] == [endpoint_a.id]
    assert [v.id for v in receiver.verified if v.id == str(sent.id)] == [str(sent.id)]
    assert [e.id for e in client.events.list(type=kind, tenant_id=tenant_a)] == [sent.id]
    assert [e.id for e in client.events.list(type=kind, tenant_id=tenant_b)] == []
    client.tenants.delete(tenant_a)
    client.tenants.delete(tenant_b)


def test_tenants_are_listed_with_their_endpoint_counts_and_a_tenant_s_endpoints(client):
    tenant_a, tenant_b = unique("cus_a"), unique("cus_b")
    a1, a2 = quiet_endpoint(client, tenant_a), quiet_endpoint(client, tenant_a)
    quiet_endpoint(client, tenant_b)
    counts = {t.tenant_id: t.endpoint_count for t in client.tenants.list(page_size=1)}
    assert (counts.get(tenant_a), counts.get(tenant_b)) == (2, 1)
    assert sorted(e.id for e in client.endpoints.list(tenant_id=tenant_a)) == sorted([a1.id, a2.id])
    client.tenants.delete(tenant_a)
    client.tenants.delete(tenant_b)


def test_deleting_a_tenant_deletes_its_endpoints_and_another_tenant_s_stay(client):
    tenant_a, tenant_b = unique("cus_a"), unique("cus_b")
    endpoint_a, endpoint_b = quiet_endpoint(client, tenant_a), quiet_endpoint(client, tenant_b)
    client.tenants.delete(tenant_a)
    with pytest.raises(PlatformError) as raised:
        client.endpoints.get(endpoint_a.id)
    assert raised.value.status == 404
    assert client.endpoints.get(endpoint_b.id).tenant_id == tenant_b
    tenants = [t.tenant_id for t in client.tenants.list()]
    assert tenant_a not in tenants and tenant_b in tenants
    with pytest.raises(PlatformError) as raised:
        client.tenants.delete(tenant_a)
    assert (raised.value.status, raised.value.code) == (404, ErrorCode.NOT_FOUND)
    client.tenants.delete(tenant_b)


def test_an_endpoint_moves_to_another_tenant_then_back_to_the_account(client):
    tenant_a, tenant_b = unique("cus_a"), unique("cus_b")
    endpoint = quiet_endpoint(client, tenant_a)
    assert client.endpoints.update(endpoint.id, tenant_id=tenant_b).tenant_id == tenant_b
    assert client.endpoints.update(endpoint.id, tenant_id=None).tenant_id is None
    client.endpoints.delete(endpoint.id)


def test_a_portal_session_s_token_as_the_client_s_key_sees_and_changes_only_its_tenant_s_records(client):
    tenant_a, tenant_b = unique("cus_a"), unique("cus_b")
    endpoint_a, endpoint_b = quiet_endpoint(client, tenant_a), quiet_endpoint(client, tenant_b)
    session = client.portal_sessions.create(tenant_a, expires_in_seconds=600)
    assert session.token.startswith("whpt_") and (session.tenant_id, session.read_only) == (tenant_a, False)
    with Client(os.environ["PLATFORM_URL"], session.token) as portal:
        made = portal.endpoints.create("https://example.com/hooks/portal", events=[unique("quiet")])
        assert made.tenant_id == tenant_a
        assert sorted(e.id for e in portal.endpoints.list()) == sorted([made.id, endpoint_a.id])
        with pytest.raises(PlatformError) as raised:
            portal.endpoints.get(endpoint_b.id)
        assert (raised.value.status, raised.value.code) == (404, ErrorCode.NOT_FOUND)
    client.tenants.delete(tenant_a)
    client.tenants.delete(tenant_b)


def test_a_read_only_session_s_token_reads_and_a_change_raises_platform_error_403_portal_read_only(client):
    tenant = unique("cus_a")
    endpoint = quiet_endpoint(client, tenant)
    session = client.portal_sessions.create(tenant, read_only=True)
    with Client(os.environ["PLATFORM_URL"], session.token) as read_only:
        assert read_only.endpoints.get(endpoint.id).id == endpoint.id
        with pytest.raises(PlatformError) as raised:
            read_only.endpoints.update(endpoint.id, events=["changed"])
        assert (raised.value.status, raised.value.code) == (403, ErrorCode.PORTAL_READ_ONLY)
    assert client.endpoints.get(endpoint.id).events == endpoint.events
    client.tenants.delete(tenant)


def test_revoking_every_session_ends_a_token_at_once(client):
    tenant = unique("cus_a")
    endpoint = quiet_endpoint(client, tenant)
    with Client(os.environ["PLATFORM_URL"], client.portal_sessions.create(tenant).token) as portal:
        assert portal.endpoints.get(endpoint.id).id == endpoint.id
        assert client.portal_sessions.revoke_all() >= 1
        with pytest.raises(PlatformError) as raised:
            portal.endpoints.get(endpoint.id)
        assert (raised.value.status, raised.value.code) == (401, ErrorCode.INVALID_PORTAL_TOKEN)
    client.tenants.delete(tenant)


def test_the_async_client_lists_tenants_and_revokes_sessions(client):
    import asyncio

    tenant = unique("cus_a")
    quiet_endpoint(client, tenant)
    client.portal_sessions.create(tenant)

    async def main():
        async with AsyncClient(os.environ["PLATFORM_URL"], os.environ["PLATFORM_API_KEY"]) as account:
            counts = {t.tenant_id: t.endpoint_count async for t in account.tenants.list(page_size=1)}
            return counts.get(tenant), await account.portal_sessions.revoke_all()

    count, revoked = asyncio.run(main())
    assert count == 1 and revoked >= 1
    client.tenants.delete(tenant)


def test_send_events(client):
    kind = unique("order.created")
    first = client.events.send(kind, {"order": "ord_1", "total": 12.5})
    second = client.events.send(kind, {"order": "ord_2"})
    assert first.id != second.id and first.type_ == kind  # `type` is spelled `type_` by the generator
    assert client.events.get(first.id).data.to_dict() == {"order": "ord_1", "total": 12.5}


def test_a_repeated_idempotency_key_returns_the_original_event(client):
    key = unique("key")
    first = client.events.send("order.created", {"n": 1}, idempotency_key=key)
    again = client.events.send("order.created", {"n": 1}, idempotency_key=key)
    assert again.id == first.id


class AnswerLostOnce(httpx.BaseTransport):
    """Lets the first send reach the platform, then loses its answer (a time-out): the platform stored the event, the caller cannot know."""

    def __init__(self):
        self.inner = httpx.HTTPTransport()
        self.sends = 0

    def handle_request(self, request):
        response = self.inner.handle_request(request)
        if request.method == "POST" and request.url.path == "/api/v1/webhooks/events":
            self.sends += 1
            if self.sends == 1:
                response.read()
                raise httpx.ReadTimeout("the answer was lost", request=request)
        return response

    def close(self):
        self.inner.close()


def test_a_send_retried_after_a_time_out_results_in_one_event(client):
    kind = unique("order.created")
    waits = []
    transport = AnswerLostOnce()
    with Client(os.environ["PLATFORM_URL"], os.environ["PLATFORM_API_KEY"], sleep=waits.append, httpx_args={"transport": transport}) as lossy:
        event = lossy.events.send(kind, {"order": "ord_1"})
    assert transport.sends == 2 and len(waits) == 1
    assert [e.id for e in client.events.list(type=kind)] == [event.id]


def test_page_through_events(client):
    kind = unique("page.test")
    sent = [client.events.send(kind, {"i": i}).id for i in range(5)]
    pages = []
    listed = []
    cursor = None
    while True:
        page = client.events.page(cursor, limit=2, type=kind)
        pages.append(page)
        listed += [e.id for e in page.data]
        cursor = page.next_cursor
        if not cursor:
            break
    assert len(pages) == 3
    assert sorted(listed) == sorted(sent)
    assert [e.id for e in client.events.list(type=kind, page_size=2)] == listed


def test_read_a_delivery(client, receiver):
    endpoint = client.endpoints.create(receiver.url, events=["delivery.read"])
    receiver.secrets.append(endpoint.secret)
    event = client.events.send("delivery.read", {"order": "ord_9"})

    def delivered():
        deliveries = client.events.get(event.id).deliveries
        return deliveries if deliveries and deliveries[0].status == "succeeded" else None

    [delivery] = eventually(delivered)
    assert delivery.endpoint_id == endpoint.id
    assert delivery.attempts[0].status_code == 200
    # The models are named after what they are, not after the path that returns them.
    assert (type(delivery).__name__, type(delivery.status).__name__) == ("Delivery", "DeliveryStatus")
    assert delivery.status is DeliveryStatus.SUCCEEDED
    client.endpoints.delete(endpoint.id)


def test_rotate_a_secret(client):
    endpoint = client.endpoints.create(PLACEHOLDER_URL)
    rotated = client.endpoints.rotate_secret(endpoint.id, grace_period_seconds=0)
    assert rotated.startswith("whsec_") and rotated != endpoint.secret
    assert client.endpoints.secret(endpoint.id) == rotated
    client.endpoints.delete(endpoint.id)


def test_a_429_of_the_free_tier_burst_is_waited_out_within_5_retries():
    url, key = os.environ["PLATFORM_URL"], os.environ["PLATFORM_FREE_API_KEY"]
    with Client(url, key, max_retries=0) as impatient:
        for _ in range(100):
            try:
                impatient.events.page(limit=1)
            except PlatformError as err:
                assert (err.status, err.code) == (429, ErrorCode.RATE_LIMIT_EXCEEDED)
                break
        else:
            raise AssertionError("the Free tier's burst never ran out")
    waits = []

    def sleep(seconds):
        waits.append(seconds)
        time.sleep(seconds)

    with Client(url, key, sleep=sleep) as patient:
        event = patient.events.send("order.created", {"tier": "free"})
    assert event.id
    assert 1 <= len(waits) <= 5


def test_end_to_end_a_delivery_sent_with_the_sdk_is_verified_by_the_receiver_library(client, receiver):
    kind = unique("e2e")
    endpoint = client.endpoints.create(receiver.url, events=[kind])
    receiver.secrets.append(endpoint.secret)
    event = client.events.send(kind, {"hello": "Zoë 🚀"})
    eventually(lambda: receiver.verified)
    [verified] = receiver.verified
    assert verified.id == str(event.id)
    assert receiver.refused == []
    client.endpoints.delete(endpoint.id)
