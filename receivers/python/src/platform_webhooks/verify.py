"""The checks, in order: headers present and well formed, timestamp within the tolerance,
a signature that matches one of the secrets (constant-time), the headers' id/type/timestamp
equal to the body's. Same checks and error codes as the TypeScript and Go libraries."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

DEFAULT_TOLERANCE_SECONDS = 300
_SECRET_PREFIX = "whsec_"
_TIMESTAMP = re.compile(r"^[0-9]{1,15}$")
_SPEC_SIGNATURE = re.compile(r"^sha256=([0-9a-f]{64})$")
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)={0,2}$")


class ErrorCode(str, Enum):
    MISSING_HEADER = "missing_header"
    MALFORMED_HEADER = "malformed_header"
    TIMESTAMP_TOO_OLD = "timestamp_too_old"
    TIMESTAMP_TOO_NEW = "timestamp_too_new"
    NO_MATCHING_SIGNATURE = "no_matching_signature"
    HEADER_BODY_MISMATCH = "header_body_mismatch"
    MALFORMED_BODY = "malformed_body"


class WebhookVerificationError(Exception):
    """A delivery that must be refused (answer 401); `code` says which check failed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class VerifiedWebhook:
    scheme: str
    #: The event id from the verified header; de-duplicate on it (the same on every retry).
    id: str
    #: The parsed body {id, type, data, timestamp}; None when check_body is False.
    event: Optional[dict]


HeadersLike = Union[Mapping[str, str], Iterable]


def _fail(code: ErrorCode, message: str):
    raise WebhookVerificationError(code, message)


def _header(headers: Any, name: str) -> Optional[str]:
    lower = name.lower()
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items:
        if key.lower() == lower:
            # A broker message's header values may be bytes (Kafka's), which are UTF-8 text.
            return value.decode("utf-8") if isinstance(value, (bytes, bytearray)) else value
    return None


def _required(headers: Any, name: str) -> str:
    value = _header(headers, name)
    if value is None:
        _fail(ErrorCode.MISSING_HEADER, f"missing {name} header")
    return value


def _decode_base64(text: str) -> Optional[bytes]:
    """Standard base64 or base64url (secrets made before standard base64), padding optional."""
    if not _BASE64.match(text) or len(text.rstrip("=")) % 4 == 1:
        return None
    stripped = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(stripped.replace("+", "-").replace("/", "_") + "=" * (-len(stripped) % 4))
    except (binascii.Error, ValueError):
        return None


def standard_key(secret: str) -> bytes:
    key = _decode_base64(secret[len(_SECRET_PREFIX):] if secret.startswith(_SECRET_PREFIX) else secret)
    if not key:
        raise ValueError("a signing secret must be whsec_ followed by base64")
    return key


def _check_time(timestamp: int, tolerance: int, now: int, stale: bool) -> None:
    if stale and now - timestamp > tolerance:
        _fail(ErrorCode.TIMESTAMP_TOO_OLD, f"timestamp is more than {tolerance} s old (a replay?)")
    if timestamp - now > tolerance:
        _fail(ErrorCode.TIMESTAMP_TOO_NEW, f"timestamp is more than {tolerance} s in the future")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_body(headers: Any, body: bytes, scheme: str, id_: str, check_body: bool) -> VerifiedWebhook:
    if not check_body:
        return VerifiedWebhook(scheme, id_, None)
    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        _fail(ErrorCode.MALFORMED_BODY, "the body is not UTF-8 JSON")
    if not isinstance(event, dict) or not _is_int(event.get("id")) or not isinstance(event.get("type"), str) or not _is_int(event.get("timestamp")):
        _fail(ErrorCode.MALFORMED_BODY, "the body is not a platform event {id, type, data, timestamp}")
    for name, value in (
        ("webhook-id" if scheme == "standard" else "X-Webhook-ID", str(event["id"])),
        ("X-Webhook-ID", str(event["id"])),
        ("X-Webhook-Type", event["type"]),
        ("X-Webhook-Timestamp", str(event["timestamp"])),
    ):
        header = _header(headers, name)
        if header is not None and header != value:
            _fail(ErrorCode.HEADER_BODY_MISMATCH, f"{name} does not match the body")
    return VerifiedWebhook(scheme, id_, event)


def verify(
    raw_body: Union[bytes, bytearray, memoryview, str],
    headers: HeadersLike,
    secrets: Union[str, Sequence[str]],
    *,
    scheme: str = "standard",
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[Callable[[], float]] = None,
    check_body: bool = True,
) -> VerifiedWebhook:
    """Verify one delivery from its raw body bytes and headers (any mapping or list of pairs, names in any case).

    Raises WebhookVerificationError (its `code` says which check failed) or returns the verified id and event.
    `scheme`: "standard" (webhook-id/-timestamp/-signature; resists replay) or "spec" (X-Webhook-Signature).
    """
    if isinstance(raw_body, str):
        body = raw_body.encode("utf-8")
    elif isinstance(raw_body, (bytes, bytearray, memoryview)):
        body = bytes(raw_body)
    else:
        raise TypeError("the raw body must be bytes or str (not parsed JSON)")
    secret_list = [secrets] if isinstance(secrets, str) else list(secrets)
    if not secret_list or any(not isinstance(s, str) or not s for s in secret_list):
        raise ValueError("at least one non-empty secret is needed")
    clock = int(now() if now else time.time())

    if scheme == "spec":
        id_ = _required(headers, "X-Webhook-ID")
        _required(headers, "X-Webhook-Type")
        timestamp = _required(headers, "X-Webhook-Timestamp")
        match = _SPEC_SIGNATURE.match(_required(headers, "X-Webhook-Signature"))
        if not match:
            _fail(ErrorCode.MALFORMED_HEADER, "X-Webhook-Signature is not sha256=<64 lowercase hex digits>")
        if not _TIMESTAMP.match(timestamp):
            _fail(ErrorCode.MALFORMED_HEADER, "X-Webhook-Timestamp is not Unix seconds")
        # The event's own time, the same on every retry: only a future one is refused.
        _check_time(int(timestamp), tolerance_seconds, clock, stale=False)
        received = bytes.fromhex(match.group(1))
        matched = False
        for secret in secret_list:
            expected = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()
            matched = hmac.compare_digest(expected, received) or matched
    elif scheme == "standard":
        id_ = _required(headers, "webhook-id")
        timestamp = _required(headers, "webhook-timestamp")
        header = _required(headers, "webhook-signature")
        if not _TIMESTAMP.match(timestamp):
            _fail(ErrorCode.MALFORMED_HEADER, "webhook-timestamp is not Unix seconds")
        entries = [e for e in header.split(" ") if e]
        if not entries or any("," not in e for e in entries):
            _fail(ErrorCode.MALFORMED_HEADER, 'webhook-signature is not space-separated "v1,<base64>" entries')
        _check_time(int(timestamp), tolerance_seconds, clock, stale=True)
        signatures = [s for s in (_decode_base64(e[3:]) for e in entries if e.startswith("v1,")) if s is not None and len(s) == 32]
        message = f"{id_}.{timestamp}.".encode("utf-8") + body
        matched = False
        for secret in secret_list:
            expected = hmac.new(standard_key(secret), message, hashlib.sha256).digest()
            for signature in signatures:
                matched = hmac.compare_digest(expected, signature) or matched
    else:
        raise ValueError('scheme must be "standard" or "spec"')
    if not matched:
        _fail(ErrorCode.NO_MATCHING_SIGNATURE, "no signature matches any of the secrets")
    return _check_body(headers, body, scheme, id_, check_body)
