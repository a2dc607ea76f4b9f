from enum import StrEnum

class PatchApiV1WebhooksEndpointsIdBodyOrdering(StrEnum):
    FIFO = "fifo"
    UNORDERED = "unordered"

    def __str__(self) -> str:
        return str(self.value)
