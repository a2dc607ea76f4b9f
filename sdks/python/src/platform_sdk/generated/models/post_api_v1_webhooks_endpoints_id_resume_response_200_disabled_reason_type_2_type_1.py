from enum import StrEnum

class PostApiV1WebhooksEndpointsIdResumeResponse200DisabledReasonType2Type1(StrEnum):
    FAILING = "failing"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
