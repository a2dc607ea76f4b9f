from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.rabbit_mq_destination_type import RabbitMqDestinationType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.rabbit_mq_destination_config import RabbitMqDestinationConfig
  from ..models.rabbit_mq_destination_credentials import RabbitMqDestinationCredentials





T = TypeVar("T", bound="RabbitMqDestination")



@_attrs_define
class RabbitMqDestination:
    """ Published persistent (delivery mode 2) with publisher confirms: delivered when the broker confirms it.

        Attributes:
            type_ (RabbitMqDestinationType):
            config (RabbitMqDestinationConfig):
            credentials (RabbitMqDestinationCredentials | Unset): `username` and `password` (both required). Write-only:
                sealed at rest, never returned (responses list the fields set in `credentials_set`), never logged or traced. On
                PATCH, a destination of the same type sent without `credentials` keeps the stored ones.
     """

    type_: RabbitMqDestinationType
    config: RabbitMqDestinationConfig
    credentials: RabbitMqDestinationCredentials | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.rabbit_mq_destination_config import RabbitMqDestinationConfig # noqa: PLC0415
        from ..models.rabbit_mq_destination_credentials import RabbitMqDestinationCredentials # noqa: PLC0415
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
        from ..models.rabbit_mq_destination_config import RabbitMqDestinationConfig # noqa: PLC0415
        from ..models.rabbit_mq_destination_credentials import RabbitMqDestinationCredentials # noqa: PLC0415
        d = dict(src_dict)
        type_ = RabbitMqDestinationType(d.pop("type"))




        config = RabbitMqDestinationConfig.from_dict(d.pop("config"))




        _credentials = d.pop("credentials", UNSET)
        credentials: RabbitMqDestinationCredentials | Unset
        if isinstance(_credentials,  Unset):
            credentials = UNSET
        else:
            credentials = RabbitMqDestinationCredentials.from_dict(_credentials)




        rabbit_mq_destination = cls(
            type_=type_,
            config=config,
            credentials=credentials,
        )

        return rabbit_mq_destination

