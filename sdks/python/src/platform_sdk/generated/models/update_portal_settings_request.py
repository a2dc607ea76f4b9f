from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdatePortalSettingsRequest")



@_attrs_define
class UpdatePortalSettingsRequest:
    """ 
        Attributes:
            allowed_origins (list[str] | Unset): The origins whose pages may show the portal in an iframe (CSP `frame-
                ancestors`), at most 10, each an origin, `https://host[:port]` (`http://` only for localhost, 127.0.0.1 and
                [::1]), with no path, query, fragment, credentials or wildcard. Stored as browsers send them
                (`https://App.Example.com:443/` is `https://app.example.com`), repeats once. Every other origin is refused; `[]`
                (the default): no page may frame it. Replaces the list. Example: ['https://app.example.com'].
            name (None | str | Unset): Shown as the portal's title (null: "Webhooks").
            logo_url (None | str | Unset): An https image shown beside the name; the page's CSP allows images from its
                origin only.
            accent_color (None | str | Unset): Buttons and links (null: the default blue).
     """

    allowed_origins: list[str] | Unset = UNSET
    name: None | str | Unset = UNSET
    logo_url: None | str | Unset = UNSET
    accent_color: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        allowed_origins: list[str] | Unset = UNSET
        if not isinstance(self.allowed_origins, Unset):
            allowed_origins = self.allowed_origins



        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        logo_url: None | str | Unset
        if isinstance(self.logo_url, Unset):
            logo_url = UNSET
        else:
            logo_url = self.logo_url

        accent_color: None | str | Unset
        if isinstance(self.accent_color, Unset):
            accent_color = UNSET
        else:
            accent_color = self.accent_color


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if allowed_origins is not UNSET:
            field_dict["allowed_origins"] = allowed_origins
        if name is not UNSET:
            field_dict["name"] = name
        if logo_url is not UNSET:
            field_dict["logo_url"] = logo_url
        if accent_color is not UNSET:
            field_dict["accent_color"] = accent_color

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allowed_origins = cast(list[str], d.pop("allowed_origins", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_logo_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        logo_url = _parse_logo_url(d.pop("logo_url", UNSET))


        def _parse_accent_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        accent_color = _parse_accent_color(d.pop("accent_color", UNSET))


        update_portal_settings_request = cls(
            allowed_origins=allowed_origins,
            name=name,
            logo_url=logo_url,
            accent_color=accent_color,
        )

        return update_portal_settings_request

