from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_event_type_request_example import UpdateEventTypeRequestExample
  from ..models.update_event_type_request_schema import UpdateEventTypeRequestSchema





T = TypeVar("T", bound="UpdateEventTypeRequest")



@_attrs_define
class UpdateEventTypeRequest:
    """ Absent fields stay as they are; null removes the schema or the example. The record after must hold together: its
    example matching its schema.

        Attributes:
            description (str | Unset):
            schema (UpdateEventTypeRequestSchema | Unset): A JSON Schema (draft 2020-12) that the events' `data` must match,
                at most 16 KiB serialized; null or absent: any data. Checked at registration (not a valid schema, or an unknown
                keyword: 422 `invalid_schema` with `details`). Ingest of an event of this type whose `data` does not match → 422
                `schema_mismatch` with the failing paths in `details`, and nothing is stored.
            example (UpdateEventTypeRequestExample | Unset): An example `data`, at most 16 KiB serialized; it must match
                `schema` (else 422 `invalid_example`).
     """

    description: str | Unset = UNSET
    schema: UpdateEventTypeRequestSchema | Unset = UNSET
    example: UpdateEventTypeRequestExample | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_event_type_request_example import UpdateEventTypeRequestExample # noqa: PLC0415
        from ..models.update_event_type_request_schema import UpdateEventTypeRequestSchema # noqa: PLC0415
        description = self.description

        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        example: dict[str, Any] | Unset = UNSET
        if not isinstance(self.example, Unset):
            example = self.example.to_dict()


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
        from ..models.update_event_type_request_example import UpdateEventTypeRequestExample # noqa: PLC0415
        from ..models.update_event_type_request_schema import UpdateEventTypeRequestSchema # noqa: PLC0415
        d = dict(src_dict)
        description = d.pop("description", UNSET)

        _schema = d.pop("schema", UNSET)
        schema: UpdateEventTypeRequestSchema | Unset
        if isinstance(_schema,  Unset):
            schema = UNSET
        else:
            schema = UpdateEventTypeRequestSchema.from_dict(_schema)




        _example = d.pop("example", UNSET)
        example: UpdateEventTypeRequestExample | Unset
        if isinstance(_example,  Unset):
            example = UNSET
        else:
            example = UpdateEventTypeRequestExample.from_dict(_example)




        update_event_type_request = cls(
            description=description,
            schema=schema,
            example=example,
        )

        return update_event_type_request

