from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="RabbitMqDestinationConfig")



@_attrs_define
class RabbitMqDestinationConfig:
    """ 
        Attributes:
            uri (str): AMQP 0-9-1 URI `amqps://host[:port][/vhost]`, without user name or password (`amqp://` only where
                DELIVERY_ALLOW_PRIVATE_NETWORKS is on). Example: amqps://mq.example.com/prod.
            exchange (str): The exchange each message is published to (it must exist; "" is the default exchange, which
                routes by queue name).
            routing_key (str | Unset): The routing key of every message (default ""). Default: ''.
     """

    uri: str
    exchange: str
    routing_key: str | Unset = ''





    def to_dict(self) -> dict[str, Any]:
        uri = self.uri

        exchange = self.exchange

        routing_key = self.routing_key


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "uri": uri,
            "exchange": exchange,
        })
        if routing_key is not UNSET:
            field_dict["routing_key"] = routing_key

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        uri = d.pop("uri")

        exchange = d.pop("exchange")

        routing_key = d.pop("routing_key", UNSET)

        rabbit_mq_destination_config = cls(
            uri=uri,
            exchange=exchange,
            routing_key=routing_key,
        )

        return rabbit_mq_destination_config

