"""Tapp Portable Notation (TPN): one deal per record, read and written as the arena does.

TPN is a small text format of tag pairs and moves, with a JSON Lines twin, specified in
docs/notation.md; ``tapp replay export --format tpn`` writes it, ``tapp replay verify
FILE.tpn`` checks it, ``tapp replay import FILE.tpn`` stores it. This module reads and writes
both forms byte for byte as the arena does, redacts a record to one seat's view, and replays
a record with the model:

    from tapp_bot.game import notation
    for rec in notation.read(open("night.tpn").read()):
        state = rec.state()                  # replayed and checked by the model
        mine = notation.redact(rec, seat=1)  # what seat 1 knew while the deal was played
        print(notation.write(mine))

A record made by the model: ``notation.from_state(state, seating=[...])``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import (
    ACTION_KINDS,
    ACTION_NAMES,
    CALL_BASE,
    HIDDEN_DISCARD,
    HIDDEN_GIVE,
    K_BID,
    K_CALL,
    K_CARD,
    K_PASS,
    K_PLAY,
)
from .cards import CARD_NAMES, SUIT_LETTERS, names_of, parse_card, parse_suit
from .deal import Deal
from .rules import CONTRACT_NAMES, OUVERT, RuleSet, parse_contract
from .state import Outcome, State

VERSION = "1"
JSON_FORMAT = "tpn/" + VERSION
UNKNOWN = "?"

_TAG_ORDER = ("TPN", "Match", "League", "Deal", "Group", "Rules", "Table", "Seating", "Dealer", "MatchFormat",
              "Duplicate", "Seed", "Commitment", "Nonce", "Pot", "ForcedRamsch", "Started", "View", "Hands", "Holder",
              "Result")


class NotationError(ValueError):
    """A record that is not TPN, or not a deal of its rule set; the message names what is wrong."""


@dataclass(eq=False)
class Record:
    """One deal in TPN (docs/notation.md). Card sets are bitmasks; a hand or tapp a redacted
    record does not show is ``None``; moves are ``(seat, code)`` with the hidden codes
    ``HIDDEN_DISCARD``/``HIDDEN_GIVE`` in a redacted record."""

    rules: RuleSet
    seating: list[str]
    hands: list[int | None]
    tapp: int | None
    moves: list[tuple[int, int]] = field(default_factory=list)
    match: str = ""
    league: str = ""
    deal: int = 0
    group: int = 0
    table: list[str] | None = None
    dealer: int = -1
    match_format: str = ""  # "deals" or "session" ("" unknown)
    deals: int = 0
    rounds: int = 0
    duplicate: bool | None = None
    seed: int | None = None
    commitment: str = ""
    nonce: str = ""
    pot: int = 0
    forced_ramsch: bool = False
    started: str = ""  # RFC 3339, as written
    view: int | None = None  # the seat of a redacted record
    holder: int | None = None  # who held the Rufer's called card (-1: the tapp); None without a call
    outcome: Outcome | None = None
    extra: list[tuple[str, str]] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        mine = {k: v for k, v in vars(self).items() if k != "outcome"}
        theirs = {k: v for k, v in vars(other).items() if k != "outcome"}
        out = [None if r.outcome is None else r.outcome.to_json() for r in (self, other)]
        return mine == theirs and out[0] == out[1]

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def redacted(self) -> bool:
        return self.view is not None

    def full_deal(self) -> Deal:
        """The deal as dealt; NotationError for a redacted record."""
        if self.tapp is None or any(h is None for h in self.hands):
            raise NotationError("the record does not show every hand (it is a seat's view)")
        return Deal(tuple(h for h in self.hands if h is not None), self.tapp)

    def state(self) -> State:
        """The deal replayed with the model to its last move (every move checked); for a
        record with a result the model's settlement must equal it."""
        st = State(self.rules, self.full_deal(), self.pot, self.forced_ramsch)
        for i, (seat, code) in enumerate(self.moves):
            if st.to_move != seat:
                raise NotationError(f"deal {self.deal}, move {i} ({move_text(seat, code)}): seat {st.to_move} is to move")
            try:
                st.apply(code)
            except ValueError as err:
                raise NotationError(f"deal {self.deal}, move {i} ({move_text(seat, code)}): {err}") from None
        if self.outcome is not None:
            if st.outcome is None:
                raise NotationError(f"deal {self.deal}: the moves end before the deal does")
            if st.outcome.to_json() != self.outcome.to_json():
                model = result_text(st.outcome, self.rules.players)
                raise NotationError(f"deal {self.deal}: the result differs from the model's {model}")
        return st


