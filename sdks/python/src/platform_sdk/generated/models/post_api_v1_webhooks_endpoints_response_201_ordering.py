from enum import StrEnum

class PostApiV1WebhooksEndpointsResponse201Ordering(StrEnum):
    FIFO = "fifo"
    UNORDERED = "unordered"

    def __str__(self) -> str:
        return str(self.value)
