from enum import StrEnum

class GetApiV1WebhooksEventsEventIdResponse200Status(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
