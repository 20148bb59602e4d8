"""The zipai ``GAME`` object: spec, options, and the engine protocol of ``engine.core.Game``.

Error codes (``IllegalAction``): ``game_over``, ``not_your_turn``, ``card_not_in_hand``,
``kan_locked`` (a card of a 坎 cannot be discarded), ``chou`` (吃/碰 of a 臭 card),
``bi_required`` (下比 not possible), ``not_allowed`` (anything else not listed as legal).
``InvalidAction``: ``malformed_action``, ``unknown_action``, ``unknown_card``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import (
    Event,
    GameBase,
    GameSpec,
    IllegalAction,
    InvalidAction,
    OptionSpec,
    Outcome,
    Rng,
    check_action,
)
from engine.zipai import flow
from engine.zipai import state as st
from engine.zipai.cards import FACE, sort_cards
from engine.zipai.claims import copy_chi
from engine.zipai.groups import shape
from engine.zipai.redeal import redeal
from engine.zipai.sample import sample
from engine.zipai.view import view as render_view

SEATS = 3
ACTIONS_PER_HAND = 400   # generous bound: 19 draws and ≤ 60 discards, each with ≤ 3 answers
MAX_HANDS = 16
OPTIONS = (
    OptionSpec("hands", "int", 8, minimum=1, maximum=MAX_HANDS, label="Hands (盘) in the match"),
    OptionSpec("stake", "int", 1, minimum=1, maximum=10, label="Stake (难度)"),
    OptionSpec("turn_seconds", "int", 20, minimum=5, maximum=120, label="Seconds per decision"),
)
SPEC = GameSpec(
    id="zipai",
    titles={"en": "Zipai (Guilin word cards)", "zh": "字牌", "ja": "字牌（ズーパイ）"},
    min_players=SEATS, max_players=SEATS, hidden_information=True,
    max_length=ACTIONS_PER_HAND * MAX_HANDS, options=OPTIONS,
)
_FIELDS: dict[str, dict[str, type]] = {
    "discard": {"card": str}, "hu": {}, "pass": {}, "peng": {}, "kaiduo": {},
    "chi": {"cards": list, "bi": list},
}


def _check_card(card: Any) -> str:
    if not isinstance(card, str) or card not in FACE:
        raise InvalidAction("unknown_card", f"{card!r} is not a zipai card code.")
    return card


def _chi_form(cards: list[str], bi: list[list[str]]) -> dict[str, Any]:
    """Return the canonical 吃 action of known card codes: ``cards`` in card order, each 比
    group in card order and the groups sorted."""
    return {"type": "chi", "cards": sort_cards(cards), "bi": sorted(sort_cards(g) for g in bi)}


def normalise(action: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``action`` checked for shape and put in the canonical form ``legal_actions`` uses.

    Raises:
        InvalidAction: ``malformed_action``/``unknown_action``/``unknown_card``.
    """
    kind = check_action(action, _FIELDS)
    if kind == "discard":
        return {"type": kind, "card": _check_card(action["card"])}
    if kind == "chi":
        cards = action["cards"]
        bi = action["bi"]
        if len(cards) != 2 or any(not isinstance(g, list) or len(g) != 3 for g in bi):
            raise InvalidAction("malformed_action", "chi needs two cards and 比 groups of three.")
        return _chi_form([_check_card(c) for c in cards], [[_check_card(c) for c in g] for g in bi])
    return {"type": kind}


