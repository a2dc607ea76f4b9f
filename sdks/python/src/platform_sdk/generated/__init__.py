
""" A client library for accessing Developer-Operations Platform API """
from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
