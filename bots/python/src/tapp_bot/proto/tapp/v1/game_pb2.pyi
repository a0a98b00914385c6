import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Decision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_UNSPECIFIED: _ClassVar[Decision]
    DECISION_BID: _ClassVar[Decision]
    DECISION_CONTRACT: _ClassVar[Decision]
    DECISION_TRUMP: _ClassVar[Decision]
    DECISION_DISCARD: _ClassVar[Decision]
    DECISION_CALL: _ClassVar[Decision]
    DECISION_GIVE: _ClassVar[Decision]
    DECISION_TOUT: _ClassVar[Decision]
    DECISION_CARD: _ClassVar[Decision]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_DEALT: _ClassVar[EventKind]
    EVENT_KIND_BID: _ClassVar[EventKind]
    EVENT_KIND_CONTRACT: _ClassVar[EventKind]
    EVENT_KIND_THROW_IN: _ClassVar[EventKind]
    EVENT_KIND_TAPP_TAKEN: _ClassVar[EventKind]
    EVENT_KIND_DISCARD: _ClassVar[EventKind]
    EVENT_KIND_TRUMP: _ClassVar[EventKind]
    EVENT_KIND_CALL: _ClassVar[EventKind]
    EVENT_KIND_CALLED_CARD: _ClassVar[EventKind]
    EVENT_KIND_GIVE: _ClassVar[EventKind]
    EVENT_KIND_TOUT: _ClassVar[EventKind]
    EVENT_KIND_OUVERT_EXPOSED: _ClassVar[EventKind]
    EVENT_KIND_CARD: _ClassVar[EventKind]
    EVENT_KIND_TRICK_WON: _ClassVar[EventKind]
    EVENT_KIND_DEAL_END: _ClassVar[EventKind]
    EVENT_KIND_SETTLED: _ClassVar[EventKind]

class ClockScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLOCK_SCOPE_UNSPECIFIED: _ClassVar[ClockScope]
    CLOCK_SCOPE_GAME: _ClassVar[ClockScope]
    CLOCK_SCOPE_MATCH: _ClassVar[ClockScope]
DECISION_UNSPECIFIED: Decision
DECISION_BID: Decision
DECISION_CONTRACT: Decision
DECISION_TRUMP: Decision
DECISION_DISCARD: Decision
DECISION_CALL: Decision
DECISION_GIVE: Decision
DECISION_TOUT: Decision
DECISION_CARD: Decision
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_DEALT: EventKind
EVENT_KIND_BID: EventKind
EVENT_KIND_CONTRACT: EventKind
EVENT_KIND_THROW_IN: EventKind
EVENT_KIND_TAPP_TAKEN: EventKind
EVENT_KIND_DISCARD: EventKind
EVENT_KIND_TRUMP: EventKind
EVENT_KIND_CALL: EventKind
EVENT_KIND_CALLED_CARD: EventKind
EVENT_KIND_GIVE: EventKind
EVENT_KIND_TOUT: EventKind
EVENT_KIND_OUVERT_EXPOSED: EventKind
EVENT_KIND_CARD: EventKind
EVENT_KIND_TRICK_WON: EventKind
EVENT_KIND_DEAL_END: EventKind
EVENT_KIND_SETTLED: EventKind
CLOCK_SCOPE_UNSPECIFIED: ClockScope
CLOCK_SCOPE_GAME: ClockScope
CLOCK_SCOPE_MATCH: ClockScope

class GameEvent(_message.Message):
    __slots__ = ("index", "kind", "seat", "action", "card", "cards", "contract", "trump", "holder", "trick", "points", "tout", "hands", "discards", "payoff", "pot_after")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TOUT_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    PAYOFF_FIELD_NUMBER: _ClassVar[int]
    POT_AFTER_FIELD_NUMBER: _ClassVar[int]
    index: int
    kind: EventKind
    seat: int
    action: str
    card: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    contract: str
    trump: str
    holder: int
    trick: int
    points: int
    tout: bool
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    discards: _containers.RepeatedScalarFieldContainer[str]
    payoff: _containers.RepeatedScalarFieldContainer[int]
    pot_after: int
    def __init__(self, index: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., seat: _Optional[int] = ..., action: _Optional[str] = ..., card: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ..., holder: _Optional[int] = ..., trick: _Optional[int] = ..., points: _Optional[int] = ..., tout: _Optional[bool] = ..., hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., payoff: _Optional[_Iterable[int]] = ..., pot_after: _Optional[int] = ...) -> None: ...

