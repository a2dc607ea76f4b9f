from enum import StrEnum

class PatchApiV1WebhooksEndpointsIdResponse200DisabledReasonType1(StrEnum):
    FAILING = "failing"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
