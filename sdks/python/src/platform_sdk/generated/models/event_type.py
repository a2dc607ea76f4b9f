from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event_type_example_type_0 import EventTypeExampleType0
  from ..models.event_type_schema_type_0 import EventTypeSchemaType0





T = TypeVar("T", bound="EventType")



@_attrs_define
class EventType:
    """ An entry of the account's event-type catalog (at most 200 per account).

        Attributes:
            name (str):
            description (str):
            schema (EventTypeSchemaType0 | None):
            example (EventTypeExampleType0 | None):
            created_at (str): ISO 8601 UTC.
            updated_at (str):
     """

    name: str
    description: str
    schema: EventTypeSchemaType0 | None
    example: EventTypeExampleType0 | None
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_type_example_type_0 import EventTypeExampleType0 # noqa: PLC0415
        from ..models.event_type_schema_type_0 import EventTypeSchemaType0 # noqa: PLC0415
        name = self.name

        description = self.description

        schema: dict[str, Any] | None
        if isinstance(self.schema, EventTypeSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        example: dict[str, Any] | None
        if isinstance(self.example, EventTypeExampleType0):
            example = self.example.to_dict()
        else:
            example = self.example

        created_at = self.created_at

        updated_at = self.updated_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "description": description,
            "schema": schema,
            "example": example,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_type_example_type_0 import EventTypeExampleType0 # noqa: PLC0415
        from ..models.event_type_schema_type_0 import EventTypeSchemaType0 # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description")

        def _parse_schema(data: object) -> EventTypeSchemaType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schema_type_0 = EventTypeSchemaType0.from_dict(data)



                return schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventTypeSchemaType0 | None, data)

        schema = _parse_schema(d.pop("schema"))


        def _parse_example(data: object) -> EventTypeExampleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                example_type_0 = EventTypeExampleType0.from_dict(data)



                return example_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventTypeExampleType0 | None, data)

        example = _parse_example(d.pop("example"))


        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        event_type = cls(
            name=name,
            description=description,
            schema=schema,
            example=example,
            created_at=created_at,
            updated_at=updated_at,
        )


        event_type.additional_properties = d
        return event_type

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
