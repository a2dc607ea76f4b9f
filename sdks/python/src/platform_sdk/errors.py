"""The platform's errors: one exception type carrying the closed set of codes of the OpenAPI document."""
import json
from typing import Any, List, Optional, Union

from .generated.models.error_code import ErrorCode

__all__ = ["ErrorCode", "PlatformError"]


class PlatformError(Exception):
    """An answer of the platform that is not a success. `code` is an ErrorCode, or the raw string of a code
    this version of the SDK does not know yet (None when the body is not the platform's error JSON)."""

    def __init__(self, status: int, body: Union[dict, str], request_id: Optional[str] = None):
        self.status = status
        self.body = body
        fields = body if isinstance(body, dict) else {}
        raw_code = fields.get("code")
        self.code: Union[ErrorCode, str, None] = _known_code(raw_code) if isinstance(raw_code, str) else None
        self.message: str = str(fields.get("error") or (body if isinstance(body, str) else "") or f"HTTP {status}")
        self.request_id: Optional[str] = fields.get("request_id") or request_id
        self.retry_after: Optional[int] = fields.get("retry_after")
        self.details: List[Any] = fields.get("details") or []
        super().__init__(f"{status} {self.code or ''}: {self.message}".replace(" :", ":"))

    @property
    def retryable(self) -> bool:
        """Whether the platform's advice is to retry it: the burst limit (429) and 503. A spent monthly quota is not
        retried: it lasts until the next period."""
        return (self.status == 429 and self.code is not ErrorCode.QUOTA_EXCEEDED) or self.status == 503

    @classmethod
    def from_response(cls, status: int, content: bytes, headers: Any) -> "PlatformError":
        text = content.decode("utf-8", errors="replace")
        try:
            body: Union[dict, str] = json.loads(text)
        except ValueError:
            body = text
        if not isinstance(body, dict):
            body = text
        return cls(status, body, headers.get("x-request-id"))


def _known_code(code: str) -> Union[ErrorCode, str]:
    try:
        return ErrorCode(code)
    except ValueError:
        return code
