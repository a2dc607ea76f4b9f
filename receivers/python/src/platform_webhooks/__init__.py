"""Verify the platform's webhook deliveries (Standard Webhooks and X-Webhook-Signature). Standard library only."""

from .verify import (
    DEFAULT_TOLERANCE_SECONDS,
    ErrorCode,
    VerifiedWebhook,
    WebhookVerificationError,
    verify,
)

__all__ = ["DEFAULT_TOLERANCE_SECONDS", "ErrorCode", "VerifiedWebhook", "WebhookVerificationError", "verify"]
