from enum import StrEnum

class DisabledReason(StrEnum):
    FAILING = "failing"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
