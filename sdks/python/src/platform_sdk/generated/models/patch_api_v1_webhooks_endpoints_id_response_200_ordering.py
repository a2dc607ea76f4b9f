from enum import StrEnum

class PatchApiV1WebhooksEndpointsIdResponse200Ordering(StrEnum):
    FIFO = "fifo"
    UNORDERED = "unordered"

    def __str__(self) -> str:
        return str(self.value)
