from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="RotateSecretRequest")



@_attrs_define
class RotateSecretRequest:
    """ Optional; an empty body rotates with the default grace period. At most 5 secrets are alive at once: a rotation that
    would make more ends the grace of those that would expire first.

        Attributes:
            grace_period_seconds (int | Unset): How long the replaced secret keeps signing `webhook-signature` beside the
                new one (default 86400, at most 604800 = 7 days). 0 ends the replaced secret now and also every secret replaced
                earlier that is still in its grace: after a leak, no old secret signs anything. `X-Webhook-Signature` always
                uses the new secret.
     """

    grace_period_seconds: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        grace_period_seconds = self.grace_period_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if grace_period_seconds is not UNSET:
            field_dict["grace_period_seconds"] = grace_period_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grace_period_seconds = d.pop("grace_period_seconds", UNSET)

        rotate_secret_request = cls(
            grace_period_seconds=grace_period_seconds,
        )

        return rotate_secret_request

