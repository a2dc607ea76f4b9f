from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.destination_type import DestinationType
from typing import cast

if TYPE_CHECKING:
  from ..models.destination_config import DestinationConfig





T = TypeVar("T", bound="DestinationType0")



@_attrs_define
class DestinationType0:
    """ A broker endpoint's destination; null for an HTTPS endpoint.

        Attributes:
            type_ (DestinationType):
            config (DestinationConfig): As registered, defaults filled in.
            credentials_set (list[str]): The credential fields stored (sorted); their values are never returned.
     """

    type_: DestinationType
    config: DestinationConfig
    credentials_set: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.destination_config import DestinationConfig # noqa: PLC0415
        type_ = self.type_.value

        config = self.config.to_dict()

        credentials_set = self.credentials_set




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "config": config,
            "credentials_set": credentials_set,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.destination_config import DestinationConfig # noqa: PLC0415
        d = dict(src_dict)
        type_ = DestinationType(d.pop("type"))




        config = DestinationConfig.from_dict(d.pop("config"))




        credentials_set = cast(list[str], d.pop("credentials_set"))


        destination_type_0 = cls(
            type_=type_,
            config=config,
            credentials_set=credentials_set,
        )


        destination_type_0.additional_properties = d
        return destination_type_0

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
