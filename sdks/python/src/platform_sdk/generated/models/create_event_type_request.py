from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_event_type_request_example import CreateEventTypeRequestExample
  from ..models.create_event_type_request_schema import CreateEventTypeRequestSchema





T = TypeVar("T", bound="CreateEventTypeRequest")



@_attrs_define
class CreateEventTypeRequest:
    """ 
        Attributes:
            name (str): An exact event type, as ingest takes it (1 to 256 characters of A-Z a-z 0-9 _ . : -; no pattern).
                Types starting `platform.` are the platform's own: 422 `reserved_event_type`. Example: invoice.paid.
            description (str | Unset): Free text, default "".
            schema (CreateEventTypeRequestSchema | Unset): A JSON Schema (draft 2020-12) that the events' `data` must match,
                at most 16 KiB serialized; null or absent: any data. Checked at registration (not a valid schema, or an unknown
                keyword: 422 `invalid_schema` with `details`). Ingest of an event of this type whose `data` does not match → 422
                `schema_mismatch` with the failing paths in `details`, and nothing is stored.
            example (CreateEventTypeRequestExample | Unset): An example `data`, at most 16 KiB serialized; it must match
                `schema` (else 422 `invalid_example`).
     """

    name: str
    description: str | Unset = UNSET
    schema: CreateEventTypeRequestSchema | Unset = UNSET
    example: CreateEventTypeRequestExample | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_event_type_request_example import CreateEventTypeRequestExample # noqa: PLC0415
        from ..models.create_event_type_request_schema import CreateEventTypeRequestSchema # noqa: PLC0415
        name = self.name

        description = self.description

        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        example: dict[str, Any] | Unset = UNSET
        if not isinstance(self.example, Unset):
            example = self.example.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if schema is not UNSET:
            field_dict["schema"] = schema
        if example is not UNSET:
            field_dict["example"] = example

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_event_type_request_example import CreateEventTypeRequestExample # noqa: PLC0415
        from ..models.create_event_type_request_schema import CreateEventTypeRequestSchema # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description", UNSET)

        _schema = d.pop("schema", UNSET)
        schema: CreateEventTypeRequestSchema | Unset
        if isinstance(_schema,  Unset):
            schema = UNSET
        else:
            schema = CreateEventTypeRequestSchema.from_dict(_schema)




        _example = d.pop("example", UNSET)
        example: CreateEventTypeRequestExample | Unset
        if isinstance(_example,  Unset):
            example = UNSET
        else:
            example = CreateEventTypeRequestExample.from_dict(_example)




        create_event_type_request = cls(
            name=name,
            description=description,
            schema=schema,
            example=example,
        )

        return create_event_type_request

