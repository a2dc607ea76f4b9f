from enum import StrEnum

class GetHealthzResponse200ChecksAdditionalProperty(StrEnum):
    OK = "ok"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
