import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tapp_bot.proto.tapp.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RegisterBotRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ("bot_id", "token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    token: str
    def __init__(self, bot_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class RotateBotTokenRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RotateBotTokenResponse(_message.Message):
    __slots__ = ("token", "disconnected")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    DISCONNECTED_FIELD_NUMBER: _ClassVar[int]
    token: str
    disconnected: int
    def __init__(self, token: _Optional[str] = ..., disconnected: _Optional[int] = ...) -> None: ...

class RevokeBotTokenRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RevokeBotTokenResponse(_message.Message):
    __slots__ = ("disconnected",)
    DISCONNECTED_FIELD_NUMBER: _ClassVar[int]
    disconnected: int
    def __init__(self, disconnected: _Optional[int] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("bot_id", "name", "created", "connected")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    created: _timestamp_pb2.Timestamp
    connected: bool
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., connected: _Optional[bool] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ...) -> None: ...

class SessionInfo(_message.Message):
    __slots__ = ("session_id", "bot_name", "version", "capacity", "games", "connected", "since")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    bot_name: str
    version: str
    capacity: int
    games: int
    connected: bool
    since: _timestamp_pb2.Timestamp
    def __init__(self, session_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., version: _Optional[str] = ..., capacity: _Optional[int] = ..., games: _Optional[int] = ..., connected: _Optional[bool] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListSessionsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListSessionsResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[SessionInfo]
    def __init__(self, sessions: _Optional[_Iterable[_Union[SessionInfo, _Mapping]]] = ...) -> None: ...

class StartMatchRequest(_message.Message):
    __slots__ = ("bots", "rules", "deals", "seed", "duplicate", "deals_text", "time_control", "format", "rounds")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    DEALS_TEXT_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    rules: str
    deals: int
    seed: int
    duplicate: bool
    deals_text: str
    time_control: _game_pb2.TimeControl
    format: str
    rounds: int
    def __init__(self, bots: _Optional[_Iterable[str]] = ..., rules: _Optional[str] = ..., deals: _Optional[int] = ..., seed: _Optional[int] = ..., duplicate: _Optional[bool] = ..., deals_text: _Optional[str] = ..., time_control: _Optional[_Union[_game_pb2.TimeControl, _Mapping]] = ..., format: _Optional[str] = ..., rounds: _Optional[int] = ...) -> None: ...

class StartMatchResponse(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class MatchSummary(_message.Message):
    __slots__ = ("match_id", "status", "rules", "bots", "deals_planned", "deals_played", "net", "started", "finished", "forfeited")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    DEALS_PLANNED_FIELD_NUMBER: _ClassVar[int]
    DEALS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    status: str
    rules: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    deals_planned: int
    deals_played: int
    net: _containers.RepeatedScalarFieldContainer[int]
    started: _timestamp_pb2.Timestamp
    finished: _timestamp_pb2.Timestamp
    forfeited: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_id: _Optional[str] = ..., status: _Optional[str] = ..., rules: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., deals_planned: _Optional[int] = ..., deals_played: _Optional[int] = ..., net: _Optional[_Iterable[int]] = ..., started: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., finished: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., forfeited: _Optional[_Iterable[str]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("bot", "limit")
    BOT_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    limit: int
    def __init__(self, bot: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchSummary]
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchSummary, _Mapping]]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id", "first_deal", "limit")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEAL_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    first_deal: int
    limit: int
    def __init__(self, match_id: _Optional[str] = ..., first_deal: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class DealSummary(_message.Message):
    __slots__ = ("deal_number", "seating", "deal", "settlement", "in_play", "group")
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEATING_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    IN_PLAY_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    deal_number: int
    seating: _containers.RepeatedScalarFieldContainer[str]
    deal: str
    settlement: _game_pb2.Settlement
    in_play: bool
    group: int
    def __init__(self, deal_number: _Optional[int] = ..., seating: _Optional[_Iterable[str]] = ..., deal: _Optional[str] = ..., settlement: _Optional[_Union[_game_pb2.Settlement, _Mapping]] = ..., in_play: _Optional[bool] = ..., group: _Optional[int] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match", "deals", "more", "next_deal")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_DEAL_FIELD_NUMBER: _ClassVar[int]
    match: MatchSummary
    deals: _containers.RepeatedCompositeFieldContainer[DealSummary]
    more: bool
    next_deal: int
    def __init__(self, match: _Optional[_Union[MatchSummary, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[DealSummary, _Mapping]]] = ..., more: _Optional[bool] = ..., next_deal: _Optional[int] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class WatchMatchResponse(_message.Message):
    __slots__ = ("game_id", "deal_number", "event", "settlement", "match_finished")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    MATCH_FINISHED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    deal_number: int
    event: _game_pb2.GameEvent
    settlement: _game_pb2.Settlement
    match_finished: bool
    def __init__(self, game_id: _Optional[str] = ..., deal_number: _Optional[int] = ..., event: _Optional[_Union[_game_pb2.GameEvent, _Mapping]] = ..., settlement: _Optional[_Union[_game_pb2.Settlement, _Mapping]] = ..., match_finished: _Optional[bool] = ...) -> None: ...