def move_text(seat: int, code: int) -> str:
    """A move as TPN writes it: ``"1:HA"``, a hidden lay-away or give ``"0:discard"``, ``"0:give"``."""
    return f"{seat}:{ACTION_NAMES[code]}"


def _parse_move(text: str, players: int) -> tuple[int, int]:
    from .actions import ActionSyntaxError, parse_move

    try:
        seat, code = parse_move(text)
    except ActionSyntaxError as err:
        raise NotationError(str(err)) from None
    if not 0 <= seat < players:
        raise NotationError(f"{text!r}: no seat {seat} at a table of {players}")
    return seat, code


def _yes_no(b: bool) -> str:
    return "yes" if b else "no"


def _ints(v: Iterable[int]) -> str:
    return ",".join(str(x) for x in v)


def result_text(o: Outcome, n: int) -> str:
    """A settlement as the Result tag writes it."""
    contract = CONTRACT_NAMES[o.contract] if o.contract else "-"
    trump = SUIT_LETTERS[o.trump] if 0 <= o.trump < 4 else "-"
    declarer = str(o.declarer) if o.declarer >= 0 else "-"
    return (f"contract={contract} trump={trump} declarer={declarer} tout={_yes_no(o.tout)} won={_yes_no(o.declarer_won)} "
            f"draw={_yes_no(o.draw)} points={_ints(o.points[:n])} tricks={_ints(o.tricks[:n])} "
            f"payoff={_ints(o.payoff[:n])} pot={o.pot_before},{o.pot_after}")


def _parse_result(v: str, n: int) -> Outcome:
    o = Outcome(n)
    fields: dict[str, str] = {}
    for item in v.split():
        key, eq, val = item.partition("=")
        if not eq:
            raise NotationError(f"Result: {item!r}: want key=value")
        if key in fields:
            raise NotationError(f"Result: {key} given twice")
        fields[key] = val
    want = ("contract", "trump", "declarer", "tout", "won", "draw", "points", "tricks", "payoff", "pot")
    for key in want:
        if key not in fields:
            raise NotationError(f"Result: no {key}= in the result")
    for key in fields:
        if key not in want:
            raise NotationError(f"Result: unknown field {key!r}")

    def ints(key: str, count: int) -> list[int]:
        parts = fields[key].split(",")
        if len(parts) != count:
            raise NotationError(f"Result: {key}: {len(parts)} numbers, want {count}")
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise NotationError(f"Result: {key}: not numbers") from None

    try:
        if fields["contract"] == "-":
            o.thrown_in = True
        else:
            o.contract = parse_contract(fields["contract"])
        o.trump = -1 if fields["trump"] == "-" else parse_suit(fields["trump"])
        o.declarer = -1 if fields["declarer"] == "-" else int(fields["declarer"])
    except ValueError as err:
        raise NotationError(f"Result: {err}") from None
    o.tout, o.declarer_won, o.draw = (_parse_yes_no(fields[k], "Result " + k) for k in ("tout", "won", "draw"))
    o.points, o.tricks, o.payoff = ints("points", n), ints("tricks", n), ints("payoff", n)
    o.pot_before, o.pot_after = ints("pot", 2)
    return o


def _parse_yes_no(v: str, what: str) -> bool:
    if v not in ("yes", "no"):
        raise NotationError(f"{what} {v!r}: want yes or no")
    return v == "yes"


