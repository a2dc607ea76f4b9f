from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.kafka_sasl_mechanism import KafkaSaslMechanism
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="KafkaDestinationConfig")



@_attrs_define
class KafkaDestinationConfig:
    """ 
        Attributes:
            brokers (list[str]): Bootstrap servers, `host:port`. Example: ['kafka-1.example.com:9093'].
            topic (str): The topic every message is produced to (it must exist unless the cluster creates topics on first
                use).
            tls (bool | Unset): TLS to every broker (default true; false only where DELIVERY_ALLOW_PRIVATE_NETWORKS is on).
                Default: True.
            sasl_mechanism (KafkaSaslMechanism | None | Unset): SASL with `credentials.username` and `password`; null (the
                default): none.
     """

    brokers: list[str]
    topic: str
    tls: bool | Unset = True
    sasl_mechanism: KafkaSaslMechanism | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        brokers = self.brokers



        topic = self.topic

        tls = self.tls

        sasl_mechanism: None | str | Unset
        if isinstance(self.sasl_mechanism, Unset):
            sasl_mechanism = UNSET
        elif isinstance(self.sasl_mechanism, KafkaSaslMechanism):
            sasl_mechanism = self.sasl_mechanism.value
        else:
            sasl_mechanism = self.sasl_mechanism


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "brokers": brokers,
            "topic": topic,
        })
        if tls is not UNSET:
            field_dict["tls"] = tls
        if sasl_mechanism is not UNSET:
            field_dict["sasl_mechanism"] = sasl_mechanism

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        brokers = cast(list[str], d.pop("brokers"))


        topic = d.pop("topic")

        tls = d.pop("tls", UNSET)

        def _parse_sasl_mechanism(data: object) -> KafkaSaslMechanism | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sasl_mechanism_type_0 = KafkaSaslMechanism(data)



                return sasl_mechanism_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(KafkaSaslMechanism | None | Unset, data)

        sasl_mechanism = _parse_sasl_mechanism(d.pop("sasl_mechanism", UNSET))


        kafka_destination_config = cls(
            brokers=brokers,
            topic=topic,
            tls=tls,
            sasl_mechanism=sasl_mechanism,
        )

        return kafka_destination_config