class ZipaiGame(GameBase):
    """字牌 (Guilin zipai) for three seats; see ``docs/rules/zipai.md`` and the binding rulings.

    Options: ``hands``, ``stake``, ``turn_seconds`` (``GameBase.validate_options``)."""

    spec = SPEC

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> st.Match:
        """Return the match after the first deal; hand 1's dealer is drawn from the seed.

        Raises:
            ValueError: if ``players`` is not 3.
        """
        if players != SEATS:
            raise ValueError("Zipai is played by exactly 3 players.")
        dealer = Rng.derive(seed, "dealer").randbelow(SEATS)
        placeholder = st.Hand(0, dealer, "x1", [], [st.Player([]) for _ in range(SEATS)])
        match = st.Match(dict(options), seed.hex(), [0] * SEATS, placeholder)
        nxt, events = flow.deal_hand(match, 1, dealer)
        flow.draw_chain(match, nxt, events)
        return match

    def to_act(self, state: st.Match) -> frozenset[int]:
        """Return the deciding seats: the discarder, or every asked seat yet to answer a claim."""
        hand = state.hand
        if state.over:
            return frozenset()
        if hand.phase == "claim":
            window = st.claim_window(hand)
            return frozenset(window.options.keys() - window.answers.keys())
        return frozenset((hand.turn,))

    def to_act_is_public(self, state: st.Match) -> bool:
        """Return False inside a claim window, True otherwise (overrides ``GameBase``'s True).

        Who is asked in a claim window depends on the hidden hands (a seat is asked only when it
        can 吃/碰/胡 the card: rulings "Claims"), so the room layer must not show which seats
        are on the clock then; the discarder (``turn``) is public.
        """
        return state.over or state.hand.phase != "claim"

    def legal_actions(self, state: st.Match, seat: int) -> list[dict[str, Any]]:
        """Return ``seat``'s legal actions now (empty when it is not deciding)."""
        if not _deciding(state, seat):
            return []
        listed = _listed(state, seat)
        if state.hand.phase == "claim":
            return [copy_chi(a) if a["type"] == "chi" else a.copy() for a in listed]
        return [a.copy() for a in listed]       # hu, discards, pass: no nested lists

    def apply(self, state: st.Match, seat: int,
              action: Mapping[str, Any]) -> tuple[st.Match, list[Event]]:
        """Return ``(new_state, events)`` after ``seat`` plays ``action``; ``state`` is untouched.

        Raises:
            InvalidAction: malformed action. IllegalAction: not legal now (codes in module doc).
        """
        normal = normalise(action)
        if state.over:
            raise IllegalAction("game_over", "The match is over.")
        if not _deciding(state, seat):
            raise IllegalAction("not_your_turn", "You have no decision to make now.")
        if normal not in _listed(state, seat):
            raise _why_illegal(state, seat, normal)
        match = st.clone(state)
        nxt, events = _dispatch(match, seat, normal)
        return match, flow.draw_chain(match, nxt, events)

    def view(self, state: st.Match, viewer: int | None) -> dict[str, Any]:
        """Return what ``viewer`` may see (shape: docs/protocol.md, "Zipai view")."""
        data = render_view(state, viewer)
        outcome = self.outcome(state)
        data["outcome"] = outcome.to_json() if outcome else None
        return data

    def outcome(self, state: st.Match) -> Outcome | None:
        """Return the ranking by running totals once the match is over (a resigner ranks last)."""
        if not state.over:
            return None
        totals = state.totals
        resigned = state.resigned

        def key(seat: int) -> tuple[int, int]:
            return (0 if seat == resigned else 1, totals[seat])

        ranks = tuple(1 + sum(key(o) > key(s) for o in range(SEATS)) for s in range(SEATS))
        reason = "resign" if resigned is not None else "decision"
        return Outcome(ranks, reason, {"totals": list(totals), "hands_played": len(state.results)})

    def deadline_action(self, state: st.Match, seat: int) -> dict[str, Any]:
        """Return what a timeout plays: the rightmost (highest) discard; else pass, except that a
        forced win (放炮必胡) wins and a forced 开舵 is made (rulings "Clocks")."""
        legal = self.legal_actions(state, seat)
        discards = [a for a in legal if a["type"] == "discard"]
        if discards:
            return discards[-1]
        for kind in ("pass", "kaiduo", "hu"):
            for action in legal:
                if action["type"] == kind:
                    return action
        return legal[0]

    def clock_seconds(self, state: st.Match, seat: int) -> int:
        """Return ``turn_seconds``: every decision has the same clock."""
        return int(state.options["turn_seconds"])

    def resign(self, state: st.Match, seat: int) -> tuple[st.Match, list[Event]]:
        """Return the finished match in which ``seat`` resigned (ranked last)."""
        match = st.clone(state)
        match.over, match.resigned = True, seat
        match.hand.window = None
        return match, [Event("resigned", {"seat": seat}), Event("match_over",
                                                                  {"totals": list(match.totals)})]

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> st.Match:
        """Return a match consistent with ``view`` (``seat``'s own view), the hidden cards drawn
        from ``rng`` (``engine.zipai.sample``).

        Raises:
            ValueError: for a view that is not a seat's view of a reachable state.
        """
        return sample(view, seat, rng)

    def redeal(self, state: st.Match, viewer: int | None, rng: Rng) -> st.Match:
        """Return ``state`` with everything ``viewer`` cannot see re-dealt from ``rng`` (see
        ``redeal``)."""
        return redeal(state, viewer, rng)

    def dump(self, state: st.Match) -> dict[str, Any]:
        """Return the raw state as JSON-ready data (never sent to clients)."""
        return st.dump(state)

    def load(self, data: Mapping[str, Any]) -> st.Match:
        """Inverse of ``dump``."""
        return st.load(data)


