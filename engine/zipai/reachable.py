"""What a re-dealt zipai state must keep to be one the rules can reach (used by ``redeal``).

A re-deal moves the cards a viewer cannot see among the hidden places (``redeal.py``). Counts
alone do not make a reachable state, and ``apply`` relies on the facts below, so a candidate
re-deal is kept only when they hold for every *open* seat (a seat whose concealed cards it
re-dealt). Two kinds of checks:

* **invariants** of every reachable state (``concealed_faults``), which follow from the rule
  that a drawn card never enters the hand after the deal (seed 3.1 除首次所抓牌外，均不得将所摸之牌
  放入手中) and the forced 扫穿/扫/开舵 (seed 3.3-3.5);
* **kept decisions** (``same_decisions``): the pending decision stored in the state (the claim
  window's listed answers, the discarder's self-drawn win and discards) must be exactly what the
  rules list for the re-dealt cards, else ``apply`` of a listed action breaks.

Not checked (they need the hand's history, which the state does not keep): whether an open
seat's pair, 扫 or 吃 group agrees with the exposures it saw before (a 碰 it should have been
offered), and which card of a shown 吃 group was the exposed one.
"""

from __future__ import annotations

from collections import Counter

from engine.zipai.claims import free_cards, window_options
from engine.zipai.state import HIDDEN_KINDS, Hand, Match, Player, claim_window
from engine.zipai.winning import evaluate_win

#: Group kinds made of identical cards taken from the hand's pair or 坎 (or all four).
SAME_FACE_KINDS = frozenset({"peng", "sao", "guosao", "kaiduo", "saochuan"})


def four_in_hand(player: Player) -> bool:
    """Return whether the concealed hand holds four copies of a face.

    Never reachable: opening fours are declared at once as 扫穿 (seed 3.4 起手摸起4张相同牌) and
    the hand gains no card after the deal, so ``split.take_kans`` refuses such a hand.
    """
    return any(n >= 4 for n in Counter(player.hand).values())


def set_face_in_hand(player: Player) -> bool:
    """Return whether the hand holds a face of one of the seat's own same-face groups.

    Never reachable: a 碰 or 扫 takes the hand's pair (with three held it would be a 开舵 or 扫穿,
    seed 3.3-3.4), a 开舵/扫穿 takes all four, and the hand gains no card afterwards.
    """
    faces = {g.cards[0] for g in player.groups if g.kind in SAME_FACE_KINDS}
    return any(card in faces for card in player.hand)


def sao_after_passed_peng(player: Player) -> bool:
    """Return whether a face-down 扫 has a face the seat passed a 碰 on.

    Never reachable: that draw makes a 过扫, which shows a card (seed 3.2 过扫亮1张); after a 扫
    no pair is left to be offered a 碰.
    """
    return any(g.kind == "sao" and g.cards[0] in player.passed_peng for g in player.groups)


def kan_of_pile_face(player: Player, piles: set[str]) -> bool:
    """Return whether the hand holds a 坎 (three of a face) of a face lying in a pile.

    Never reachable: another seat's exposed copy forces this seat's 开舵 (unless someone wins,
    which ends the hand), and the seat cannot expose one itself (its own draw makes a 扫穿; a 坎
    cannot be discarded). Seed 3.1 坎 不能拆散, 3.3 开舵, 3.5 强制规则.
    """
    return any(n == 3 and card in piles for card, n in Counter(player.hand).items())


def concealed_faults(match: Match, seats: list[int]) -> list[str]:
    """Return the names of the invariants broken by the concealed cards of ``seats``.

    An empty list means none is broken (every reachable state gives an empty list).
    """
    hand = match.hand
    piles = {card for p in hand.players for card in p.pile}
    faults = []
    for seat in seats:
        player = hand.players[seat]
        checks = {"four_in_hand": four_in_hand(player),
                  "set_face_in_hand": set_face_in_hand(player),
                  "sao_after_passed_peng": sao_after_passed_peng(player),
                  "kan_of_pile_face": kan_of_pile_face(player, piles)}
        faults += [f"{name}:{seat}" for name, broken in checks.items() if broken]
    return faults


def _concealed(player: Player) -> list[str]:
    hidden = [c for g in player.groups if g.in_hand or g.kind in HIDDEN_KINDS for c in g.cards]
    return player.hand + hidden


def liang_kept(real: Match, candidate: Match) -> bool:
    """Return whether a dealer that still conceals the 亮张's face in ``real`` does so in
    ``candidate`` (everyone saw it dealt to the dealer, rulings "Deal and turn flow")."""
    liang, dealer = real.hand.liang, real.hand.dealer
    if liang not in _concealed(real.hand.players[dealer]):
        return True
    return liang in _concealed(candidate.hand.players[dealer])


def _same_window(hand: Hand) -> bool:
    window = claim_window(hand)
    found = window_options(hand.players, window.card, window.source, window.by_draw)
    return found == (window.options, window.kaiduo_seat)


def _same_discard_turn(hand: Hand, real: Player) -> bool:
    player = hand.players[hand.turn]
    wins = evaluate_win(player) is not None
    return (wins == (hand.self_win is not None)
            and bool(free_cards(player.hand)) == bool(free_cards(real.hand)))


def same_decisions(real: Match, candidate: Match, open_seats: list[int]) -> bool:
    """Return whether ``candidate``'s stored pending decision is what the rules list for it.

    In a claim window: ``claims.window_options`` of the re-dealt cards equals the stored asked
    seats, their listed answers and the forced 开舵 seat (so an answer already given stays legal
    and the window would have opened the same way). In the discard phase of an open seat: its
    hand wins exactly when a self-drawn win is listed (``hand.self_win``) and it has a card to
    discard exactly when the real hand has. (A hand that wins after a 吃 or 碰, where no win is
    listed, is reachable but refused: the check may be narrower than the rules, never wider.)
    Rulings "Deal and turn flow" (claims, 放炮必胡, 重舵).
    """
    hand = candidate.hand
    if hand.phase == "claim" and hand.window is not None:
        return _same_window(hand)
    if hand.phase == "discard" and hand.turn in open_seats:
        return _same_discard_turn(hand, real.hand.players[hand.turn])
    return True


def reachable(real: Match, candidate: Match, open_seats: list[int]) -> bool:
    """Return whether ``candidate`` (``real`` with the concealed cards of ``open_seats``, their
    face-down groups and the stock re-dealt) keeps every check of this module."""
    return (not concealed_faults(candidate, open_seats) and liang_kept(real, candidate)
            and same_decisions(real, candidate, open_seats))

