""" Contains all the data models used in inputs/outputs """

from .attempt import Attempt
from .catalog import Catalog
from .catalog_entry import CatalogEntry
from .category import Category
from .create_endpoint_request import CreateEndpointRequest
from .create_event_type_request import CreateEventTypeRequest
from .create_event_type_request_example_type_0 import CreateEventTypeRequestExampleType0
from .create_event_type_request_schema_type_0 import CreateEventTypeRequestSchemaType0
from .create_portal_session_request import CreatePortalSessionRequest
from .delivery import Delivery
from .delivery_status import DeliveryStatus
from .destination_config import DestinationConfig
from .destination_type import DestinationType
from .destination_type_0 import DestinationType0
from .disabled_reason import DisabledReason
from .endpoint import Endpoint
from .endpoint_health import EndpointHealth
from .endpoint_ordering import EndpointOrdering
from .endpoint_page import EndpointPage
from .endpoint_with_secret import EndpointWithSecret
from .error import Error
from .error_code import ErrorCode
from .error_detail import ErrorDetail
from .estimate import Estimate
from .estimate_item import EstimateItem
from .estimate_item_provider import EstimateItemProvider
from .estimate_line import EstimateLine
from .estimator_error import EstimatorError
from .event import Event
from .event_data import EventData
from .event_page import EventPage
from .event_status import EventStatus
from .event_type import EventType
from .event_type_example_type_0 import EventTypeExampleType0
from .event_type_page import EventTypePage
from .event_type_schema_type_0 import EventTypeSchemaType0
from .event_with_deliveries import EventWithDeliveries
from .fifo_queue import FifoQueue
from .get_api_cost_estimator_category import GetApiCostEstimatorCategory
from .get_api_cost_estimator_provider import GetApiCostEstimatorProvider
from .health import Health
from .health_checks import HealthChecks
from .health_state import HealthState
from .kafka_destination import KafkaDestination
from .kafka_destination_config import KafkaDestinationConfig
from .kafka_destination_credentials import KafkaDestinationCredentials
from .kafka_destination_type import KafkaDestinationType
from .kafka_sasl_mechanism import KafkaSaslMechanism
from .portal_session import PortalSession
from .portal_sessions_revoked import PortalSessionsRevoked
from .portal_settings import PortalSettings
from .post_api_cost_estimator_body import PostApiCostEstimatorBody
from .price_unit import PriceUnit
from .provider import Provider
from .rabbit_mq_destination import RabbitMqDestination
from .rabbit_mq_destination_config import RabbitMqDestinationConfig
from .rabbit_mq_destination_credentials import RabbitMqDestinationCredentials
from .rabbit_mq_destination_type import RabbitMqDestinationType
from .recover_request import RecoverRequest
from .recovery import Recovery
from .retry_now_request import RetryNowRequest
from .retry_now_result import RetryNowResult
from .rotate_secret_request import RotateSecretRequest
from .secret import Secret
from .secret_in_grace import SecretInGrace
from .send_event_request import SendEventRequest
from .sent_event import SentEvent
from .sqs_destination import SqsDestination
from .sqs_destination_config import SqsDestinationConfig
from .sqs_destination_credentials import SqsDestinationCredentials
from .sqs_destination_type import SqsDestinationType
from .tenant import Tenant
from .tenant_page import TenantPage
from .update_endpoint_request import UpdateEndpointRequest
from .update_event_type_request import UpdateEventTypeRequest
from .update_event_type_request_example_type_0 import UpdateEventTypeRequestExampleType0
from .update_event_type_request_schema_type_0 import UpdateEventTypeRequestSchemaType0
from .update_portal_settings_request import UpdatePortalSettingsRequest

__all__ = (
    "Attempt",
    "Catalog",
    "CatalogEntry",
    "Category",
    "CreateEndpointRequest",
    "CreateEventTypeRequest",
    "CreateEventTypeRequestExampleType0",
    "CreateEventTypeRequestSchemaType0",
    "CreatePortalSessionRequest",
    "Delivery",
    "DeliveryStatus",
    "DestinationConfig",
    "DestinationType",
    "DestinationType0",
    "DisabledReason",
    "Endpoint",
    "EndpointHealth",
    "EndpointOrdering",
    "EndpointPage",
    "EndpointWithSecret",
    "Error",
    "ErrorCode",
    "ErrorDetail",
    "Estimate",
    "EstimateItem",
    "EstimateItemProvider",
    "EstimateLine",
    "EstimatorError",
    "Event",
    "EventData",
    "EventPage",
    "EventStatus",
    "EventType",
    "EventTypeExampleType0",
    "EventTypePage",
    "EventTypeSchemaType0",
    "EventWithDeliveries",
    "FifoQueue",
    "GetApiCostEstimatorCategory",
    "GetApiCostEstimatorProvider",
    "Health",
    "HealthChecks",
    "HealthState",
    "KafkaDestination",
    "KafkaDestinationConfig",
    "KafkaDestinationCredentials",
    "KafkaDestinationType",
    "KafkaSaslMechanism",
    "PortalSession",
    "PortalSessionsRevoked",
    "PortalSettings",
    "PostApiCostEstimatorBody",
    "PriceUnit",
    "Provider",
    "RabbitMqDestination",
    "RabbitMqDestinationConfig",
    "RabbitMqDestinationCredentials",
    "RabbitMqDestinationType",
    "RecoverRequest",
    "Recovery",
    "RetryNowRequest",
    "RetryNowResult",
    "RotateSecretRequest",
    "Secret",
    "SecretInGrace",
    "SendEventRequest",
    "SentEvent",
    "SqsDestination",
    "SqsDestinationConfig",
    "SqsDestinationCredentials",
    "SqsDestinationType",
    "Tenant",
    "TenantPage",
    "UpdateEndpointRequest",
    "UpdateEventTypeRequest",
    "UpdateEventTypeRequestExampleType0",
    "UpdateEventTypeRequestSchemaType0",
    "UpdatePortalSettingsRequest",
)
