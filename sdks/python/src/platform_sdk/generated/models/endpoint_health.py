from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="EndpointHealth")



@_attrs_define
class EndpointHealth:
    """ A delivery is one round of one event to this endpoint; it counts when it ends (succeeded, or failed after its last
    attempt), not per attempt. Cancelled deliveries do not count.

        Attributes:
            succeeded_24h (int): Deliveries that succeeded in the current UTC hour and the 23 before it.
            failed_24h (int): Deliveries that failed (all 8 attempts) in the current UTC hour and the 23 before it.
            last_success_at (None | str): When the latest successful delivery ended (ISO 8601 UTC).
            last_failure_at (None | str): When the latest failed delivery ended.
            consecutive_failures (int): Failed deliveries since the last success (or since the endpoint was enabled again).
            failing_since (None | str): When the first of those consecutive failures ended; null when there is none.
     """

    succeeded_24h: int
    failed_24h: int
    last_success_at: None | str
    last_failure_at: None | str
    consecutive_failures: int
    failing_since: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        succeeded_24h = self.succeeded_24h

        failed_24h = self.failed_24h

        last_success_at: None | str
        last_success_at = self.last_success_at

        last_failure_at: None | str
        last_failure_at = self.last_failure_at

        consecutive_failures = self.consecutive_failures

        failing_since: None | str
        failing_since = self.failing_since


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "succeeded_24h": succeeded_24h,
            "failed_24h": failed_24h,
            "last_success_at": last_success_at,
            "last_failure_at": last_failure_at,
            "consecutive_failures": consecutive_failures,
            "failing_since": failing_since,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        succeeded_24h = d.pop("succeeded_24h")

        failed_24h = d.pop("failed_24h")

        def _parse_last_success_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))


        def _parse_last_failure_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_failure_at = _parse_last_failure_at(d.pop("last_failure_at"))


        consecutive_failures = d.pop("consecutive_failures")

        def _parse_failing_since(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))


        endpoint_health = cls(
            succeeded_24h=succeeded_24h,
            failed_24h=failed_24h,
            last_success_at=last_success_at,
            last_failure_at=last_failure_at,
            consecutive_failures=consecutive_failures,
            failing_since=failing_since,
        )


        endpoint_health.additional_properties = d
        return endpoint_health

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
