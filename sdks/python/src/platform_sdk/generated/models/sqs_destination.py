from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sqs_destination_type import SqsDestinationType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.sqs_destination_config import SqsDestinationConfig
  from ..models.sqs_destination_credentials import SqsDestinationCredentials





T = TypeVar("T", bound="SqsDestination")



@_attrs_define
class SqsDestination:
    """ Sent with SendMessage: delivered when SQS has accepted it. A FIFO queue gets the endpoint id as message group and
    the event id as de-duplication id.

        Attributes:
            type_ (SqsDestinationType):
            config (SqsDestinationConfig):
            credentials (SqsDestinationCredentials | Unset): `access_key_id` and `secret_access_key` (required),
                `session_token` (optional). Write-only: sealed at rest, never returned (responses list the fields set in
                `credentials_set`), never logged or traced. On PATCH, a destination of the same type sent without `credentials`
                keeps the stored ones.
     """

    type_: SqsDestinationType
    config: SqsDestinationConfig
    credentials: SqsDestinationCredentials | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.sqs_destination_config import SqsDestinationConfig # noqa: PLC0415
        from ..models.sqs_destination_credentials import SqsDestinationCredentials # noqa: PLC0415
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
        from ..models.sqs_destination_config import SqsDestinationConfig # noqa: PLC0415
        from ..models.sqs_destination_credentials import SqsDestinationCredentials # noqa: PLC0415
        d = dict(src_dict)
        type_ = SqsDestinationType(d.pop("type"))




        config = SqsDestinationConfig.from_dict(d.pop("config"))




        _credentials = d.pop("credentials", UNSET)
        credentials: SqsDestinationCredentials | Unset
        if isinstance(_credentials,  Unset):
            credentials = UNSET
        else:
            credentials = SqsDestinationCredentials.from_dict(_credentials)




        sqs_destination = cls(
            type_=type_,
            config=config,
            credentials=credentials,
        )

        return sqs_destination

