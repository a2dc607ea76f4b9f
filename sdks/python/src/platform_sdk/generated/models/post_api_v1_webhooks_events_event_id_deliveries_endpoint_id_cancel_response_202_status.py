from enum import StrEnum

class PostApiV1WebhooksEventsEventIdDeliveriesEndpointIdCancelResponse202Status(StrEnum):
    CANCELLED = "cancelled"
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
