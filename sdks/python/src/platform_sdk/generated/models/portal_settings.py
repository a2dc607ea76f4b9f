from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PortalSettings")



@_attrs_define
class PortalSettings:
    """ 
        Attributes:
            allowed_origins (list[str]):
            name (None | str):
            logo_url (None | str):
            accent_color (None | str):
     """

    allowed_origins: list[str]
    name: None | str
    logo_url: None | str
    accent_color: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        allowed_origins = self.allowed_origins



        name: None | str
        name = self.name

        logo_url: None | str
        logo_url = self.logo_url

        accent_color: None | str
        accent_color = self.accent_color


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "allowed_origins": allowed_origins,
            "name": name,
            "logo_url": logo_url,
            "accent_color": accent_color,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allowed_origins = cast(list[str], d.pop("allowed_origins"))


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logo_url"))


        def _parse_accent_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        accent_color = _parse_accent_color(d.pop("accent_color"))


        portal_settings = cls(
            allowed_origins=allowed_origins,
            name=name,
            logo_url=logo_url,
            accent_color=accent_color,
        )


        portal_settings.additional_properties = d
        return portal_settings

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
