from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_event_type_request_example_type_0 import CreateEventTypeRequestExampleType0
  from ..models.create_event_type_request_schema_type_0 import CreateEventTypeRequestSchemaType0





T = TypeVar("T", bound="CreateEventTypeRequest")



@_attrs_define
class CreateEventTypeRequest:
    """ 
        Attributes:
            name (str): An exact event type, as ingest takes it (1 to 256 characters of A-Z a-z 0-9 _ . : -; no pattern; not
                `.` or `..`). Types starting `platform.` are the platform's own: 422 `reserved_event_type`. Example:
                invoice.paid.
            description (str | Unset): Free text, default "".
            schema (CreateEventTypeRequestSchemaType0 | None | Unset): A JSON Schema (draft 2020-12) that the events' `data`
                must match, at most 16 KiB serialized; null or absent: any data. Checked at registration (not a valid schema, or
                an unknown keyword: 422 `invalid_schema` with `details`). Ingest of an event of this type whose `data` does not
                match → 422 `schema_mismatch` with the failing paths in `details`, and nothing is stored.
            example (CreateEventTypeRequestExampleType0 | None | Unset): An example `data`, at most 16 KiB serialized; it
                must match `schema` (else 422 `invalid_example`); null or absent: none.
     """

    name: str
    description: str | Unset = UNSET
    schema: CreateEventTypeRequestSchemaType0 | None | Unset = UNSET
    example: CreateEventTypeRequestExampleType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_event_type_request_example_type_0 import CreateEventTypeRequestExampleType0 # noqa: PLC0415
        from ..models.create_event_type_request_schema_type_0 import CreateEventTypeRequestSchemaType0 # noqa: PLC0415
        name = self.name

        description = self.description

        schema: dict[str, Any] | None | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        elif isinstance(self.schema, CreateEventTypeRequestSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        example: dict[str, Any] | None | Unset
        if isinstance(self.example, Unset):
            example = UNSET
        elif isinstance(self.example, CreateEventTypeRequestExampleType0):
            example = self.example.to_dict()
        else:
            example = self.example


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
        from ..models.create_event_type_request_example_type_0 import CreateEventTypeRequestExampleType0 # noqa: PLC0415
        from ..models.create_event_type_request_schema_type_0 import CreateEventTypeRequestSchemaType0 # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description", UNSET)

        def _parse_schema(data: object) -> CreateEventTypeRequestSchemaType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schema_type_0 = CreateEventTypeRequestSchemaType0.from_dict(data)



                return schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateEventTypeRequestSchemaType0 | None | Unset, data)

        schema = _parse_schema(d.pop("schema", UNSET))


        def _parse_example(data: object) -> CreateEventTypeRequestExampleType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                example_type_0 = CreateEventTypeRequestExampleType0.from_dict(data)



                return example_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateEventTypeRequestExampleType0 | None | Unset, data)

        example = _parse_example(d.pop("example", UNSET))


        create_event_type_request = cls(
            name=name,
            description=description,
            schema=schema,
            example=example,
        )

        return create_event_type_request

