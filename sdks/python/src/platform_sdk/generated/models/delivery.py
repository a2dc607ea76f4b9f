from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_status import DeliveryStatus
from typing import cast

if TYPE_CHECKING:
  from ..models.attempt import Attempt





T = TypeVar("T", bound="Delivery")



@_attrs_define
class Delivery:
    """ 
        Attributes:
            endpoint_id (str):
            url (str): The endpoint's HTTPS URL, or its broker destination's address (no credentials), when the delivery was
                last attempted.
            status (DeliveryStatus):
            round_ (int):
            attempt_count (int):
            next_attempt_at (None | str):
            paused (bool): Its next attempt came due while the endpoint was paused: it waits, `status` unchanged, and that
                attempt is made once the endpoint is resumed.
            attempts (list[Attempt]):
     """

    endpoint_id: str
    url: str
    status: DeliveryStatus
    round_: int
    attempt_count: int
    next_attempt_at: None | str
    paused: bool
    attempts: list[Attempt]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.attempt import Attempt # noqa: PLC0415
        endpoint_id = self.endpoint_id

        url = self.url

        status = self.status.value

        round_ = self.round_

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        next_attempt_at = self.next_attempt_at

        paused = self.paused

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpoint_id": endpoint_id,
            "url": url,
            "status": status,
            "round": round_,
            "attempt_count": attempt_count,
            "next_attempt_at": next_attempt_at,
            "paused": paused,
            "attempts": attempts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt import Attempt # noqa: PLC0415
        d = dict(src_dict)
        endpoint_id = d.pop("endpoint_id")

        url = d.pop("url")

        status = DeliveryStatus(d.pop("status"))




        round_ = d.pop("round")

        attempt_count = d.pop("attempt_count")

        def _parse_next_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))


        paused = d.pop("paused")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in (_attempts):
            attempts_item = Attempt.from_dict(attempts_item_data)



            attempts.append(attempts_item)


        delivery = cls(
            endpoint_id=endpoint_id,
            url=url,
            status=status,
            round_=round_,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            paused=paused,
            attempts=attempts,
        )


        delivery.additional_properties = d
        return delivery

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
