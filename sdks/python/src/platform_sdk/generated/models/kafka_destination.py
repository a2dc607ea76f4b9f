from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.kafka_destination_type import KafkaDestinationType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.kafka_destination_config import KafkaDestinationConfig
  from ..models.kafka_destination_credentials import KafkaDestinationCredentials





T = TypeVar("T", bound="KafkaDestination")



@_attrs_define
class KafkaDestination:
    """ Produced with acks from all in-sync replicas: delivered when they have it. The message key is the event id, or the
    endpoint id for a FIFO endpoint (one partition keeps its order).

        Attributes:
            type_ (KafkaDestinationType):
            config (KafkaDestinationConfig):
            credentials (KafkaDestinationCredentials | Unset): With SASL: `username` and `password`. Write-only: sealed at
                rest, never returned (responses list the fields set in `credentials_set`), never logged or traced. On PATCH, a
                destination of the same type sent without `credentials` keeps the stored ones.
     """

    type_: KafkaDestinationType
    config: KafkaDestinationConfig
    credentials: KafkaDestinationCredentials | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.kafka_destination_config import KafkaDestinationConfig # noqa: PLC0415
        from ..models.kafka_destination_credentials import KafkaDestinationCredentials # noqa: PLC0415
        type_ = self.type_.value

        config = self.config.to_dict()

        credentials: dict[str, Any] | Unset = UNSET
        if not isinstance(self.credentials, Unset):
            credentials = self.credentials.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "config": config,
        })
        if credentials is not UNSET:
            field_dict["credentials"] = credentials

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.kafka_destination_config import KafkaDestinationConfig # noqa: PLC0415
        from ..models.kafka_destination_credentials import KafkaDestinationCredentials # noqa: PLC0415
        d = dict(src_dict)
        type_ = KafkaDestinationType(d.pop("type"))




        config = KafkaDestinationConfig.from_dict(d.pop("config"))




        _credentials = d.pop("credentials", UNSET)
        credentials: KafkaDestinationCredentials | Unset
        if isinstance(_credentials,  Unset):
            credentials = UNSET
        else:
            credentials = KafkaDestinationCredentials.from_dict(_credentials)




        kafka_destination = cls(
            type_=type_,
            config=config,
            credentials=credentials,
        )

        return kafka_destination

