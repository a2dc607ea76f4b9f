from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_code import ErrorCode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.error_detail import ErrorDetail





T = TypeVar("T", bound="Error")



@_attrs_define
class Error:
    """ 
        Attributes:
            error (str):
            code (ErrorCode): Machine-readable code, one of a closed set:

                | code | status | meaning |
                | --- | --- | --- |
                | `invalid_request` | 400 | The body, query or path parameters are not of the documented shape; `details` says
                where. |
                | `invalid_body` | 400 | The request body could not be read. |
                | `invalid_json` | 400 | The request body is not JSON (Content-Type: application/json), or not valid JSON, or
                not UTF-8. |
                | `json_too_deep` | 400 | The JSON body nests objects and arrays deeper than the documented limit. |
                | `invalid_url` | 400 | The endpoint url is not a string, not an absolute URL, longer than 2,048 characters, or
                with port 0. |
                | `invalid_cursor` | 400 | The `cursor` query parameter is not one this API handed out. |
                | `invalid_event_id` | 400 | The event id in the path is not a positive integer. |
                | `invalid_since` | 400 | Bulk recovery: `since` is in the future or more than 7 days ago (or, in the
                dashboard's form, not a date and time; the API answers a body that is not one with `invalid_request`). |
                | `sign_up_refused` | 400 | Dashboard sign-up could not go through (it does not say whether the email is taken).
                |
                | `invalid_api_key` | 401 | The API key is missing, malformed, sent the wrong way, or unknown. |
                | `revoked_api_key` | 401 | The API key has been revoked. |
                | `invalid_portal_token` | 401 | The portal session token is unknown, expired or revoked. |
                | `invalid_credentials` | 401 | Dashboard sign-in: unknown email or wrong password. |
                | `wrong_product` | 403 | The API key belongs to another product; `error` names the product it is not authorized
                for. |
                | `portal_read_only` | 403 | The portal session is read-only: it may not change anything. |
                | `portal_not_allowed` | 403 | A portal session may call only the endpoint and event paths, for its own tenant's
                records, and read the event types and the portal settings. |
                | `csrf_failed` | 403 | A dashboard form did not come from this site, or has expired. Nothing was changed. |
                | `not_found` | 404 | Unknown path, or a resource that does not exist or belongs to another account. |
                | `method_not_allowed` | 405 | The path exists but not with this method; the `Allow` header lists the methods it
                has. |
                | `invite_unknown` | 404 | The dashboard invite link is not valid. |
                | `invite_used` | 410 | The dashboard invite link has already been used. |
                | `invite_expired` | 410 | The dashboard invite link has expired. |
                | `delivery_in_flight` | 409 | A delivery round to this endpoint is already in flight, or another retry is
                starting it (a round left unstarted by a crash can be retried a minute after it was claimed). |
                | `delivery_not_retryable` | 409 | The delivery succeeded; only failed or cancelled deliveries can be retried. |
                | `delivery_round_limit` | 409 | The delivery has been retried as many times as it may be. |
                | `delivery_not_waiting` | 409 | Retry now: the delivery is not waiting for its next attempt (it has ended, or
                an attempt is in flight). |
                | `delivery_ended` | 409 | Cancel: the delivery has already ended (succeeded, failed or cancelled), or no round
                of it is running. |
                | `endpoint_deleted` | 409 | The endpoint was deleted; its deliveries cannot be retried. |
                | `endpoint_disabled` | 409 | The endpoint is disabled; enable it before retrying or recovering its deliveries.
                |
                | `endpoint_tenant_changed` | 409 | The endpoint now belongs to another tenant than the event (or to none); its
                delivery of the event cannot be retried. |
                | `email_taken` | 409 | An account with this email already exists. |
                | `event_type_exists` | 409 | The account's event-type catalog already has a type of this name; change it with
                PATCH. |
                | `event_type_changed` | 409 | PATCH of an event type: the schema or example it was checked against was changed
                by another call meanwhile. Nothing was changed; read the type and repeat the PATCH. |
                | `payload_too_large` | 413 | The body is over 1 MiB, or the event data over 256 KiB when serialized. |
                | `headers_too_large` | 431 | The request line and headers together are over 16 KiB (a path or query string too
                long, or too many cookies). |
                | `request_timeout` | 408 | The request's headers did not arrive within 60 s, or the whole request within 300 s.
                |
                | `unsupported_media_type` | 415 | The JSON body was labelled with another `Content-Type` (send `Content-Type:
                application/json`), or sent with a `Content-Encoding` (send it uncompressed). |
                | `reserved_event_type` | 422 | Ingest: the event type starts with `platform.`, which only the platform emits
                (operational events). |
                | `unsupported_url_scheme` | 422 | The endpoint url does not use the https scheme. |
                | `url_credentials_not_allowed` | 422 | The endpoint url carries a user name or password. |
                | `destination_not_allowed` | 422 | The endpoint url host, or a broker destination's host, is or resolves to a
                refused (private, loopback, ...) address. |
                | `invalid_destination` | 422 | A broker `destination` breaks a rule beyond its shape (plaintext off private
                networks, credentials missing or in a URI, a malformed address); `details` says where. |
                | `dns_timeout` | 422 | The endpoint url host could not be checked: its DNS lookup did not finish in time. |
                | `endpoint_limit_reached` | 422 | The account already has the most endpoints it may have. |
                | `event_type_limit_reached` | 422 | The account's event-type catalog already holds the most types it may;
                delete one first. |
                | `invalid_schema` | 422 | The event type's `schema` is not a valid JSON Schema (draft 2020-12); `details` says
                where. |
                | `invalid_example` | 422 | The event type's `example` does not match its `schema`; `details` names the failing
                paths. |
                | `schema_mismatch` | 422 | Ingest: the event's `data` does not match the schema of its type in the account's
                catalog; `details` names the failing paths. Nothing was stored. |
                | `tenant_endpoint_limit_reached` | 422 | The tenant already has the most endpoints a tenant may have. |
                | `tenant_limit_reached` | 422 | The account already has the most tenants it may have (a tenant exists while it
                has an endpoint). |
                | `key_limit_reached` | 422 | The account already has the most live (unrevoked) API keys it may have; revoke one
                first. |
                | `unknown_service` | 422 | Cost estimator: no catalog entry for this provider and service (`index` names the
                item). |
                | `instance_required` | 422 | Cost estimator: the service has several instances; `instances` lists them. |
                | `unknown_instance` | 422 | Cost estimator: no catalog entry for this instance (`instances` lists the known
                ones). |
                | `estimate_out_of_range` | 422 | Cost estimator: an item or the total costs more than the largest amount an
                estimate reports. |
                | `rate_limit_exceeded` | 429 | The per-minute burst limit is used up; `retry_after` and `Retry-After` say when
                the window ends. |
                | `quota_exceeded` | 429 | The monthly quota is used up; `reset_at` is the next billing period start. |
                | `too_many_attempts` | 429 | Too many failed dashboard sign-ins or sign-ups for this email or address; see
                `Retry-After`. |
                | `internal_error` | 500 | Internal error; safe to retry with backoff. `request_id` identifies it in the logs. |
                | `service_unavailable` | 503 | A dependency (database, Temporal) is unreachable; safe to retry. An ingest
                answered this may have stored its event: repeated with the same idempotency key it gets 200 with that event, or
                202 with a new one when the first was not kept; the event that answers the key is delivered once. |
                | `overloaded` | 503 | The platform is at capacity and this account takes more than its share of it (accounts
                that ask for less than an equal share are not refused); nothing was stored. Retry after `Retry-After` with the
                same idempotency key. |
            details (list[ErrorDetail] | Unset): Every 400, and the 422s `invalid_schema`, `invalid_example` and
                `schema_mismatch`: what is wrong where (`path` `""`: the body as a whole, e.g. not valid JSON).
            retry_after (int | Unset): 429 burst and 503 overloaded: seconds to wait before retrying.
            remaining (int | Unset): 429 burst only (0).
            quota_limit (int | Unset): 429 quota only.
            quota_used (int | Unset): 429 quota only.
            reset_at (str | Unset): 429 quota only: the next billing period start.
            request_id (str | Unset): 500 only.
     """

    error: str
    code: ErrorCode
    details: list[ErrorDetail] | Unset = UNSET
    retry_after: int | Unset = UNSET
    remaining: int | Unset = UNSET
    quota_limit: int | Unset = UNSET
    quota_used: int | Unset = UNSET
    reset_at: str | Unset = UNSET
    request_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_detail import ErrorDetail # noqa: PLC0415
        error = self.error

        code = self.code.value

        details: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = []
            for details_item_data in self.details:
                details_item = details_item_data.to_dict()
                details.append(details_item)



        retry_after = self.retry_after

        remaining = self.remaining

        quota_limit = self.quota_limit

        quota_used = self.quota_used

        reset_at = self.reset_at

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "error": error,
            "code": code,
        })
        if details is not UNSET:
            field_dict["details"] = details
        if retry_after is not UNSET:
            field_dict["retry_after"] = retry_after
        if remaining is not UNSET:
            field_dict["remaining"] = remaining
        if quota_limit is not UNSET:
            field_dict["quota_limit"] = quota_limit
        if quota_used is not UNSET:
            field_dict["quota_used"] = quota_used
        if reset_at is not UNSET:
            field_dict["reset_at"] = reset_at
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_detail import ErrorDetail # noqa: PLC0415
        d = dict(src_dict)
        error = d.pop("error")

        code = ErrorCode(d.pop("code"))




        _details = d.pop("details", UNSET)
        details: list[ErrorDetail] | Unset = UNSET
        if _details is not UNSET:
            details = []
            for details_item_data in _details:
                details_item = ErrorDetail.from_dict(details_item_data)



                details.append(details_item)


        retry_after = d.pop("retry_after", UNSET)

        remaining = d.pop("remaining", UNSET)

        quota_limit = d.pop("quota_limit", UNSET)

        quota_used = d.pop("quota_used", UNSET)

        reset_at = d.pop("reset_at", UNSET)

        request_id = d.pop("request_id", UNSET)

        error = cls(
            error=error,
            code=code,
            details=details,
            retry_after=retry_after,
            remaining=remaining,
            quota_limit=quota_limit,
            quota_used=quota_used,
            reset_at=reset_at,
            request_id=request_id,
        )


        error.additional_properties = d
        return error

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
