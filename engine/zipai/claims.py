"""What each seat may claim on an exposed card (rulings "Deal and turn flow", seed 3.2–3.6).

Options are listed as JSON-ready actions:
``{"type": "hu"}``, ``{"type": "kaiduo"}``, ``{"type": "peng"}``,
``{"type": "chi", "cards": [a, b], "bi": [[c, d, e], ...]}`` (``cards``: the two hand cards that
go with the exposed card; ``bi``: the 比 groups, three hand cards each), ``{"type": "pass"}``.

What is derived from a hand alone (its non-坎 cards) comes from the
memoised ``tally``; the 吃 search works on its packed counts with a table of the pairs that make
a shape with each card (built at import) and is memoised on the packed counts and the card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.zipai.cards import CODES, FACE, sort_cards
from engine.zipai.groups import shape
from engine.zipai.split import BITS, MASK
from engine.zipai.state import Player
from engine.zipai.tally import UNIT, Tally, tally
from engine.zipai.winning import evaluate_held


def free_cards(hand: Sequence[str]) -> Counter:
    """Return the hand cards not in a 坎 (a 坎 is never broken up, seed 3.1 坎)."""
    count = Counter(hand)
    return Counter({c: n for c, n in count.items() if n < 3})


#: One partner pair of a card: (bit shift of a, bit shift of b, copies of b needed (2 when
#: a == b), packed value of a + b, a, b).
Partner = tuple[int, int, int, int, str, str]


def _partner_table(card: str) -> tuple[Partner, ...]:
    """Return the ``Partner`` of every pair of faces (a, b), a not after b in card order, with
    ``shape([card, a, b])`` (the pairs that form a 吃 shape with ``card``), in that order."""
    return tuple((BITS * FACE[a], BITS * FACE[b], 2 if a == b else 1, UNIT[a] + UNIT[b], a, b)
                 for i, a in enumerate(CODES) for b in CODES[i:]
                 if shape([card, a, b]) is not None)


_PARTNERS: dict[str, tuple[Partner, ...]] = {card: _partner_table(card) for card in CODES}


def _pairs_with(pool: int, card: str) -> list[Partner]:
    """Return the distinct pairs in the packed counts ``pool`` (``tally``) that form a 吃 shape
    with ``card``, in card order of ``a`` then ``b``."""
    return [p for p in _PARTNERS[card] if (pool >> p[0]) & MASK and (pool >> p[1]) & MASK >= p[2]]


def _bi_sets(pool: int, card: str) -> list[tuple[tuple[str, ...], ...]]:
    """Return every way to lay all copies of ``card`` left in the packed counts ``pool`` in 比
    groups (each: a copy plus two pool cards, which may be another copy), sorted."""
    if not (pool >> BITS * FACE[card]) & MASK:
        return [()]
    pool -= UNIT[card]
    out = set()
    for _, _, _, pair, a, b in _pairs_with(pool, card):
        group = tuple(sort_cards([card, a, b]))
        for more in _bi_sets(pool - pair, card):
            out.add(tuple(sorted((group,) + more)))
    return sorted(out)


def chi_options(hand: list[str], card: str) -> list[dict[str, Any]]:
    """Return every legal 吃 of ``card`` for a player holding ``hand`` (fresh dicts each call).

    The exposed card plus two non-坎 hand cards must form a shape; every copy of ``card`` still
    held must then go into its own 比 group (下比, seed 3.4), else that 吃 is illegal; a 吃 that
    leaves no card to discard is illegal (rulings). The search is memoised.
    """
    held = tally(tuple(hand))
    return [copy_chi(option) for option in _chi_listed(held.free, held.free_total, card)]


def copy_chi(option: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a 吃 action (``{"type", "cards", "bi"}``) whose lists may be changed."""
    return {"type": "chi", "cards": list(option["cards"]), "bi": [list(g) for g in option["bi"]]}


@lru_cache(maxsize=1 << 8)
def _chi_listed(pool: int, free: int, card: str) -> tuple[dict[str, Any], ...]:
    """``chi_options`` of a hand whose non-坎 cards are the packed counts ``pool`` (``free`` of
    them: ``tally``), as a tuple of shared dicts: a claim window stores them as its listed
    answers, which are read, never changed (``state.clone``; ``game.legal_actions`` copies
    them). Memoised on its arguments, all a 吃 depends on.

    Every card used comes from the non-坎 cards, so a card is left to discard exactly when more
    non-坎 cards are held than used (without recounting the hand)."""
    pairs = _pairs_with(pool, card)
    if not pairs:
        return ()
    copies = (pool >> BITS * FACE[card]) & MASK
    out: list[dict[str, Any]] = []
    for _, _, _, pair, a, b in pairs:
        if copies - (a == card) - (b == card) <= 0:     # no copy of ``card`` left: no 比 group
            if free > 2:
                out.append({"type": "chi", "cards": [a, b], "bi": []})
            continue
        for bi in _bi_sets(pool - pair, card):
            if free > 2 + 3 * len(bi):
                out.append({"type": "chi", "cards": [a, b], "bi": [list(g) for g in bi]})
    return tuple(out)


