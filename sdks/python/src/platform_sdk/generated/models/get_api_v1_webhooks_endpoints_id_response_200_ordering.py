from enum import StrEnum

class GetApiV1WebhooksEndpointsIdResponse200Ordering(StrEnum):
    FIFO = "fifo"
    UNORDERED = "unordered"

    def __str__(self) -> str:
        return str(self.value)
