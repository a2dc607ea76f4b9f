from enum import StrEnum

class PostApiV1WebhooksEndpointsResponse201DisabledReasonType1(StrEnum):
    FAILING = "failing"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