def _deciding(state: st.Match, seat: int) -> bool:
    """Return ``seat in to_act(state)`` without building the set (``legal_actions``
    and ``apply`` ask it for every action)."""
    hand = state.hand
    if state.over:
        return False
    if hand.phase == "claim":
        window = st.claim_window(hand)
        return seat in window.options and seat not in window.answers
    return seat == hand.turn


def _listed(state: st.Match, seat: int) -> Sequence[dict[str, Any]]:
    """Return the legal actions of ``seat``, which must be deciding: the window's stored
    answers or the discard-phase actions (both shared: read them, never change them).
    ``legal_actions`` (which copies them: the stored window options are shared between
    successive states, see ``state.clone``; the discard-phase ones are memoised) and ``apply``
    both read this (one source of legality)."""
    hand = state.hand
    if hand.phase == "claim":
        return st.claim_window(hand).options[seat]
    return flow.listed_discard_actions(hand)


def _dispatch(match: st.Match, seat: int, action: dict[str, Any]):
    """Apply a legal action to the copied match; return (next seat to draw or None, events)."""
    hand = match.hand
    kind = action["type"]
    if hand.phase == "claim":
        window = st.claim_window(hand)
        window.answers[seat] = action
        if window.answers.keys() == window.options.keys():
            return flow.resolve_window(match)
        return None, []
    if kind == "hu":
        return flow.self_win(match, seat)
    if kind == "discard":
        return flow.discard(match, seat, action["card"])
    return (seat + 1) % SEATS, [Event("passed", {"seat": seat})]


def _why_illegal(match: st.Match, seat: int, action: dict[str, Any]) -> IllegalAction:
    """Return the most specific error for a well-formed action that is not legal now."""
    hand = match.hand
    player = hand.players[seat]
    kind = action["type"]
    if kind == "discard":
        card = action["card"]
        if card not in player.hand:
            return IllegalAction("card_not_in_hand", f"You do not hold {card}.")
        if player.hand.count(card) == 3:
            return IllegalAction("kan_locked", "A 坎 (three of a kind in hand) cannot be broken up.")
    if kind in ("chi", "peng") and hand.window is not None and hand.window.card in player.chou:
        return IllegalAction("chou", "That card is 臭 for you: you passed it before.")
    if kind == "chi" and hand.window is not None and _bi_missing(player, hand.window.card, action):
        return IllegalAction("bi_required",
                             "You still hold that card and cannot lay it in a 比 group (下比).")
    return IllegalAction("not_allowed", f"{kind!r} is not allowed now.")


def _bi_missing(player: st.Player, card: str, action: dict[str, Any]) -> bool:
    """Return whether the 吃 shape is fine but the held copies of ``card`` cannot all be 比'd."""
    cards = action["cards"]
    held = player.hand.count(card) - cards.count(card)
    return shape([card, *cards]) is not None and held > len(action["bi"])


GAME = ZipaiGame()
