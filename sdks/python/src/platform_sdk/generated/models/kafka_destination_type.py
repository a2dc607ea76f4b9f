from enum import StrEnum

class KafkaDestinationType(StrEnum):
    KAFKA = "kafka"

    def __str__(self) -> str:
        return str(self.value)
