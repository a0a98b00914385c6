"""Determinization: full states consistent with one seat's observation, uniform and seeded.

A :class:`Sampler` deals the cards hidden from ``obs.seat`` at random subject to everything
the seat knows: its own hand and dealt hand, the cards played, the voids shown in play
(failing to follow; not trumping when void), every seat's hand size, the Frage tapp and
lay-away when the seat is the Frage declarer, the Rufer called card and its holder, the
given card where the seat knows it, and an exposed Ouvert hand. Bidding is not used as
evidence (as in engine Observation.Sample).

Every consistent deal is equally likely: the hidden cards are split over the places they can
be (the other hands, the tapp or lay-away) by first drawing how many cards of each suit go to
each place, with the exact number of deals each split allows as its weight (a small dynamic
program over the suits, computed once per observation), then shuffling each suit's cards over
its places. Without voids this is a plain shuffle. The Frage split of a declarer's cards into
hand and tapp, and an unknown Rufer give, are drawn uniformly too.

    sampler = Sampler(Observation.from_proto(request.observation), random.Random(seed))
    for _ in range(32):
        state = sampler.sample()        # a full State at the same point of play
"""

from __future__ import annotations

import random
from bisect import bisect_right

from .actions import (
    ACTION_KINDS,
    DISCARD_BASE,
    GIVE_BASE,
    HIDDEN_DISCARD,
    HIDDEN_GIVE,
    K_DISCARD,
    K_GIVE,
)
from .cards import SUIT_OF, cards_of
from .deal import Deal
from .observation import Observation
from .rules import FRAGE
from .state import PH_DONE, RuleError, State

_FACT = [1]
for _i in range(1, 40):
    _FACT.append(_FACT[-1] * _i)


class SampleError(ValueError):
    """The observation admits no deal (it contradicts itself)."""


