from enum import StrEnum

class RabbitMqDestinationType(StrEnum):
    RABBITMQ = "rabbitmq"

    def __str__(self) -> str:
        return str(self.value)
