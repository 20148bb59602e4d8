"""Whether a player's cards win, and their best scoring (rulings "Groups", "胡息 table", "Deal and turn flow").

A winning hand is every card the player holds split into groups: the laid groups as they are, the
concealed cards (plus the winning card) into groups of three, with one pair (将) allowed only when
the player has a 开舵 or 扫穿. The most-胡息 split counts and it needs at least 10 胡息.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.zipai.groups import FOUR_KINDS, MIN_HUXI, huxi
from engine.zipai.split import Split, best_packed, four_concealed
from engine.zipai.state import Group, Player
from engine.zipai.tally import UNIT, Tally, tally


@dataclass(frozen=True)
class WinHand:
    """A winning arrangement.

    Attributes:
        huxi: the total 胡息.
        groups: ``({"kind", "cards", "huxi"}, ...)``: laid groups then the concealed split.
    """

    huxi: int
    groups: tuple[dict[str, Any], ...]


def _entry(kind: str, cards, concealed: bool = False) -> dict[str, Any]:
    return {"kind": kind, "cards": list(cards), "huxi": huxi(kind, cards), "concealed": concealed}


def _triple_kind(player: Player, card: str, own: bool) -> str:
    """How a triple completed by the winning card scores: 扫/过扫 on one's own draw, else 碰 or 过碰."""
    passed = card in player.passed_peng
    if own:
        return "guosao" if passed else "sao"
    return "guopeng" if passed else "peng"


def _win_hand(laid: list[Group], found: Split) -> WinHand:
    """Return the arrangement of ``laid`` groups plus the concealed ``found`` groups."""
    groups = [_entry(g.kind, g.cards) for g in laid]
    groups += [_entry(kind, cards, True) for kind, cards in found]
    return WinHand(sum(g["huxi"] for g in groups), tuple(groups))


def _pairs_for(size: int, laid: list[Group]) -> int | None:
    """Return how many pairs (将) a split of ``size`` concealed cards into groups of three
    contains, or None when none can exist. At most one pair is allowed, and only with a laid
    开舵 or 扫穿 (``laid``), so a count ≡ 0 mod 3 has none (a pair would leave a count ≡ 1),
    ≡ 2 has one if allowed, ≡ 1 never splits (rulings "Groups")."""
    left = size % 3
    if not left:
        return 0
    if left == 2:
        for group in laid:
            if group.kind in FOUR_KINDS:
                return 1
    return None


def _concealed_split(held: Tally, card: str | None, pairs: int, triple_kind: str) -> Split | None:
    """Return the 坎 then the best split, with ``pairs`` pairs (``_pairs_for``), of the
    concealed cards of tally ``held`` plus the free ``card``; None when there is none.

    Raises:
        ValueError: when the concealed cards hold four of a face (``split.four_concealed``).
    """
    free, kans, four, _, _ = held
    if four:
        raise four_concealed(four)
    found = best_packed(free if card is None else free + UNIT[card], pairs, triple_kind)
    return None if found is None else kans + found[1]


def _laid_triple(laid: list[Group], card: str) -> bool:
    """Return whether a laid 3-group is of ``card`` (a 4-group may come from it)."""
    for group in laid:
        if group.cards[0] == card and len(group.cards) == 3:
            return True
    return False


def _four_options(player: Player, hand: tuple[str, ...], card: str, own: bool):
    """Yield (laid groups, concealed cards) where ``card`` completes a 4-group (开舵/扫穿).

    开舵 from a 坎 or 扫 on another's card, from a 碰 only on one's own draw; 扫穿 from a 坎 or 扫
    on one's own draw (seed 3.3, 3.4). ``hand`` is ``player.hand`` as a tuple.
    """
    if hand.count(card) == 3:
        rest = tuple(c for c in hand if c != card)
        yield player.groups + [Group("saochuan" if own else "kaiduo", [card] * 4)], rest
    for i, group in enumerate(player.groups):
        if group.cards[0] != card or len(group.cards) != 3:
            continue
        if group.kind in ("sao", "guosao"):
            kind = "saochuan" if own else "kaiduo"
        elif group.kind == "peng" and own:
            kind = "kaiduo"
        else:
            continue
        laid = player.groups[:i] + [Group(kind, [card] * 4)] + player.groups[i + 1:]
        yield laid, hand


def evaluate_win(player: Player, card: str | None = None, own: bool = False) -> WinHand | None:
    """Return the player's best winning arrangement, or None if it does not win (< 10 胡息 or no split).

    Args:
        player: the player's current cards.
        card: the exposed card won on, or None to test the hand as it is (天胡, or after a forced
            扫/扫穿 on one's own draw).
        own: the card is the player's own draw (a triple it completes is a 扫, not a 碰).

    A card that could make a 开舵 may also be used elsewhere (胡牌时可以不开舵, seed 3.5). The
    arrangements tried are the hand with ``card``, then each 4-group ``card`` completes; the first
    with the most 胡息 is returned. A concealed split is searched first and the arrangement is
    only built when one exists (almost every asked seat does not win).
    """
    hand = tuple(player.hand)
    return evaluate_held(player, hand, tally(hand), card, own)


def evaluate_held(player: Player, hand: tuple[str, ...], held: Tally, card: str | None,
                  own: bool) -> WinHand | None:
    """``evaluate_win`` for a caller that already has ``player.hand`` as the tuple ``hand`` and
    its ``tally`` ``held`` (a claim window reads them for 碰 and 吃 too)."""
    laid = player.groups
    if card is None:
        pairs = _pairs_for(len(hand), laid)
        return None if pairs is None else _winning(None, laid, _concealed_split(held, None,
                                                                                 pairs, "kan"))
    held_copies = hand.count(card)
    best = None
    pairs = _pairs_for(len(hand) + 1, laid)
    if pairs is not None:
        # Only a held pair of ``card`` makes a triple with it (a 坎 is outside the split).
        kind = _triple_kind(player, card, own) if held_copies == 2 else "kan"
        best = _winning(None, laid, _concealed_split(held, card, pairs, kind))
    if held_copies == 3 or _laid_triple(laid, card):
        for four_laid, rest in _four_options(player, hand, card, own):
            pairs = _pairs_for(len(rest), four_laid)
            if pairs is not None:
                best = _winning(best, four_laid, _concealed_split(tally(rest), None, pairs,
                                                                  "kan"))
    return best


def _winning(best: WinHand | None, laid: list[Group], found: Split | None) -> WinHand | None:
    """Return ``best`` or the arrangement of ``laid`` plus ``found``, whichever has more 胡息
    (``best`` on a tie); an arrangement under 10 胡息 or without a split (``found`` None) never
    wins."""
    if found is None:
        return best
    win = _win_hand(laid, found)
    if win.huxi < MIN_HUXI or (best is not None and win.huxi <= best.huxi):
        return best
    return win


def all_cards(player: Player) -> list[str]:
    """Return every card the player holds: hand plus all groups (for 翻醒, ruling on 手中)."""
    return list(player.hand) + [c for g in player.groups for c in g.cards]

