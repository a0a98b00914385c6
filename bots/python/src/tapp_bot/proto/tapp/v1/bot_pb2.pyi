import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tapp_bot.proto.tapp.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ConnectRequest(_message.Message):
    __slots__ = ("hello", "answer")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    answer: Answer
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class ConnectResponse(_message.Message):
    __slots__ = ("seq", "welcome", "game_started", "event", "decision_request", "answer_rejected", "fallback", "game_ended", "snapshot", "going_away")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    DECISION_REQUEST_FIELD_NUMBER: _ClassVar[int]
    ANSWER_REJECTED_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    GOING_AWAY_FIELD_NUMBER: _ClassVar[int]
    seq: int
    welcome: Welcome
    game_started: GameStarted
    event: EventNotice
    decision_request: DecisionRequest
    answer_rejected: AnswerRejected
    fallback: Fallback
    game_ended: GameEnded
    snapshot: Snapshot
    going_away: GoingAway
    def __init__(self, seq: _Optional[int] = ..., welcome: _Optional[_Union[Welcome, _Mapping]] = ..., game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., event: _Optional[_Union[EventNotice, _Mapping]] = ..., decision_request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., answer_rejected: _Optional[_Union[AnswerRejected, _Mapping]] = ..., fallback: _Optional[_Union[Fallback, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., snapshot: _Optional[_Union[Snapshot, _Mapping]] = ..., going_away: _Optional[_Union[GoingAway, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("name", "version", "capacity", "resume_token", "last_seq", "stream_events")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    RESUME_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    STREAM_EVENTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    capacity: int
    resume_token: str
    last_seq: int
    stream_events: bool
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., capacity: _Optional[int] = ..., resume_token: _Optional[str] = ..., last_seq: _Optional[int] = ..., stream_events: _Optional[bool] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("session_id", "resume_token", "resumed", "arena_version", "grace")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    RESUME_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    ARENA_VERSION_FIELD_NUMBER: _ClassVar[int]
    GRACE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    resume_token: str
    resumed: bool
    arena_version: str
    grace: _duration_pb2.Duration
    def __init__(self, session_id: _Optional[str] = ..., resume_token: _Optional[str] = ..., resumed: _Optional[bool] = ..., arena_version: _Optional[str] = ..., grace: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("game_id", "match_id", "deal_number", "rules", "seat", "players", "time_control", "hand", "deal_commitment")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEAL_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    match_id: str
    deal_number: int
    rules: str
    seat: int
    players: _containers.RepeatedScalarFieldContainer[str]
    time_control: _game_pb2.TimeControl
    hand: _containers.RepeatedScalarFieldContainer[str]
    deal_commitment: str
    def __init__(self, game_id: _Optional[str] = ..., match_id: _Optional[str] = ..., deal_number: _Optional[int] = ..., rules: _Optional[str] = ..., seat: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., time_control: _Optional[_Union[_game_pb2.TimeControl, _Mapping]] = ..., hand: _Optional[_Iterable[str]] = ..., deal_commitment: _Optional[str] = ...) -> None: ...

class EventNotice(_message.Message):
    __slots__ = ("game_id", "events")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameEvent]
    def __init__(self, game_id: _Optional[str] = ..., events: _Optional[_Iterable[_Union[_game_pb2.GameEvent, _Mapping]]] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("game_id", "request_id", "decision", "legal", "deadline", "overage_left", "observation", "events")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    OVERAGE_LEFT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    request_id: str
    decision: _game_pb2.Decision
    legal: _containers.RepeatedScalarFieldContainer[str]
    deadline: _timestamp_pb2.Timestamp
    overage_left: _duration_pb2.Duration
    observation: _game_pb2.Observation
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameEvent]
    def __init__(self, game_id: _Optional[str] = ..., request_id: _Optional[str] = ..., decision: _Optional[_Union[_game_pb2.Decision, str]] = ..., legal: _Optional[_Iterable[str]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., overage_left: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.GameEvent, _Mapping]]] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("game_id", "request_id", "action", "think_time")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    THINK_TIME_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    request_id: str
    action: str
    think_time: _duration_pb2.Duration
    def __init__(self, game_id: _Optional[str] = ..., request_id: _Optional[str] = ..., action: _Optional[str] = ..., think_time: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class AnswerRejected(_message.Message):
    __slots__ = ("game_id", "request_id", "rule_id", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RULE_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    request_id: str
    rule_id: str
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., request_id: _Optional[str] = ..., rule_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class Fallback(_message.Message):
    __slots__ = ("game_id", "request_id", "action", "strikes", "forfeited")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    request_id: str
    action: str
    strikes: int
    forfeited: bool
    def __init__(self, game_id: _Optional[str] = ..., request_id: _Optional[str] = ..., action: _Optional[str] = ..., strikes: _Optional[int] = ..., forfeited: _Optional[bool] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("game_id", "reveal", "settlement", "aborted", "events")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    ABORTED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    reveal: _game_pb2.Reveal
    settlement: _game_pb2.Settlement
    aborted: bool
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameEvent]
    def __init__(self, game_id: _Optional[str] = ..., reveal: _Optional[_Union[_game_pb2.Reveal, _Mapping]] = ..., settlement: _Optional[_Union[_game_pb2.Settlement, _Mapping]] = ..., aborted: _Optional[bool] = ..., events: _Optional[_Iterable[_Union[_game_pb2.GameEvent, _Mapping]]] = ...) -> None: ...

class Snapshot(_message.Message):
    __slots__ = ("games",)
    class Game(_message.Message):
        __slots__ = ("started", "observation", "pending")
        STARTED_FIELD_NUMBER: _ClassVar[int]
        OBSERVATION_FIELD_NUMBER: _ClassVar[int]
        PENDING_FIELD_NUMBER: _ClassVar[int]
        started: GameStarted
        observation: _game_pb2.Observation
        pending: DecisionRequest
        def __init__(self, started: _Optional[_Union[GameStarted, _Mapping]] = ..., observation: _Optional[_Union[_game_pb2.Observation, _Mapping]] = ..., pending: _Optional[_Union[DecisionRequest, _Mapping]] = ...) -> None: ...
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[Snapshot.Game]
    def __init__(self, games: _Optional[_Iterable[_Union[Snapshot.Game, _Mapping]]] = ...) -> None: ...

class GoingAway(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...
