"""What each seat may claim on an exposed card (rulings "Deal and turn flow", seed 3.2–3.6).

Options are listed as JSON-ready actions:
``{"type": "hu"}``, ``{"type": "kaiduo"}``, ``{"type": "peng"}``,
``{"type": "chi", "cards": [a, b], "bi": [[c, d, e], ...]}`` (``cards``: the two hand cards that
go with the exposed card; ``bi``: the 比 groups, three hand cards each), ``{"type": "pass"}``.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Sequence

from engine.zipai.cards import CODES, sort_cards
from engine.zipai.groups import shape
from engine.zipai.state import Player
from engine.zipai.winning import evaluate_win

HU = {"type": "hu"}
KAIDUO = {"type": "kaiduo"}
PENG = {"type": "peng"}
PASS = {"type": "pass"}


def free_cards(hand: Sequence[str]) -> Counter:
    """Return the hand cards not in a 坎 (a 坎 is never broken up, seed 3.1 坎)."""
    count = Counter(hand)
    return Counter({c: n for c, n in count.items() if n < 3})


def can_discard_after(hand: Sequence[str], used: Sequence[str]) -> bool:
    """Return whether a card outside any 坎 is left after taking ``used`` out of ``hand``."""
    rest = Counter(hand)
    rest.subtract(used)
    return any(0 < n < 3 for n in rest.values())


def _pairs_with(pool: Counter, card: str) -> list[tuple[str, str]]:
    """Return the distinct pairs (a, b) from ``pool`` that form a 吃 shape with ``card``, in card
    order of ``a`` then ``b``."""
    return [(a, b) for a, b in _shape_partners(card)
            if pool[a] > 0 and pool[b] >= (2 if a == b else 1)]


@lru_cache(maxsize=len(CODES))
def _shape_partners(card: str) -> tuple[tuple[str, str], ...]:
    """Return every pair (a, b) of faces, a not after b in card order, with ``shape([card, a, b])``."""
    return tuple((a, b) for i, a in enumerate(CODES) for b in CODES[i:]
                 if shape([card, a, b]) is not None)


def _bi_sets(pool: Counter, card: str) -> list[tuple[tuple[str, ...], ...]]:
    """Return every way to lay all copies of ``card`` left in ``pool`` in 比 groups (each: a copy
    plus two pool cards, which may be another copy)."""
    if pool[card] <= 0:
        return [()]
    pool = pool.copy()
    pool[card] -= 1
    out = set()
    for a, b in _pairs_with(+pool, card):
        rest = pool.copy()
        rest.subtract([a, b])
        group = tuple(sort_cards([card, a, b]))
        for more in _bi_sets(+rest, card):
            out.add(tuple(sorted((group,) + more)))
    return sorted(out)


def chi_options(hand: list[str], card: str) -> list[dict[str, Any]]:
    """Return every legal 吃 of ``card`` for a player holding ``hand`` (fresh dicts each call).

    The exposed card plus two non-坎 hand cards must form a shape; every copy of ``card`` still
    held must then go into its own 比 group (下比, seed 3.4), else that 吃 is illegal; a 吃 that
    leaves no card to discard is illegal (rulings). The search is memoised on the hand (issue 10).
    """
    return [{"type": "chi", "cards": list(pair), "bi": [list(g) for g in bi]}
            for pair, bi in _chi_table(tuple(hand), card)]


@lru_cache(maxsize=1 << 14)
def _chi_table(hand: tuple[str, ...], card: str) -> tuple[tuple[tuple[str, str],
                                                                tuple[tuple[str, ...], ...]], ...]:
    """Return ``((a, b), bi groups)`` for every legal 吃 (see ``chi_options``), immutable.

    Every card used comes from the non-坎 cards, so a card is left to discard exactly when more
    non-坎 cards are held than used (``can_discard_after`` without recounting the hand)."""
    pool = free_cards(hand)
    free = sum(pool.values())
    out = []
    for a, b in _pairs_with(pool, card):
        rest = pool.copy()
        rest.subtract([a, b])
        for bi in _bi_sets(+rest, card):
            if free > 2 + 3 * len(bi):
                out.append(((a, b), bi))
    return tuple(out)


def can_peng(player: Player, card: str) -> bool:
    """Return whether ``player`` may 碰 ``card``: a pair in hand, not 臭, a discard left after."""
    return (player.hand.count(card) == 2 and card not in player.chou
            and can_discard_after(player.hand, [card, card]))


def kaiduo_source(player: Player, card: str, own: bool) -> bool:
    """Return whether ``card`` forces a 开舵 for ``player`` (坎/扫 on another's card, 碰 on own draw)."""
    if not own and player.hand.count(card) == 3:
        return True
    for group in player.groups:
        if len(group.cards) == 3 and group.cards[0] == card:
            if (not own and group.kind in ("sao", "guosao")) or (own and group.kind == "peng"):
                return True
    return False


def claim_order(source: int, by_draw: bool) -> list[int]:
    """Return the seats in claim order: the drawer first on a draw; after the discarder on a discard."""
    seats = [(source + k) % 3 for k in range(3)]
    return seats if by_draw else seats[1:]


def window_options(players: list[Player], card: str, source: int,
                   by_draw: bool) -> tuple[dict[int, list[dict[str, Any]]], int | None]:
    """Return ({asked seat: legal answers}, forced 开舵 seat or None) for an exposed card.

    胡 first (on a discard a winner must win: 放炮必胡, seed 3.6), then the forced 开舵, 碰 and
    吃 (on a draw the drawer and the next seat, on a discard only the next seat; 臭 faces excluded).
    Only seats whose answer can matter are asked: when someone must win on a discard, only the
    winners; when a 开舵 is forced, nobody's 碰/吃.
    """
    order = claim_order(source, by_draw)
    hu = {s for s in order if evaluate_win(players[s], card, by_draw and s == source)}
    kaiduo = next((s for s in order if kaiduo_source(players[s], card, by_draw and s == source)),
                  None)
    if hu and not by_draw:
        return {s: [dict(HU)] for s in order if s in hu}, kaiduo
    eaters = order[:2] if by_draw else order[:1]
    options: dict[int, list[dict[str, Any]]] = {}
    for s in order:
        listed = [dict(HU)] if s in hu else []
        if s == kaiduo:
            if listed:
                options[s] = listed + [dict(KAIDUO)]
            continue
        if kaiduo is None and card not in players[s].chou:
            if can_peng(players[s], card):
                listed.append(dict(PENG))
            if s in eaters:
                listed += chi_options(players[s].hand, card)
        if listed:
            options[s] = listed + [dict(PASS)]
    return options, kaiduo