def _quote(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cards_or_unknown(mask: int | None) -> str:
    return UNKNOWN if mask is None else " ".join(names_of(mask))


def _tags(r: Record) -> list[tuple[str, str]]:
    n = r.rules.players
    tags = [("TPN", VERSION)]
    if r.match:
        tags.append(("Match", r.match))
    if r.league:
        tags.append(("League", r.league))
    tags += [("Deal", str(r.deal)), ("Group", str(r.group)), ("Rules", str(r.rules))]
    if r.table is not None:
        tags.append(("Table", " ".join(r.table)))
    tags.append(("Seating", " ".join(r.seating)))
    if r.table is not None and r.dealer >= 0:
        tags.append(("Dealer", str(r.dealer)))
    if r.match_format == "deals":
        tags.append(("MatchFormat", f"deals {r.deals}"))
    elif r.match_format == "session":
        tags.append(("MatchFormat", f"session {r.rounds}"))
    if r.duplicate is not None:
        tags.append(("Duplicate", _yes_no(r.duplicate)))
    if r.seed is not None and not r.redacted:
        tags.append(("Seed", str(r.seed)))
    if r.commitment:
        tags.append(("Commitment", r.commitment))
    if r.nonce and not r.redacted:
        tags.append(("Nonce", r.nonce))
    if r.rules.pot:
        tags.append(("Pot", str(r.pot)))
    if r.forced_ramsch:
        tags.append(("ForcedRamsch", "yes"))
    if r.started:
        tags.append(("Started", r.started))
    if r.view is not None:
        tags.append(("View", str(r.view)))
    tags.append(("Hands", " | ".join([_cards_or_unknown(h) for h in r.hands[:n]] + [_cards_or_unknown(r.tapp)])))
    if r.holder is not None:
        tags.append(("Holder", "tapp" if r.holder < 0 else str(r.holder)))
    if r.outcome is not None and not r.redacted:
        tags.append(("Result", result_text(r.outcome, n)))
    return tags + list(r.extra)


def _move_lines(moves: list[tuple[int, int]], players: int) -> list[str]:
    lines: list[str] = []
    cur: list[str] = []
    kind = -1
    for seat, code in moves:
        k = ACTION_KINDS[code]
        g = 0 if k in (K_PASS, K_PLAY, K_BID) else 2 if k == K_CARD else 1
        if g != kind or (g == 2 and len(cur) == players):
            if cur:
                lines.append(" ".join(cur))
            cur = []
            kind = g
        cur.append(move_text(seat, code))
    if cur:
        lines.append(" ".join(cur))
    return lines


def write(r: Record) -> str:
    """The record in the text form (tags, a blank line, the moves, a blank line)."""
    _check_names(r)
    out = [f"[{name} {_quote(value)}]" for name, value in _tags(r)]
    out.append("")
    out += _move_lines(r.moves, r.rules.players)
    out.append("")
    return "\n".join(out) + "\n"


def _check_names(r: Record) -> None:
    if len(r.seating) != r.rules.players:
        raise NotationError(f"{len(r.seating)} bots seated at a table of {r.rules.players}")
    for name in list(r.seating) + list(r.table or []):
        if not name or any(c in name for c in ' \t\n"\\'):
            raise NotationError(f"bot name {name!r}: want a name without spaces or quotes")


def _names_or_none(mask: int | None) -> list[str] | None:
    return None if mask is None else names_of(mask)


def to_json(r: Record) -> str:
    """The record as one line of the JSON Lines twin (without the newline)."""
    _check_names(r)
    n = r.rules.players
    j: dict[str, Any] = {"format": JSON_FORMAT}
    if r.match:
        j["match"] = r.match
    if r.league:
        j["league"] = r.league
    j.update(deal=r.deal, group=r.group, rules=str(r.rules))
    if r.table:
        j["bots"] = list(r.table)
    j["seating"] = list(r.seating)
    if r.table is not None and r.dealer >= 0:
        j["dealer"] = {"seat": n - 1, "position": r.dealer, "bot": r.table[r.dealer]}
    if r.match_format == "deals":
        j["match_format"] = {"format": "deals", "deals": r.deals} if r.deals else {"format": "deals"}
    elif r.match_format == "session":
        j["match_format"] = {"format": "session", "rounds": r.rounds} if r.rounds else {"format": "session"}
    if r.duplicate is not None:
        j["duplicate"] = r.duplicate
    if r.seed is not None and not r.redacted:
        j["seed"] = str(r.seed)
    if r.commitment:
        j["commitment"] = r.commitment
    if r.nonce and not r.redacted:
        j["nonce"] = r.nonce
    j["options"] = {"pot": r.pot, "forced_ramsch": r.forced_ramsch}
    if r.started:
        j["started"] = r.started
    if r.view is not None:
        j["view"] = r.view
    j["hands"] = [_names_or_none(h) for h in r.hands[:n]]
    j["tapp"] = _names_or_none(r.tapp)
    if r.holder is not None:
        j["holder"] = r.holder
    j["moves"] = [move_text(s, c) for s, c in r.moves]
    if r.outcome is not None and not r.redacted:
        j["outcome"] = r.outcome.to_json()
    if r.extra:
        j["tags"] = [{"name": k, "value": v} for k, v in r.extra]
    return json.dumps(j, separators=(",", ":"))


# --- reading ---------------------------------------------------------------------------


def _parse_tag(line: str) -> tuple[str, str]:
    body = line[1:-1].strip() if line.endswith("]") else ""
    name, _, rest = body.partition(" ")
    rest = rest.strip()
    if not name or len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise NotationError(f"tag {line}: want [Name \"value\"]")
    if not (name[0].isascii() and name[0].isupper() and name.isalnum() and name.isascii()):
        raise NotationError(f"tag name {name!r}: letters and digits, starting with a capital")
    out = []
    inner = rest[1:-1]
    i = 0
    while i < len(inner):
        c = inner[i]
        if c == "\\" and i + 1 < len(inner):
            i += 1
            c = inner[i]
        elif c == '"':
            raise NotationError(f"tag {name}: a quote inside the value must be written \\\"")
        out.append(c)
        i += 1
    return name, "".join(out)


def _nonneg(v: str, what: str) -> int:
    try:
        x = int(v)
    except ValueError:
        x = -1
    if x < 0:
        raise NotationError(f"{what} {v!r}: want a number, 0 or more")
    return x


def _mask(names: Iterable[str], what: str) -> int:
    m = 0
    for name in names:
        try:
            c = parse_card(name)
        except ValueError as err:
            raise NotationError(f"{what}: {err}") from None
        if m >> c & 1:
            raise NotationError(f"{what}: card {CARD_NAMES[c]} appears twice")
        m |= 1 << c
    return m


def _from_tags(tags: list[tuple[str, str]], moves: list[str]) -> Record:
    seen: dict[str, str] = {}
    for name, value in tags:
        if name in seen:
            raise NotationError(f"tag {name} given twice")
        seen[name] = value
    if tags[0][0] != "TPN":
        raise NotationError(f"a record starts with [TPN \"{VERSION}\"], not [{tags[0][0]} …]")
    if seen["TPN"] != VERSION:
        raise NotationError(f"TPN version {seen['TPN']!r}: this reads version {VERSION}")
    for name in ("Rules", "Seating", "Hands"):
        if name not in seen:
            raise NotationError(f"no {name} tag (required)")
    try:
        rules = RuleSet.parse(seen["Rules"])
    except ValueError as err:
        raise NotationError(f"Rules: {err}") from None
    n = rules.players
    parts = seen["Hands"].split("|")
    if len(parts) != n + 1:
        raise NotationError(f"Hands: want {n} hands and the tapp separated by |, got {len(parts)} parts")
    masks = [None if p.strip() == UNKNOWN else _mask(p.split(), "Hands") for p in parts]
    r = Record(rules=rules, seating=seen["Seating"].split(), hands=masks[:n], tapp=masks[n])
    known = set(_TAG_ORDER)
    for name, v in tags:
        if name not in known:
            r.extra.append((name, v))
    r.match, r.league = seen.get("Match", ""), seen.get("League", "")
    r.deal = _nonneg(seen.get("Deal", "0"), "Deal")
    r.group = _nonneg(seen["Group"], "Group") if "Group" in seen else r.deal
    if "Table" in seen:
        r.table = seen["Table"].split()
    if "Dealer" in seen:
        r.dealer = _nonneg(seen["Dealer"], "Dealer")
    if "MatchFormat" in seen:
        kind, _, count = seen["MatchFormat"].partition(" ")
        if kind not in ("deals", "session"):
            raise NotationError(f"MatchFormat {seen['MatchFormat']!r}: want \"deals N\" or \"session ROUNDS\"")
        r.match_format = kind
        if kind == "deals":
            r.deals = _nonneg(count, "MatchFormat")
        else:
            r.rounds = _nonneg(count, "MatchFormat")
    if "Duplicate" in seen:
        r.duplicate = _parse_yes_no(seen["Duplicate"], "Duplicate")
    if "Seed" in seen:
        r.seed = _nonneg(seen["Seed"], "Seed")
    r.commitment, r.nonce = seen.get("Commitment", ""), seen.get("Nonce", "")
    if "Pot" in seen:
        r.pot = _nonneg(seen["Pot"], "Pot")
    if "ForcedRamsch" in seen:
        r.forced_ramsch = _parse_yes_no(seen["ForcedRamsch"], "ForcedRamsch")
    r.started = seen.get("Started", "")
    if "View" in seen:
        r.view = _nonneg(seen["View"], "View")
    if "Holder" in seen:
        r.holder = -1 if seen["Holder"] == "tapp" else _nonneg(seen["Holder"], "Holder")
    if "Result" in seen:
        r.outcome = _parse_result(seen["Result"], n)
    r.moves = [_parse_move(m, n) for m in moves]
    _validate(r)
    return r


def _from_json(line: str) -> Record:
    try:
        j = json.loads(line)
    except json.JSONDecodeError as err:
        raise NotationError(f"not a TPN JSON line: {err}") from None
    if not isinstance(j, dict) or j.get("format") != JSON_FORMAT:
        raise NotationError(f"format {j.get('format') if isinstance(j, dict) else None!r}: this reads {JSON_FORMAT!r}")
    allowed = {"format", "match", "league", "deal", "group", "rules", "bots", "seating", "dealer", "match_format",
               "duplicate", "seed", "commitment", "nonce", "options", "started", "view", "hands", "tapp", "holder",
               "moves", "outcome", "tags"}
    for key in j:
        if key not in allowed:
            raise NotationError(f"unknown field {key!r}")
    try:
        rules = RuleSet.parse(j["rules"])
        n = rules.players
        opts = j.get("options", {})
        r = Record(rules=rules, seating=list(j["seating"]),
                   hands=[None if h is None else _mask(h, f"hands[{i}]") for i, h in enumerate(j["hands"])],
                   tapp=None if j.get("tapp") is None else _mask(j["tapp"], "tapp"),
                   match=j.get("match", ""), league=j.get("league", ""), deal=j.get("deal", 0), group=j.get("group", 0),
                   table=j.get("bots"), commitment=j.get("commitment", ""), nonce=j.get("nonce", ""),
                   pot=opts.get("pot", 0), forced_ramsch=opts.get("forced_ramsch", False), started=j.get("started", ""),
                   view=j.get("view"), holder=j.get("holder"), duplicate=j.get("duplicate"))
        if len(r.hands) != n:
            raise NotationError(f"hands: {len(r.hands)} hands for {n} players")
        if "dealer" in j:
            r.dealer = j["dealer"]["position"]
        if "match_format" in j:
            f = j["match_format"]
            r.match_format, r.deals, r.rounds = f["format"], f.get("deals", 0), f.get("rounds", 0)
        if "seed" in j:
            r.seed = int(j["seed"])
        r.moves = [_parse_move(m, n) for m in j["moves"]]
        if "outcome" in j:
            r.outcome = _outcome_from_json(j["outcome"], n)
        r.extra = [(t["name"], t["value"]) for t in j.get("tags", [])]
    except (KeyError, TypeError, ValueError) as err:
        if isinstance(err, NotationError):
            raise
        raise NotationError(f"TPN JSON line: {err!r}") from None
    _validate(r)
    return r


def _outcome_from_json(j: dict[str, Any], n: int) -> Outcome:
    o = Outcome(n)
    o.thrown_in, o.declarer, o.tout = j["thrown_in"], j["declarer"], j["tout"]
    o.declarer_won, o.draw = j["declarer_won"], j["draw"]
    o.contract = parse_contract(j["contract"]) if j["contract"] else 0
    o.trump = parse_suit(j["trump"]) if j["trump"] else -1
    for key in ("points", "tricks", "payoff"):
        if len(j[key]) != n:
            raise NotationError(f"outcome.{key}: {len(j[key])} entries for {n} players")
    o.points, o.tricks, o.payoff = list(j["points"]), list(j["tricks"]), list(j["payoff"])
    o.pot_before, o.pot_after = j["pot_before"], j["pot_after"]
    return o


def _called_holder(r: Record) -> int | None:
    for _, code in r.moves:
        if ACTION_KINDS[code] == K_CALL:
            card = code - CALL_BASE
            for s, h in enumerate(r.hands):
                if h is not None and h >> card & 1:
                    return s
            return -1
    return None


def _validate(r: Record) -> None:
    n = r.rules.players
    if len(r.seating) != n:
        raise NotationError(f"Seating: {len(r.seating)} bots for a table of {n}")
    if r.table is not None:
        if len(r.table) != n:
            raise NotationError(f"Table: {len(r.table)} bots for a table of {n}")
        if not 0 <= r.dealer < n:
            raise NotationError(f"Dealer: table position {r.dealer} at a table of {n}")
        if r.table[r.dealer] != r.seating[n - 1]:
            raise NotationError(f"Dealer: table position {r.dealer} is {r.table[r.dealer]}, but the dealer's seat {n - 1} "
                                f"holds {r.seating[n - 1]} (R-SEAT-2)")
    else:
        r.dealer = -1
    if r.view is None:
        try:
            r.full_deal().validate(r.rules)
        except ValueError as err:
            raise NotationError(f"Hands: {err}") from None
        for i, (seat, code) in enumerate(r.moves):
            if code in (HIDDEN_DISCARD, HIDDEN_GIVE):
                raise NotationError(f"move {i} ({move_text(seat, code)}): a hidden card in a full record")
        holder = _called_holder(r)
        if r.holder is not None and r.holder != holder:
            raise NotationError(f"Holder: {r.holder}, but the cards say {holder}")
        r.holder = holder
        return
    if not 0 <= r.view < n:
        raise NotationError(f"View: seat {r.view} at a table of {n}")
    if r.hands[r.view] is None:
        raise NotationError(f"Hands: seat {r.view}'s own hand is not shown in its view")
    if r.seed is not None:
        raise NotationError("Seed: a redacted record carries no seed (it would reveal every card)")
    if r.nonce:
        raise NotationError("Nonce: a redacted record carries no nonce (with the commitment it would reveal the seed)")
    if r.outcome is not None:
        raise NotationError("Result: a redacted record carries no result (it depends on cards the seat did not see)")
    seen = 0
    for i, part in enumerate([*list(r.hands), r.tapp]):
        if part is None:
            continue
        what, want = ("the tapp", r.rules.tapp_size) if i == n else (f"seat {i}", r.rules.hand_size)
        if part.bit_count() != want:
            raise NotationError(f"Hands: {what} has {part.bit_count()} cards, want {want} (R-DEAL-1)")
        if part & ~r.rules.pack:
            raise NotationError(f"Hands: {what} holds cards not in the pack (R-CARD-4)")
        if part & seen:
            raise NotationError(f"Hands: {' '.join(names_of(part & seen))} is dealt twice")
        seen |= part


def read(text: str) -> Iterator[Record]:
    """Every record of a TPN text (text form or JSON Lines twin, or both); NotationError names
    the line of the first bad record."""
    tags: list[tuple[str, str]] = []
    moves: list[str] = []
    start = 0
    in_moves = False

    def emit() -> Record | None:
        if not tags:
            return None
        try:
            return _from_tags(tags, moves)
        except NotationError as err:
            raise NotationError(f"record at line {start}: {err}") from None

    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("{"):
            rec = emit()
            if rec is not None:
                yield rec
            tags, moves, in_moves = [], [], False
            try:
                yield _from_json(line)
            except NotationError as err:
                raise NotationError(f"record at line {no}: {err}") from None
            continue
        if line.startswith("["):
            name, value = _parse_tag(line)
            if tags and (in_moves or name == "TPN"):
                rec = emit()
                if rec is not None:
                    yield rec
                tags, moves, in_moves = [], [], False
            if not tags:
                start = no
            tags.append((name, value))
            continue
        line = line.split(";", 1)[0]
        if not tags:
            if line.strip():
                raise NotationError(f"line {no}: moves before the first record's tags")
            continue
        in_moves = True
        moves += line.split()
    rec = emit()
    if rec is not None:
        yield rec


def parse(text: str) -> Record:
    """Exactly one record."""
    recs = list(read(text))
    if len(recs) != 1:
        raise NotationError(f"{len(recs)} records, want one")
    return recs[0]


# --- making records ----------------------------------------------------------------------


def from_state(st: State, seating: list[str] | None = None, **tags: Any) -> Record:
    """A full record of a deal played with the model (to its end or not); ``tags`` sets any
    other field of :class:`Record` (``match=``, ``deal=``, ``seed=``, ``table=``, …)."""
    n = st.n
    r = Record(rules=st.rules, seating=list(seating or [f"seat{s}" for s in range(n)]), hands=list(st.deal_hands),
               tapp=st.deal_tapp, moves=list(st.history), pot=st.pot_in, forced_ramsch=st.forced_ramsch,
               outcome=st.outcome)
    for key, value in tags.items():
        if not hasattr(r, key):
            raise TypeError(f"from_state: no field {key!r}")
        setattr(r, key, value)
    if "group" not in tags:
        r.group = r.deal
    _validate(r)
    return r


def redact(r: Record, seat: int) -> Record:
    """The record as ``seat`` saw it while the deal was played: exactly its information set,
    from the model's observation of the replayed deal (as the arena's ``tapp replay export
    --seat``). See docs/notation.md, "Redacted records"."""
    if r.redacted:
        raise NotationError(f"the record is already seat {r.view}'s view")
    if not 0 <= seat < r.rules.players:
        raise NotationError(f"seat {seat} is not at a table of {r.rules.players}")
    st = r.state()
    obs = st.observe(seat)
    hands: list[int | None] = [None] * r.rules.players
    hands[seat] = obs.dealt
    d = obs.declarer
    if obs.contract == OUVERT and d >= 0 and obs.played[d]:
        hands[d] = obs.exposed | obs.played[d]  # laid open after his first card (R-MOD-OUVERT)
    return replace(
        r, view=seat, hands=hands, tapp=obs.tapp if obs.tapp else None, moves=list(obs.history), seed=None, nonce="",
        outcome=None, holder=(obs.called_holder if obs.called >= 0 else None), extra=list(r.extra),
    )


def cards_text(mask: int | None) -> str:
    """A card set as TPN writes it (``?`` for unknown)."""
    return _cards_or_unknown(mask)


__all__ = ["JSON_FORMAT", "VERSION", "NotationError", "Record", "cards_text", "from_state", "move_text", "parse", "read",
           "redact", "result_text", "to_json", "write"]
