from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.catalog_entry import CatalogEntry





T = TypeVar("T", bound="Catalog")



@_attrs_define
class Catalog:
    """ 
        Attributes:
            count (int): Number of entries returned.
            services (list[CatalogEntry]): Catalog order: provider, category, service, instance.
     """

    count: int
    services: list[CatalogEntry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_entry import CatalogEntry # noqa: PLC0415
        count = self.count

        services = []
        for services_item_data in self.services:
            services_item = services_item_data.to_dict()
            services.append(services_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "services": services,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.catalog_entry import CatalogEntry # noqa: PLC0415
        d = dict(src_dict)
        count = d.pop("count")

        services = []
        _services = d.pop("services")
        for services_item_data in (_services):
            services_item = CatalogEntry.from_dict(services_item_data)



            services.append(services_item)


        catalog = cls(
            count=count,
            services=services,
        )


        catalog.additional_properties = d
        return catalog

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
