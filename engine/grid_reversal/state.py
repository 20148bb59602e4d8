"""The immutable match state of Grid Reversal and its JSON form (``dump``/``load``).

Seats are 0 and 1; ``first`` is the first player's seat (drawn from the seed). Grid cells hold a
``Piece`` or ``None`` in row-major order (see ``board.Layout``). Pieces get a fresh ``id`` when
they enter the grid, so spent pairs (a pair of ids) stay with the two cards when they are
flipped, and end when one of them moves or leaves (rule 23).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from .board import Layout
from .moves import Move

# Phases.
MOTHER = "mother"              # setup: both choose the mother card (simultaneous)
SETUP_DISCARD = "setup_discard"  # setup: both discard one card (simultaneous)
DISCARD = "discard"            # start of a round: ``turn`` discards down to the hand limit
STAGE = "stage"                # ``turn`` plays its stage
RESPONSE = "response"          # an effect card waits for Ban answers (``stack``)
DRAW_OFFER = "draw_offer"      # standoff: ``turn`` offered a draw; the other answers
OVER = "over"


@dataclass(frozen=True)
class Piece:
    """A number card on the grid: unique ``id``, ``owner`` seat (the arrow), ``value`` 1..4."""

    id: int
    owner: int
    value: int


@dataclass(frozen=True)
class Play:
    """An effect card (or a Ban answering one) waiting in the response stack."""

    seat: int
    move: Move


@dataclass(frozen=True)
class State:
    """Everything about a match (raw: never sent to clients; ``view`` filters it).

    Attributes:
        options: the validated room options as sorted ``(name, value)`` pairs.
        seed: the secret match seed (reshuffles derive from it).
        first: seat of the first player.
        phase: one of the phase constants above.
        round: 1-based round number (0 during setup).
        hands: the two hands, each sorted in ``data.CARD_ORDER``.
        deck: the stock, top card first. discard: the public discard pile, oldest first.
        grid: ``Piece | None`` per cell, row-major.
        next_id: the id the next piece entering the grid gets.
        spent: spent pairs as sorted ``(id, id)`` tuples.
        choices: the secret setup choices (mother card, then setup discard) not yet revealed,
            per seat (``None`` = not chosen yet); the cards stay in the hands until revealed.
        redeals: hands shown and redrawn in setup (TIPS 1), as ``(seat, cards)``.
        reshuffles: how many times the discard pile became the deck.
        turn: the seat discarding, playing its stage, or that offered a draw.
        placements: placements left in this stage (1 + Lightnings).
        busy: whether something was placed, flipped or removed in this stage.
        flipped: whether something was flipped in this stage.
        offered: whether a draw was offered in this stage.
        stack: the effect card played and the Bans answering it, oldest first.
        responder: the seat whose answer the response window waits for.
        idle: consecutive idle stages before the standoff.
        flipless: consecutive standoff stages without a flip.
        positions: keys of the standoff positions seen at the start of each standoff stage.
        standoff: whether the standoff (对峙阶段) has begun.
        winner: the winning seat once over (``None`` on a draw).
        reason: the outcome code once over.
    """

    options: tuple[tuple[str, Any], ...]
    seed: bytes
    first: int
    phase: str
    round: int
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    grid: tuple[Piece | None, ...]
    next_id: int = 0
    spent: frozenset[tuple[int, int]] = frozenset()
    choices: tuple[str | None, str | None] = (None, None)
    redeals: tuple[tuple[int, tuple[str, ...]], ...] = ()
    reshuffles: int = 0
    turn: int = 0
    placements: int = 0
    busy: bool = False
    flipped: bool = False
    offered: bool = False
    stack: tuple[Play, ...] = ()
    responder: int | None = None
    idle: int = 0
    flipless: int = 0
    positions: tuple[str, ...] = field(default=())
    standoff: bool = False
    winner: int | None = None
    reason: str | None = None

    @property
    def option(self) -> dict[str, Any]:
        """Return the options as a dict."""
        return dict(self.options)

    @cached_property
    def layout(self) -> Layout:
        """Return the board geometry of this match (one shared ``Layout`` per options; kept in
        the instance ``__dict__``, outside the dataclass fields, so equality is unchanged)."""
        return _layout(self.options)

    def is_first(self, seat: int) -> bool:
        """Return whether ``seat`` is the first player (rows and S square on the near side)."""
        return seat == self.first

    def start_of(self, seat: int) -> tuple[int, int]:
        """Return the S square of ``seat``."""
        return self.layout.start(self.is_first(seat))

    def piece(self, cell: tuple[int, int]) -> Piece | None:
        """Return the piece on ``cell`` (which must be on the grid) or ``None``."""
        return self.grid[self.layout.index(cell)]


@lru_cache(maxsize=256)
def _layout(options: tuple[tuple[str, Any], ...]) -> Layout:
    """Return the ``Layout`` of ``options`` (memoised: asked for every cell looked at)."""
    opts = dict(options)
    return Layout(opts["width"], opts["depth"])


def _piece_json(piece: Piece | None) -> list[int] | None:
    return None if piece is None else [piece.id, piece.owner, piece.value]


def dump(state: State) -> dict[str, Any]:
    """Return the full state as JSON-ready data."""
    return {
        "options": [[k, v] for k, v in state.options],
        "seed": state.seed.hex(), "first": state.first, "phase": state.phase,
        "round": state.round, "hands": [list(h) for h in state.hands],
        "deck": list(state.deck), "discard": list(state.discard),
        "grid": [_piece_json(p) for p in state.grid], "next_id": state.next_id,
        "spent": sorted([a, b] for a, b in state.spent), "choices": list(state.choices),
        "redeals": [[seat, list(cards)] for seat, cards in state.redeals],
        "reshuffles": state.reshuffles, "turn": state.turn, "placements": state.placements,
        "busy": state.busy, "flipped": state.flipped, "offered": state.offered,
        "stack": [[p.seat, p.move.to_json()] for p in state.stack],
        "responder": state.responder, "idle": state.idle, "flipless": state.flipless,
        "positions": list(state.positions), "standoff": state.standoff,
        "winner": state.winner, "reason": state.reason,
    }


def _move(data: Mapping[str, Any]) -> Move:
    cells = [data["cell"]] if "cell" in data else data.get("cells", [])
    return Move(data["type"], data.get("card"), tuple((r, c) for r, c in cells))


def load(data: Mapping[str, Any]) -> State:
    """Return the state ``dump`` produced ``data`` from."""
    return State(
        options=tuple((k, v) for k, v in data["options"]),
        seed=bytes.fromhex(data["seed"]), first=data["first"], phase=data["phase"],
        round=data["round"], hands=(tuple(data["hands"][0]), tuple(data["hands"][1])),
        deck=tuple(data["deck"]), discard=tuple(data["discard"]),
        grid=tuple(None if p is None else Piece(*p) for p in data["grid"]),
        next_id=data["next_id"], spent=frozenset((a, b) for a, b in data["spent"]),
        choices=(data["choices"][0], data["choices"][1]),
        redeals=tuple((seat, tuple(cards)) for seat, cards in data["redeals"]),
        reshuffles=data["reshuffles"], turn=data["turn"], placements=data["placements"],
        busy=data["busy"], flipped=data["flipped"], offered=data["offered"],
        stack=tuple(Play(seat, _move(m)) for seat, m in data["stack"]),
        responder=data["responder"], idle=data["idle"], flipless=data["flipless"],
        positions=tuple(data["positions"]), standoff=data["standoff"],
        winner=data["winner"], reason=data["reason"],
    )
