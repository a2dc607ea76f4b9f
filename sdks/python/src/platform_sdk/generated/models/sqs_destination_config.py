from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SqsDestinationConfig")



@_attrs_define
class SqsDestinationConfig:
    """ 
        Attributes:
            queue_url (str): The queue URL, `https://sqs.<region>.amazonaws.com/<account id>/<queue name>` (a name ending
                `.fifo` is a FIFO queue). Example: https://sqs.eu-west-1.amazonaws.com/123456789012/orders.
            region (str): The queue's AWS region.
     """

    queue_url: str
    region: str





    def to_dict(self) -> dict[str, Any]:
        queue_url = self.queue_url

        region = self.region


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "queue_url": queue_url,
            "region": region,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        queue_url = d.pop("queue_url")

        region = d.pop("region")

        sqs_destination_config = cls(
            queue_url=queue_url,
            region=region,
        )

        return sqs_destination_config

