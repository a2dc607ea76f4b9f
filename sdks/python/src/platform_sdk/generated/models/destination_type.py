from enum import StrEnum

class DestinationType(StrEnum):
    KAFKA = "kafka"
    RABBITMQ = "rabbitmq"
    SQS = "sqs"

    def __str__(self) -> str:
        return str(self.value)
