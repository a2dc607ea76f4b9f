from enum import StrEnum

class Category(StrEnum):
    AI_ML = "ai_ml"
    CACHE = "cache"
    CDN = "cdn"
    COMPUTE = "compute"
    CONTAINERS = "containers"
    DATABASE = "database"
    MESSAGING = "messaging"
    MONITORING = "monitoring"
    NETWORKING = "networking"
    SECURITY = "security"
    SERVERLESS = "serverless"
    STORAGE = "storage"

    def __str__(self) -> str:
        return str(self.value)
