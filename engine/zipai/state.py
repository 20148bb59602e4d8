"""The zipai match state: plain mutable dataclasses, copied by ``apply`` (never mutated in place).

``Match`` holds the options, the secret seed, running totals and the current ``Hand``. A ``Hand``
holds the stock (top = index 0), the three ``Player`` records, the decision being waited for
(``phase``/``turn`` for a discard, ``window`` for a claim window) and the 亮张.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

HIDDEN_KINDS = frozenset({"sao", "saochuan"})
#: The group kinds others do not see whole (``Group.shown_cards``): the hidden ones and 过扫.
PARTLY_SHOWN_KINDS = HIDDEN_KINDS | {"guosao"}


@dataclass
class Group:
    """A laid group (or the opening single 扫穿 kept in hand).

    Attributes:
        kind: ``chi``, ``bi``, ``peng``, ``sao``, ``guosao``, ``kaiduo`` or ``saochuan``.
        cards: wire codes of the group's 3 or 4 cards.
        in_hand: the opening single 扫穿 that stays in the hand (seed 3.4 起手1扫穿不放在桌面).

    A group record is shared between successive states (``clone``): once it is in a state it is
    replaced, never changed in place.
    """

    kind: str
    cards: list[str]
    in_hand: bool = False

    def shown_cards(self) -> int:
        """Return how many of the cards other players see (扫/扫穿 none, 过扫 one; seed 3.2, 3.4)."""
        if self.kind in HIDDEN_KINDS:
            return 0
        return 1 if self.kind == "guosao" else len(self.cards)


@dataclass
class Player:
    """One seat's cards in the current hand.

    Attributes:
        hand: concealed cards (wire codes, sorted).
        groups: laid groups, in the order made.
        pile: unclaimed drawn or discarded cards of this seat, face-up.
        chou: faces (wire codes) that are 臭 for this player (seed 3.3).
        passed_peng: faces on which this player passed a 碰 (for 过扫 and 过碰, seed 3.2 / 4.1).
        fours: how many 4-groups (开舵/扫穿, opening ones included) the player has made.
    """

    hand: list[str]
    groups: list[Group] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)
    chou: list[str] = field(default_factory=list)
    passed_peng: list[str] = field(default_factory=list)
    fours: int = 0


@dataclass
class Window:
    """A claim window on an exposed card.

    Attributes:
        card: the exposed card. source: the drawer or discarder. by_draw: drawn (True) or discarded.
        options: the legal answers of every asked seat (``{seat: [action, ...]}``).
        answers: the answers received so far (``{seat: action}``).
        kaiduo_seat: a seat whose 开舵 on this card is forced (done unless someone wins), or None.
        dihu: the card is the dealer's first discard (a win on it is 地胡).
    """

    card: str
    source: int
    by_draw: bool
    options: dict[int, list[dict[str, Any]]]
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)
    kaiduo_seat: int | None = None
    dihu: bool = False


@dataclass
class Hand:
    """One hand (盘) of the match.

    Attributes:
        number: 1-based hand number. dealer: the 庄 seat. liang: the 亮张 (dealer's shown card).
        stock: the remaining stock, top first. players: three ``Player``.
        phase: ``"discard"`` (``turn`` decides), ``"claim"`` (``window`` decides) or ``"done"``.
        must_discard: in the discard phase, whether a discard is owed (False after a 重舵, when
            only a self-drawn win or a pass is possible).
        self_win: ``"tianhu"``/``"zimo"`` when ``turn`` may win with its hand now, else None.
        dealer_discarded: whether the dealer has made its first discard (for 地胡).
        shared: the seats whose ``Player`` record this hand shares with another state (set by
            ``clone``; ``own_player`` copies one before it is changed). Bookkeeping, not part of
            the state: ``dump`` leaves it out and equality ignores it.
    """

    number: int
    dealer: int
    liang: str
    stock: list[str]
    players: list[Player]
    phase: str = "discard"
    turn: int = 0
    must_discard: bool = True
    self_win: str | None = None
    window: Window | None = None
    dealer_discarded: bool = False
    shared: frozenset[int] = field(default=frozenset(), compare=False, repr=False)


@dataclass
class Match:
    """A whole match of ``options["hands"]`` hands.

    Attributes:
        options: validated room options. seed: the secret match seed (hex).
        totals: running score per seat. hand: the hand being played.
        results: one result dict per finished hand (see ``scoring.hand_result``).
        over: the match has ended. resigned: the seat that resigned, if any.
    """

    options: dict[str, Any]
    seed: str
    totals: list[int]
    hand: Hand
    results: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    resigned: int | None = None


def _clone_player(player: Player) -> Player:
    return Player(list(player.hand), list(player.groups), list(player.pile),
                  list(player.chou), list(player.passed_peng), player.fours)


def _clone_window(window: Window | None) -> Window | None:
    if window is None:
        return None
    return Window(window.card, window.source, window.by_draw, window.options,
                  dict(window.answers), window.kaiduo_seat, window.dihu)


def _clone_hand(hand: Hand) -> Hand:
    return Hand(hand.number, hand.dealer, hand.liang, list(hand.stock), list(hand.players),
                hand.phase, hand.turn, hand.must_discard, hand.self_win,
                _clone_window(hand.window), hand.dealer_discarded, _EVERY_SEAT[len(hand.players)])


#: ``_EVERY_SEAT[n]``: the seats of ``n`` players (a copied hand shares every player record).
_EVERY_SEAT = tuple(frozenset(range(n)) for n in range(4))


def clone(match: Match) -> Match:
    """Return a copy of ``match`` that ``apply``/``redeal`` may change freely, the players
    through ``own_player``.

    Every list and record the flow changes in place is copied (stock, the players list, window
    answers, results list, totals), except the ``Player`` records: they are shared until
    ``own_player`` copies one to change it (an action changes one or two of them).
    What is never changed in place after it is made is shared: the ``Group`` records (a
    开舵/扫穿 made from a laid group replaces the record in the copied list), the options dict,
    the window's ``options`` lists, the answer action dicts and the per-hand result dicts.
    Replaces a ``copy.deepcopy`` (60 % of ``apply``).
    """
    return Match(match.options, match.seed, list(match.totals), _clone_hand(match.hand),
                 list(match.results), match.over, match.resigned)


def claim_window(hand: Hand) -> Window:
    """Return ``hand``'s open claim window; the hand must be in phase ``"claim"``."""
    window = hand.window
    assert window is not None, "the claim phase has an open window"
    return window


def own_player(hand: Hand, seat: int) -> Player:
    """Return ``hand.players[seat]`` for the caller to change in place: first replaced by a copy
    (hand, groups, pile, 臭 and passed-碰 lists) when it is shared with another state."""
    player = hand.players[seat]
    if seat in hand.shared:
        player = hand.players[seat] = _clone_player(player)
        hand.shared = hand.shared - {seat}
    return player


def dump(match: Match) -> dict[str, Any]:
    """Return the full raw state as JSON-ready data (integer dict keys become strings)."""
    data = asdict(match)
    del data["hand"]["shared"]
    window = data["hand"]["window"]
    if window is not None:
        window["options"] = {str(k): v for k, v in window["options"].items()}
        window["answers"] = {str(k): v for k, v in window["answers"].items()}
    return data


def load(data: Mapping[str, Any]) -> Match:
    """Inverse of ``dump``."""
    data = copy.deepcopy(dict(data))
    hand = dict(data["hand"])
    players = [Player(**{**p, "groups": [Group(**g) for g in p["groups"]]}) for p in hand["players"]]
    window = hand["window"]
    if window is not None:
        window = Window(**{**window,
                           "options": {int(k): v for k, v in window["options"].items()},
                           "answers": {int(k): v for k, v in window["answers"].items()}})
    hand_obj = Hand(**{**hand, "players": players, "window": window})
    return Match(**{**data, "hand": hand_obj})
