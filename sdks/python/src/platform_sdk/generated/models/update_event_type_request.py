from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_event_type_request_example_type_0 import UpdateEventTypeRequestExampleType0
  from ..models.update_event_type_request_schema_type_0 import UpdateEventTypeRequestSchemaType0





T = TypeVar("T", bound="UpdateEventTypeRequest")



@_attrs_define
class UpdateEventTypeRequest:
    """ Absent fields stay as they are; null removes the schema or the example. The record after must hold together: its
    example matching its schema. Only the fields named are written, in one atomic update; a new schema (example) is
    written only if the example (schema) it was checked against is still the one kept, else 409 `event_type_changed`.

        Attributes:
            description (str | Unset):
            schema (None | Unset | UpdateEventTypeRequestSchemaType0): A JSON Schema (draft 2020-12) that the events' `data`
                must match, at most 16 KiB serialized; null or absent: any data. Checked at registration (not a valid schema, or
                an unknown keyword: 422 `invalid_schema` with `details`). Ingest of an event of this type whose `data` does not
                match → 422 `schema_mismatch` with the failing paths in `details`, and nothing is stored.
            example (None | Unset | UpdateEventTypeRequestExampleType0): An example `data`, at most 16 KiB serialized; it
                must match `schema` (else 422 `invalid_example`); null or absent: none.
     """

    description: str | Unset = UNSET
    schema: None | Unset | UpdateEventTypeRequestSchemaType0 = UNSET
    example: None | Unset | UpdateEventTypeRequestExampleType0 = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_event_type_request_example_type_0 import UpdateEventTypeRequestExampleType0 # noqa: PLC0415
        from ..models.update_event_type_request_schema_type_0 import UpdateEventTypeRequestSchemaType0 # noqa: PLC0415
        description = self.description

        schema: dict[str, Any] | None | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        elif isinstance(self.schema, UpdateEventTypeRequestSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        example: dict[str, Any] | None | Unset
        if isinstance(self.example, Unset):
            example = UNSET
        elif isinstance(self.example, UpdateEventTypeRequestExampleType0):
            example = self.example.to_dict()
        else:
            example = self.example


        field_dict: dict[str, Any] = {}

        field_dict.update({
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
        from ..models.update_event_type_request_example_type_0 import UpdateEventTypeRequestExampleType0 # noqa: PLC0415
        from ..models.update_event_type_request_schema_type_0 import UpdateEventTypeRequestSchemaType0 # noqa: PLC0415
        d = dict(src_dict)
        description = d.pop("description", UNSET)

        def _parse_schema(data: object) -> None | Unset | UpdateEventTypeRequestSchemaType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schema_type_0 = UpdateEventTypeRequestSchemaType0.from_dict(data)



                return schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateEventTypeRequestSchemaType0, data)

        schema = _parse_schema(d.pop("schema", UNSET))


        def _parse_example(data: object) -> None | Unset | UpdateEventTypeRequestExampleType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                example_type_0 = UpdateEventTypeRequestExampleType0.from_dict(data)



                return example_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateEventTypeRequestExampleType0, data)

        example = _parse_example(d.pop("example", UNSET))


        update_event_type_request = cls(
            description=description,
            schema=schema,
            example=example,
        )

        return update_event_type_request

