from enum import StrEnum

class GetApiV1WebhooksEndpointsResponse200DataItemDisabledReasonType1(StrEnum):
    FAILING = "failing"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
