from enum import StrEnum

class GetApiV1WebhooksEndpointsResponse200DataItemOrdering(StrEnum):
    FIFO = "fifo"
    UNORDERED = "unordered"

    def __str__(self) -> str:
        return str(self.value)
