from enum import StrEnum

class SqsDestinationType(StrEnum):
    SQS = "sqs"

    def __str__(self) -> str:
        return str(self.value)