def can_peng(player: Player, card: str) -> bool:
    """Return whether ``player`` may 碰 ``card``: a pair in hand, not 臭, a discard left after.

    With the pair taken out, a card to discard is left exactly when another face than ``card``
    is outside every 坎 (read from the memoised ``tally``)."""
    hand = tuple(player.hand)
    return card not in player.chou and _pair_to_peng(hand, tally(hand), card)


def _pair_to_peng(hand: tuple[str, ...], held: Tally, card: str) -> bool:
    """``can_peng`` without the 臭 test, for the concealed ``hand`` as a tuple and its tally."""
    return hand.count(card) == 2 and held.free_faces > 1


def kaiduo_source(player: Player, card: str, own: bool) -> bool:
    """Return whether ``card`` forces a 开舵 for ``player`` (坎/扫 on another's card, 碰 on own draw)."""
    if not own and player.hand.count(card) == 3:
        return True
    for group in player.groups:
        if len(group.cards) == 3 and group.cards[0] == card:
            if (not own and group.kind in ("sao", "guosao")) or (own and group.kind == "peng"):
                return True
    return False


#: ``_ORDERS[by_draw][source]``: the seats in claim order (see ``claim_order``).
_ORDERS = {by_draw: tuple(tuple((source + k) % 3 for k in (range(3) if by_draw else range(1, 3)))
                          for source in range(3)) for by_draw in (False, True)}


def claim_order(source: int, by_draw: bool) -> list[int]:
    """Return the seats in claim order: the drawer first on a draw; after the discarder on a discard."""
    return list(seat_order(source, by_draw))


def seat_order(source: int, by_draw: bool) -> tuple[int, ...]:
    """``claim_order`` as a shared tuple (no list built: it is read for every window)."""
    return _ORDERS[bool(by_draw)][source]


#: The listed answers without fields, shared by every window (read-only, like the 吃 options).
_HU, _KAIDUO, _PENG, _PASS = ({"type": kind} for kind in ("hu", "kaiduo", "peng", "pass"))


def window_options(players: list[Player], card: str, source: int,
                   by_draw: bool) -> tuple[dict[int, list[dict[str, Any]]], int | None]:
    """Return ({asked seat: legal answers}, forced 开舵 seat or None) for an exposed card.

    胡 first (on a discard a winner must win: 放炮必胡, seed 3.6), then the forced 开舵, 碰 and
    吃 (on a draw the drawer and the next seat, on a discard only the next seat; 臭 faces excluded).
    Only seats whose answer can matter are asked: when someone must win on a discard, only the
    winners; when a 开舵 is forced, nobody's 碰/吃. The answer dicts are shared (between windows
    and with the 吃 memo): read them, never change them (``game.legal_actions`` copies them).
    """
    order = seat_order(source, by_draw)
    asked = []
    hu = []
    kaiduo = None
    for s in order:
        player = players[s]
        hand = tuple(player.hand)
        held = tally(hand)
        asked.append((s, player, hand, held))
        own = by_draw and s == source
        if evaluate_held(player, hand, held, card, own) is not None:
            hu.append(s)
        if kaiduo is None and kaiduo_source(player, card, own):
            kaiduo = s
    if hu and not by_draw:
        return {s: [_HU] for s in order if s in hu}, kaiduo
    eaters = order[:2] if by_draw else order[:1]
    options: dict[int, list[dict[str, Any]]] = {}
    for s, player, hand, held in asked:
        listed = [_HU] if s in hu else []
        if s == kaiduo:
            if listed:
                options[s] = [_HU, _KAIDUO]
            continue
        if kaiduo is None and card not in player.chou:
            if _pair_to_peng(hand, held, card):
                listed.append(_PENG)
            if s in eaters:
                listed += _chi_listed(held.free, held.free_total, card)
        if listed:
            listed.append(_PASS)
            options[s] = listed
    return options, kaiduo