class Hand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("leader", "cards", "winner", "points")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    winner: int
    points: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., winner: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("rules", "seat", "hand", "decision", "to_move", "bids", "declarer", "contract", "trump", "tout", "tapp", "discarded", "called", "called_holder", "called_in_tapp", "given", "exposed", "tricks", "current", "tricks_taken", "hand_sizes", "history", "dealt", "pot", "forced_ramsch", "voids", "played")
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TOUT_FIELD_NUMBER: _ClassVar[int]
    TAPP_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    CALLED_FIELD_NUMBER: _ClassVar[int]
    CALLED_HOLDER_FIELD_NUMBER: _ClassVar[int]
    CALLED_IN_TAPP_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    EXPOSED_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    TRICKS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    FORCED_RAMSCH_FIELD_NUMBER: _ClassVar[int]
    VOIDS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    rules: str
    seat: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    decision: Decision
    to_move: int
    bids: _containers.RepeatedCompositeFieldContainer[Move]
    declarer: int
    contract: str
    trump: str
    tout: bool
    tapp: _containers.RepeatedScalarFieldContainer[str]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    called: str
    called_holder: int
    called_in_tapp: bool
    given: str
    exposed: _containers.RepeatedScalarFieldContainer[str]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    current: Trick
    tricks_taken: _containers.RepeatedScalarFieldContainer[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    history: _containers.RepeatedCompositeFieldContainer[Move]
    dealt: _containers.RepeatedScalarFieldContainer[str]
    pot: int
    forced_ramsch: bool
    voids: _containers.RepeatedScalarFieldContainer[str]
    played: _containers.RepeatedCompositeFieldContainer[Hand]
    def __init__(self, rules: _Optional[str] = ..., seat: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., decision: _Optional[_Union[Decision, str]] = ..., to_move: _Optional[int] = ..., bids: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., declarer: _Optional[int] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ..., tout: _Optional[bool] = ..., tapp: _Optional[_Iterable[str]] = ..., discarded: _Optional[_Iterable[str]] = ..., called: _Optional[str] = ..., called_holder: _Optional[int] = ..., called_in_tapp: _Optional[bool] = ..., given: _Optional[str] = ..., exposed: _Optional[_Iterable[str]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., current: _Optional[_Union[Trick, _Mapping]] = ..., tricks_taken: _Optional[_Iterable[int]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., history: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., dealt: _Optional[_Iterable[str]] = ..., pot: _Optional[int] = ..., forced_ramsch: _Optional[bool] = ..., voids: _Optional[_Iterable[str]] = ..., played: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ...) -> None: ...

class Reveal(_message.Message):
    __slots__ = ("hands", "tapp", "discarded", "deal")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TAPP_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    tapp: _containers.RepeatedScalarFieldContainer[str]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    deal: str
    def __init__(self, hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., tapp: _Optional[_Iterable[str]] = ..., discarded: _Optional[_Iterable[str]] = ..., deal: _Optional[str] = ...) -> None: ...

class Settlement(_message.Message):
    __slots__ = ("thrown_in", "declarer", "contract", "trump", "tout", "declarer_won", "draw", "points", "tricks", "payoff", "pot_before", "pot_after")
    THROWN_IN_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TOUT_FIELD_NUMBER: _ClassVar[int]
    DECLARER_WON_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    PAYOFF_FIELD_NUMBER: _ClassVar[int]
    POT_BEFORE_FIELD_NUMBER: _ClassVar[int]
    POT_AFTER_FIELD_NUMBER: _ClassVar[int]
    thrown_in: bool
    declarer: int
    contract: str
    trump: str
    tout: bool
    declarer_won: bool
    draw: bool
    points: _containers.RepeatedScalarFieldContainer[int]
    tricks: _containers.RepeatedScalarFieldContainer[int]
    payoff: _containers.RepeatedScalarFieldContainer[int]
    pot_before: int
    pot_after: int
    def __init__(self, thrown_in: _Optional[bool] = ..., declarer: _Optional[int] = ..., contract: _Optional[str] = ..., trump: _Optional[str] = ..., tout: _Optional[bool] = ..., declarer_won: _Optional[bool] = ..., draw: _Optional[bool] = ..., points: _Optional[_Iterable[int]] = ..., tricks: _Optional[_Iterable[int]] = ..., payoff: _Optional[_Iterable[int]] = ..., pot_before: _Optional[int] = ..., pot_after: _Optional[int] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("per_decision", "overage", "max_strikes", "scope")
    PER_DECISION_FIELD_NUMBER: _ClassVar[int]
    OVERAGE_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    per_decision: _duration_pb2.Duration
    overage: _duration_pb2.Duration
    max_strikes: int
    scope: ClockScope
    def __init__(self, per_decision: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., overage: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., max_strikes: _Optional[int] = ..., scope: _Optional[_Union[ClockScope, str]] = ...) -> None: ...
