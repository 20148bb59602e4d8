"""The mahjong match state: plain dataclasses, copied by ``apply`` (never changed in place).

``Match`` holds the options, the secret seed, the running totals, the score sheets of the
finished hands and the current ``Hand``. A ``Hand`` holds the wall (drawn from ``head``,
replacements from ``tail``: rulings "Seats, wall and deal"), the four ``Player`` records by room
seat, and the decision being waited for: ``asked`` maps every deciding seat to its listed
actions (the one source of legality), ``answers`` holds the claim-window answers given so far.

Phases: ``"turn"`` (``turn`` acts after a draw, a kong's replacement, a claim or the deal: how
it came to act is ``step``) and ``"claim"`` (a ``Window`` on a discard or an added kong is
answered simultaneously by the seats in ``asked``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: Meld kinds: a claimed chow/pung, a kong made on a discard (明杠), a kong added to an exposed
#: pung (加杠), a concealed kong (暗杠).
MELD_KINDS = ("chow", "pung", "kong", "added_kong", "concealed_kong")
#: How the seat in turn came to act: the dealer's first turn, after a draw from the head (flower
#: replacements included), after a kong's replacement, after a 碰/吃.
STEPS = ("deal", "draw", "kong", "claimed")


@dataclass(frozen=True)
class Meld:
    """A declared set.

    Attributes:
        kind: one of ``MELD_KINDS``.
        tiles: the set's tiles in sort order (4 for a kong).
        source: the seat whose discard was claimed for it (an added kong keeps its pung's),
            ``None`` for a concealed kong.
        claimed: the claimed tile, ``None`` for a concealed kong.
    """

    kind: str
    tiles: tuple[str, ...]
    source: int | None = None
    claimed: str | None = None

    @property
    def is_kong(self) -> bool:
        """Whether the meld is a kong of any kind."""
        return len(self.tiles) == 4


@dataclass(frozen=True)
class Discard:
    """One discard in a seat's row.

    Attributes:
        tile: the tile. taken: claimed by another seat (碰/吃/杠/和): it now lies in that seat's
            set. ready: the discard with which the seat declared ready (报听, ``hebei``).
    """

    tile: str
    taken: bool = False
    ready: bool = False


@dataclass
class Player:
    """One seat's tiles in the current hand.

    Attributes:
        concealed: the standing tiles in sort order, without ``drawn``.
        drawn: the tile just drawn (held apart) while the seat is in turn after a draw, else
            ``None``.
        melds: the declared sets, in the order made.
        flowers: the exposed flowers (``mcr``), in the order exposed.
        discards: the seat's discards, in order.
        ready: the seat declared ready (报听, ``hebei``): its hand is locked.
    """

    concealed: list[str]
    drawn: str | None = None
    melds: list[Meld] = field(default_factory=list)
    flowers: list[str] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    ready: bool = False

    def held(self) -> list[str]:
        """Return the standing tiles with the drawn one (not sorted: drawn last)."""
        return self.concealed + [self.drawn] if self.drawn is not None else list(self.concealed)


@dataclass(frozen=True)
class Window:
    """A claim window.

    Attributes:
        tile: the tile that may be claimed. source: the discarder or the seat adding the kong.
        robbing: the tile is added to a kong (抢杠和: only wins). last: the discard made when the
            wall was empty (only wins). first: the hand's first discard (地和 in ``hebei``).
    """

    tile: str
    source: int
    robbing: bool = False
    last: bool = False
    first: bool = False


@dataclass
class Hand:
    """One hand (盘) of the match.

    Attributes:
        number: 1-based hand number. dealer: the dealer's seat (East).
        order: the table order of this hand's round, the East position's seat first: turn order
            goes ``order[i]`` → ``order[i + 1]`` (rulings "Seats, wall and deal").
        wall: the seeded shuffle of every tile; ``wall[head:tail]`` are the tiles left.
        players: the four ``Player`` records, by room seat.
        phase: ``"turn"``, ``"claim"`` or ``"over"`` (the match has ended). turn: the seat in turn, or the window's source.
        step: how the seat in turn came to act (``STEPS``).
        window: the open claim window (phase ``"claim"``), else ``None``.
        asked: ``{seat: listed actions}`` of every deciding seat (shared dicts: read only).
        answers: ``{seat: action}`` answers given in the open window.
        last_discarder: the seat whose row ends with the hand's latest discard, or None.
    """

    number: int
    dealer: int
    order: tuple[int, ...]
    wall: tuple[str, ...]
    head: int
    tail: int
    players: list[Player]
    phase: str = "turn"
    turn: int = 0
    step: str = "deal"
    window: Window | None = None
    asked: dict[int, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)
    last_discarder: int | None = None

    @property
    def wall_left(self) -> int:
        """Return the number of tiles left in the wall."""
        return self.tail - self.head


@dataclass
class Match:
    """A whole match.

    Attributes:
        options: the validated room options. seed: the secret match seed (hex).
        first_dealer: the seat drawn from the seed to deal the first hand.
        totals: running score per seat. hand: the hand being played (the last one once over).
        results: one score sheet per finished hand (``scoring.sheet``).
        over: the match has ended. resigned: the seat that resigned, if any.
    """

    options: dict[str, Any]
    seed: str
    first_dealer: int
    totals: list[int]
    hand: Hand
    results: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    resigned: int | None = None

    @property
    def rules(self) -> str:
        """Return the rule set, ``"hebei"`` or ``"mcr"``."""
        return self.options["rules"]


def clone_player(player: Player) -> Player:
    """Return a copy of ``player`` whose lists may be changed (melds and discards are frozen)."""
    return Player(list(player.concealed), player.drawn, list(player.melds), list(player.flowers),
                  list(player.discards), player.ready)


def clone(match: Match) -> Match:
    """Return a copy of ``match`` that the flow may change freely.

    The hand, its players' lists, the totals, the results list and the answers are copied;
    what is never changed in place is shared: the wall tuple, ``Meld``/``Discard``/``Window``
    records, the options dict, the listed actions and the score sheets.
    """
    hand = match.hand
    new_hand = replace(hand, players=[clone_player(p) for p in hand.players],
                       asked=dict(hand.asked), answers=dict(hand.answers))
    return Match(match.options, match.seed, match.first_dealer, list(match.totals), new_hand,
                 list(match.results), match.over, match.resigned)


def json_copy(value: Any) -> Any:
    """Return a copy of JSON-like data (dicts, lists, tuples as lists, scalars shared)."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_copy(v) for v in value]
    return value


def _dump_player(player: Player) -> dict[str, Any]:
    return {"concealed": list(player.concealed), "drawn": player.drawn,
            "melds": [{"kind": m.kind, "tiles": list(m.tiles), "source": m.source,
                       "claimed": m.claimed} for m in player.melds],
            "flowers": list(player.flowers),
            "discards": [{"tile": d.tile, "taken": d.taken, "ready": d.ready}
                         for d in player.discards],
            "ready": player.ready}


def dump(match: Match) -> dict[str, Any]:
    """Return the full raw state as JSON-ready data (integer dict keys become strings).

    Written field by field (``dataclasses.asdict`` deep-copies the wall and every score sheet
    through its generic path, several times slower)."""
    hand = match.hand
    window = hand.window
    return {
        "options": dict(match.options), "seed": match.seed, "first_dealer": match.first_dealer,
        "totals": list(match.totals),
        "hand": {
            "number": hand.number, "dealer": hand.dealer, "order": list(hand.order),
            "wall": list(hand.wall), "head": hand.head, "tail": hand.tail,
            "players": [_dump_player(p) for p in hand.players],
            "phase": hand.phase, "turn": hand.turn, "step": hand.step,
            "window": None if window is None else {
                "tile": window.tile, "source": window.source, "robbing": window.robbing,
                "last": window.last, "first": window.first},
            "asked": {str(k): json_copy(v) for k, v in hand.asked.items()},
            "answers": {str(k): json_copy(v) for k, v in hand.answers.items()},
            "last_discarder": hand.last_discarder,
        },
        "results": json_copy(match.results), "over": match.over, "resigned": match.resigned,
    }


def load(data: Mapping[str, Any]) -> Match:
    """Inverse of ``dump``."""
    raw: dict[str, Any] = json_copy(dict(data))
    hand = raw.pop("hand")
    players = [Player(p["concealed"], p["drawn"],
                      [Meld(m["kind"], tuple(m["tiles"]), m["source"], m["claimed"])
                       for m in p["melds"]],
                      p["flowers"], [Discard(**d) for d in p["discards"]], p["ready"])
               for p in hand.pop("players")]
    window = hand.pop("window")
    hand_obj = Hand(**{**hand, "players": players,
                       "wall": tuple(hand["wall"]), "order": tuple(hand["order"]),
                       "window": None if window is None else Window(**window),
                       "asked": {int(k): tuple(v) for k, v in hand["asked"].items()},
                       "answers": {int(k): v for k, v in hand["answers"].items()}})
    return Match(**{**raw, "hand": hand_obj})
