"""Every case of ../test-vectors.json (made by the platform's own signing code)."""

import json
import pathlib
import time

import pytest

from platform_webhooks import ErrorCode, WebhookVerificationError, verify

VECTORS = json.loads((pathlib.Path(__file__).parent.parent.parent / "test-vectors.json").read_text("utf-8"))["vectors"]


def outcome(vector):
    try:
        verified = verify(
            vector["body"].encode("utf-8"),
            vector["headers"],
            vector["secrets"],
            scheme=vector["scheme"],
            now=lambda: vector["now"],
            tolerance_seconds=vector.get("tolerance_seconds", 300),
            check_body=vector.get("check_body", True),
        )
        return {"valid": True, "event_id": verified.event["id"] if verified.event else None}
    except WebhookVerificationError as err:
        return {"valid": False, "error": err.code.value}


def test_there_are_vectors():
    assert len(VECTORS) > 50


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(vector):
    assert outcome(vector) == vector["expected"]


def test_system_clock_by_default_refuses_an_old_delivery():
    vector = next(v for v in VECTORS if v["name"] == "a delivery verifies (standard)")
    with pytest.raises(WebhookVerificationError) as err:
        verify(vector["body"], vector["headers"], vector["secrets"])
    assert err.value.code == ErrorCode.TIMESTAMP_TOO_OLD
    assert time.time() > vector["now"] + 300


def test_headers_as_a_list_of_pairs():
    vector = next(v for v in VECTORS if v["name"] == "a delivery verifies (standard)")
    verified = verify(vector["body"], list(vector["headers"].items()), vector["secrets"], now=lambda: vector["now"])
    assert verified.id == "1234"


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_from_a_broker_message(vector):
    # A Kafka message's headers: a list of (name, bytes) pairs; a RabbitMQ or SQS message's: a mapping of strings.
    as_message = dict(vector, headers=[(name, value.encode("utf-8")) for name, value in vector["headers"].items()])
    assert outcome(as_message) == vector["expected"]


def test_parsed_json_is_refused():
    with pytest.raises(TypeError):
        verify({"id": 1}, {}, "whsec_AAAA")


def test_no_secret_is_refused():
    with pytest.raises(ValueError):
        verify(b"{}", {}, [])
