"""The mahjong ``GAME`` object: spec, options and the engine protocol of ``engine.core.Game``.

One engine, two rule sets (room option ``rules``): ``hebei`` (河北麻将, 136 tiles, no 吃,
报听, doubling scores; option ``hands`` 4–16) and ``mcr`` (the Chinese competition rules,
144 tiles with flowers, the 81-fan table, 8-point minimum; option ``rounds`` 1–4 of four hands).
Action shapes and error codes: ``actions``; the view: ``view``; the rules: the binding rulings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event, GameBase, GameSpec, IllegalAction, OptionSpec, Outcome, Rng
from engine.mahjong import flow
from engine.mahjong import state as st
from engine.mahjong.actions import normalise, why_illegal
from engine.mahjong.hidden import redeal, sample
from engine.mahjong.progress import opening_seating, ranks
from engine.mahjong.table import SEATS, first_dealer
from engine.mahjong.view import view as render_view

#: Every hand ends within this many actions: ≤ 124 turns (head draws, kong replacements,
#: claims, the deal) and ≤ 16 kongs give ≤ 140 turn actions and ≤ 140 windows of ≤ 3 answers.
ACTIONS_PER_HAND = 600
MAX_HANDS = 16
OPTIONS = (
    OptionSpec("rules", "choice", "hebei", choices=("hebei", "mcr"),
               label="Rules: Hebei (河北麻将) or Competition (MCR)"),
    OptionSpec("hands", "int", 8, minimum=4, maximum=16, label="Hands in the match (Hebei)",
               when=("rules", "hebei")),
    OptionSpec("rounds", "int", 1, minimum=1, maximum=4,
               label="Rounds of four hands (Competition)", when=("rules", "mcr")),
    OptionSpec("turn_seconds", "int", 15, minimum=5, maximum=120, label="Seconds per decision"),
)
SPEC = GameSpec(
    id="mahjong",
    titles={"en": "Mahjong", "zh": "麻将", "ja": "麻雀（中国麻将）"},
    min_players=SEATS, max_players=SEATS, hidden_information=True,
    max_length=ACTIONS_PER_HAND * MAX_HANDS, options=OPTIONS,
)
PASS = {"type": "pass"}
WIN = {"type": "win"}


def _copy(action: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(action)
    if "tiles" in out:
        out["tiles"] = list(out["tiles"])
    return out


class MahjongGame(GameBase[st.Match]):
    """麻将 for four seats, ``hebei`` or ``mcr`` rules (see the module doc and the rulings)."""

    spec = SPEC

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> st.Match:
        """Return the match after the first deal; the first dealer is drawn from the seed.

        Raises:
            ValueError: if ``players`` is not 4.
        """
        if players != SEATS:
            raise ValueError("Mahjong is played by exactly 4 players.")
        options = dict(options)
        first = first_dealer(seed)
        order, dealer = opening_seating(options["rules"], first)
        placeholder = st.Hand(0, dealer, order, (), 0, 0, [])
        match = st.Match(options, seed.hex(), first, [0] * SEATS, placeholder)
        events: list[Event] = []
        flow.run(match, flow.begin_hand(match, 1, order, dealer, events), events)
        return match

    def to_act(self, state: st.Match) -> frozenset[int]:
        """Return the deciding seats: the seat in turn, or the asked seats yet to answer."""
        if state.over:
            return frozenset()
        hand = state.hand
        return frozenset(hand.asked.keys() - hand.answers.keys())

    def to_act_is_public(self, state: st.Match) -> bool:
        """Return False while a claim window is open: who is asked depends on the hidden hands
        (rulings "Claims on a discard": everyone sees only that claims are pending)."""
        return state.over or state.hand.phase != "claim"

    def listed_actions(self, state: st.Match, seat: int) -> Sequence[Mapping[str, Any]]:
        """Return ``seat``'s listed actions as stored on the state (shared: read only)."""
        if not _deciding(state, seat):
            return ()
        return state.hand.asked[seat]

    def legal_actions(self, state: st.Match, seat: int) -> list[dict[str, Any]]:
        """Return ``seat``'s legal actions now (empty when it is not deciding); order:
        ``turn`` and ``claims`` module docs."""
        return [_copy(a) for a in self.listed_actions(state, seat)]

    def apply(self, state: st.Match, seat: int,
              action: Mapping[str, Any]) -> tuple[st.Match, list[Event]]:
        """Return ``(new_state, events)`` after ``seat`` plays ``action``; ``state`` is untouched.

        Raises:
            InvalidAction: malformed action. IllegalAction: not legal now (``actions`` codes).
        """
        normal = normalise(action)
        if state.over:
            raise IllegalAction("game_over", "The match is over.")
        if not _deciding(state, seat):
            raise IllegalAction("not_your_turn", "You have no decision to make now.")
        if normal not in state.hand.asked[seat]:
            raise why_illegal(state, seat, normal)
        match = st.clone(state)
        events: list[Event] = []
        return match, flow.run(match, _dispatch(match, seat, normal, events), events)

    def view(self, state: st.Match, viewer: int | None) -> dict[str, Any]:
        """Return what ``viewer`` may see (shape: ``engine.mahjong.view``), with the outcome."""
        data = render_view(state, viewer)
        outcome = self.outcome(state)
        data["outcome"] = outcome.to_json() if outcome else None
        return data

    def outcome(self, state: st.Match) -> Outcome | None:
        """Return the ranking by total score once the match is over (equal totals share a rank;
        a resigner ranks last): reason ``final_score`` or ``resign``, detail the totals."""
        if not state.over:
            return None
        reason = "resign" if state.resigned is not None else "final_score"
        return Outcome(ranks(state.totals, state.resigned), reason,
                       {"totals": list(state.totals), "hands_played": len(state.results)})

    def deadline_action(self, state: st.Match, seat: int) -> dict[str, Any]:
        """Return what a timeout plays (rulings "Match, clocks and bots"): a win when one is
        listed (``mcr``: only at ≥ 8 points, as listed); else a pass in a claim window; else the
        drawn tile's discard — on the dealer's first turn and after 碰/吃 (no drawn tile) the
        last tile of the hand in sort order."""
        listed = self.listed_actions(state, seat)
        if WIN in listed:
            return dict(WIN)
        if state.hand.phase == "claim":
            return dict(PASS)
        player = state.hand.players[seat]
        tile = player.drawn if player.drawn is not None else player.concealed[-1]
        return {"type": "discard", "tile": tile}

    def clock_seconds(self, state: st.Match, seat: int) -> int:
        """Return ``turn_seconds``: every decision has the same clock."""
        return int(state.options["turn_seconds"])

    def resign(self, state: st.Match, seat: int) -> tuple[st.Match, list[Event]]:
        """Return the finished match in which ``seat`` resigned (ranked last)."""
        match = st.clone(state)
        match.over, match.resigned = True, seat
        hand = match.hand
        hand.phase, hand.window, hand.asked, hand.answers = "over", None, {}, {}
        return match, [Event("resigned", {"seat": seat}),
                       Event("match_over", {"totals": list(match.totals),
                                            "ranks": list(ranks(match.totals, seat))})]

    def redeal(self, state: st.Match, viewer: int | None, rng: Rng | bytes) -> st.Match:
        """Return ``state`` with everything ``viewer`` cannot see re-dealt from ``rng`` (a
        bytes key is accepted too); see ``engine.mahjong.hidden``."""
        if isinstance(rng, (bytes, bytearray)):
            rng = Rng.derive(bytes(rng), "redeal")
        return redeal(state, viewer, rng)

    def sample(self, view: Mapping[str, Any], seat: int, rng: Rng) -> st.Match:
        """Return a complete state consistent with ``seat``'s ``view``, the hidden part drawn
        from ``rng`` (see ``engine.mahjong.hidden``)."""
        return sample(view, seat, rng)

    def dump(self, state: st.Match) -> dict[str, Any]:
        """Return the raw state as JSON-ready data (never sent to clients)."""
        return st.dump(state)

    def load(self, data: Mapping[str, Any]) -> st.Match:
        """Inverse of ``dump``."""
        return st.load(data)


def _deciding(state: st.Match, seat: int) -> bool:
    hand = state.hand
    return not state.over and seat in hand.asked and seat not in hand.answers


def _dispatch(match: st.Match, seat: int, action: dict[str, Any],
              events: list[Event]) -> flow.Next:
    """Apply a listed action to the copied match; return the flow's next step."""
    if match.hand.phase == "claim":
        return flow.answer(match, seat, action, events)
    kind = action["type"]
    if kind == "win":
        return flow.self_win_now(match, seat, events)
    if kind == "kong":
        return flow.own_kong(match, seat, action["tile"], events)
    return flow.discard(match, seat, action["tile"], bool(action.get("ready")), events)


GAME = MahjongGame()