class Sampler:
    """Draws full states consistent with an observation; build once per decision, sample many times.

    ``rng`` is a ``random.Random`` (seed it for reproducible samples); it defaults to
    ``random.Random(0)``, never the global generator.
    """

    def __init__(self, obs: Observation, rng: random.Random | None = None) -> None:
        self.obs = obs
        self.rng = rng if rng is not None else random.Random(0)
        self._template: State | None = None
        self._prepare()

    # --- the constant part ------------------------------------------------------------

    def _prepare(self) -> None:
        o = self.obs
        r = o.rules
        n = r.players
        me = o.seat
        if not 0 <= me < n:
            raise SampleError(f"sample: seat {me} is not at the table")
        d = o.declarer
        played = 0
        for s in range(n):
            played |= o.played[s]
        known = [0] * n
        known[me] = o.hand
        n_discards = sum(1 for _, a in o.history if ACTION_KINDS[a] == K_DISCARD)
        give_done = any(ACTION_KINDS[a] == K_GIVE for _, a in o.history)
        aside_size = r.tapp_size
        known_aside = 0
        frage = o.contract == FRAGE
        if frage:
            aside_size = n_discards
            if d == me:
                known_aside = o.discarded
        if o.called_in_tapp and o.called >= 0:
            known_aside |= 1 << o.called
        if o.exposed and d >= 0 and d != me:
            known[d] |= o.exposed
        c = o.called
        h = o.called_holder
        rufer = c >= 0 and h >= 0
        if rufer:
            if d != me and not o.played[d] >> c & 1:
                known[d] |= 1 << c
            if give_done and o.given >= 0 and h != me and not o.played[h] >> o.given & 1:
                known[h] |= 1 << o.given
        allk = 0
        for s in range(n):
            if s != me and known[s] & o.played[s]:
                raise SampleError("sample: inconsistent observation (known card already played)")
            allk |= known[s]
        unknown = r.pack & ~(played | allk | known_aside)
        slots: list[int] = []  # seat numbers, n for the aside pile
        caps: list[int] = []
        allow: list[int] = []
        for s in range(n):
            if s == me:
                if o.hand_sizes[s] != o.hand.bit_count():
                    raise SampleError("sample: hand size does not match the hand")
                continue
            slots.append(s)
            caps.append(o.hand_sizes[s] - known[s].bit_count())
            allow.append(~o.voids[s] & 0xF)
        slots.append(n)
        caps.append(aside_size - known_aside.bit_count())
        allow.append(0xF)
        if any(cp < 0 for cp in caps):
            raise SampleError("sample: inconsistent observation (more known cards than room)")
        ucards = cards_of(unknown)
        if sum(caps) != len(ucards):
            raise SampleError(f"sample: {len(ucards)} hidden cards for {sum(caps)} places")
        by_suit: list[list[int]] = [[], [], [], []]
        for card in ucards:
            by_suit[SUIT_OF[card]].append(card)
        self._n, self._me, self._d, self._h, self._c = n, me, d, h, c
        self._frage, self._rufer, self._give_done = frage, rufer, give_done
        self._known, self._known_aside = known, known_aside
        self._slots, self._caps = slots, caps
        self._ucards = ucards
        self._by_suit = [(su, cards) for su, cards in enumerate(by_suit) if cards]
        present = 0
        for su, _ in self._by_suit:
            present |= 1 << su
        self._free = all(a & present == present for a in allow)
        self._allow = allow
        self._table: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[tuple[int, ...]]]] = {}
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        if not self._free and self._count(0, tuple(caps)) == 0:
            raise SampleError("sample: no deal fits the observation (voids and hand sizes conflict)")
        # Hidden moves to fill in, and where the template's history has them.
        self._hidden = [i for i, (_, a) in enumerate(o.history) if a in (HIDDEN_DISCARD, HIDDEN_GIVE)]

    def _splits(self, i: int, rem: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every way to put suit i's cards into the places allowing it, within rem."""
        su, cards = self._by_suit[i]
        k = len(cards)
        places = [j for j in range(len(rem)) if self._allow[j] >> su & 1 and rem[j] > 0]
        out: list[tuple[int, ...]] = []
        y = [0] * len(rem)

        def rec(pi: int, left: int) -> None:
            if pi == len(places) - 1:
                j = places[pi]
                if left <= rem[j]:
                    y[j] = left
                    out.append(tuple(y))
                    y[j] = 0
                return
            j = places[pi]
            for take in range(min(left, rem[j]) + 1):
                y[j] = take
                rec(pi + 1, left - take)
            y[j] = 0

        if places:
            rec(0, k)
        return out

    def _count(self, i: int, rem: tuple[int, ...]) -> int:
        """The number of ways to deal suits i.. into the room rem (and prepare their tables)."""
        if i == len(self._by_suit):
            return 1 if not any(rem) else 0
        key = (i, rem)
        w = self._ways.get(key)
        if w is not None:
            return w
        k = len(self._by_suit[i][1])
        cum: list[int] = []
        ys: list[tuple[int, ...]] = []
        total = 0
        for y in self._splits(i, rem):
            sub = self._count(i + 1, tuple(a - b for a, b in zip(rem, y, strict=True)))
            if sub == 0:
                continue
            ways = _FACT[k]
            for v in y:
                ways //= _FACT[v]
            total += ways * sub
            cum.append(total)
            ys.append(y)
        self._ways[key] = total
        self._table[key] = (cum, ys)
        return total

    def count(self) -> int:
        """How many ways the hidden cards can lie among the places (the other hands and the aside pile)."""
        if self._free:
            ways = _FACT[len(self._ucards)]
            for cp in self._caps:
                ways //= _FACT[cp]
            return ways
        return self._count(0, tuple(self._caps))

    # --- one sample -------------------------------------------------------------------

    def _assign(self) -> list[int]:
        """The hidden cards by place (bitmasks, in the order of self._slots)."""
        rng = self.rng
        out = [0] * len(self._caps)
        if self._free:
            cards = self._ucards[:]
            rng.shuffle(cards)
            pos = 0
            for j, cp in enumerate(self._caps):
                m = 0
                for card in cards[pos:pos + cp]:
                    m |= 1 << card
                out[j] = m
                pos += cp
            return out
        rem = tuple(self._caps)
        for i, (_, cards) in enumerate(self._by_suit):
            cum, ys = self._table[(i, rem)]
            y = ys[bisect_right(cum, rng.randrange(cum[-1]))]
            cards = cards[:]
            rng.shuffle(cards)
            pos = 0
            for j, take in enumerate(y):
                for card in cards[pos:pos + take]:
                    out[j] |= 1 << card
                pos += take
            rem = tuple(a - b for a, b in zip(rem, y, strict=True))
        return out

    def sample_deal(self) -> tuple[Deal, list[int], int, int]:
        """One consistent deal as dealt, with the current hands, the aside pile and the given card (-1)."""
        o = self.obs
        n, me, d, h, c = self._n, self._me, self._d, self._h, self._c
        assigned = self._assign()
        cur = self._known[:]
        aside = self._known_aside
        for j, s in enumerate(self._slots):
            if s == n:
                aside |= assigned[j]
            else:
                cur[s] |= assigned[j]
        hands = [cur[s] | o.played[s] for s in range(n)]
        tapp = aside
        given = -1
        rng = self.rng
        if self._frage:
            pool = hands[d] | aside
            if d == me:
                tapp = o.tapp
            else:
                pc = cards_of(pool)
                tapp = 0
                for card in rng.sample(pc, o.rules.tapp_size):
                    tapp |= 1 << card
            hands[d] = pool & ~tapp
        elif self._rufer:
            if self._give_done:
                given = o.given
                if given < 0:
                    given = rng.choice(cards_of(hands[h]))
                hands[d] = (hands[d] & ~(1 << c)) | 1 << given
                hands[h] = (hands[h] & ~(1 << given)) | 1 << c
            else:
                hands[d] &= ~(1 << c)
                hands[h] |= 1 << c
        return Deal(tuple(hands), tapp), cur, aside, given

    def _replay(self, deal: Deal, aside: int, given: int) -> State:
        o = self.obs
        st = State(o.rules, deal, o.pot, o.forced_ramsch)
        fill = cards_of(aside & ~o.discarded)
        for i, (seat, a) in enumerate(o.history):
            if a == HIDDEN_DISCARD:
                if not fill:
                    raise SampleError("sample: more hidden discards than laid-away cards")
                a = DISCARD_BASE + fill.pop(0)
            elif a == HIDDEN_GIVE:
                a = GIVE_BASE + given
            if st.to_move != seat:
                raise SampleError(f"sample: move {i} ({seat}): seat {seat} is not to move")
            try:
                st.apply(a)
            except RuleError as err:
                raise SampleError(f"sample: move {i} does not replay: {err}") from None
        return st

    def sample(self) -> State:
        """One full State consistent with the observation, at the same point of play.

        The first sample replays the history (checked); later ones copy that state and put
        the new cards in, which is what makes a sample cheap.
        """
        o = self.obs
        if o.reveal is not None:  # a finished deal seen from a full state: nothing is hidden
            return self._replay(o.reveal, o.reveal_discards, o.given)
        deal, cur, aside, given = self.sample_deal()
        t = self._template
        if t is None or t.phase == PH_DONE:
            st = self._replay(deal, aside, given)
            self._template = st
            return st.copy()
        st = t.copy()
        st.deal_hands = deal.hands
        st.deal_tapp = deal.tapp
        st.hands = cur
        cur[self._me] = o.hand
        if t.tapp:
            st.tapp = deal.tapp
        if self._frage:
            st.discards = aside
        if given >= 0:
            st.given = given
        if self._hidden:
            fill = cards_of(aside & ~o.discarded)
            hist = st.history
            for i in self._hidden:
                seat = hist[i][0]
                if o.history[i][1] == HIDDEN_DISCARD:
                    hist[i] = (seat, DISCARD_BASE + fill.pop(0))
                else:
                    hist[i] = (seat, GIVE_BASE + given)
        return st
