"""Test helpers: build zipai positions by hand (cards written in Chinese) and drive them."""

from __future__ import annotations

from collections import Counter

from engine.zipai import GAME, flow, parse_cards
from engine.zipai.cards import sort_cards
from engine.zipai.state import Group, Hand, Match, Player, clone

# A concealed 18-card base worth 12 胡息 split one way only:
# 一二三 (3) 壹贰叁 (6) 二七十 (3) 四五六 (0) 肆伍陆 (0) 柒捌玖 (0).
BASE = "一二三 壹贰叁 二七十 四五六 肆伍陆 柒捌玖"


def cards(text: str) -> list[str]:
    """Return the sorted wire codes of ``text``."""
    return sort_cards(parse_cards(text))


def player(hand: str = "", groups: list[tuple[str, str]] = (), chou: str = "",
           passed_peng: str = "") -> Player:
    """Return a Player holding ``hand``, laid ``groups`` ([(kind, cards)]), 臭 and 过碰 faces."""
    laid = [Group(kind, parse_cards(text)) for kind, text in groups]
    fours = sum(1 for g in laid if len(g.cards) == 4)
    return Player(cards(hand), laid, [], parse_cards(chou), parse_cards(passed_peng), fours)


def table(players: list[Player], stock: str = "", dealer: int = 2, stake: int = 1,
          dealer_discarded: bool = True, hands: int = 8) -> Match:
    """Return a match in hand 1 with these players and stock (top first); nobody is deciding yet."""
    options = GAME.validate_options({"stake": stake, "hands": hands})
    hand = Hand(number=1, dealer=dealer, liang="x1", stock=parse_cards(stock), players=players,
                dealer_discarded=dealer_discarded)
    return Match(options, b"test".hex(), [0, 0, 0], hand)


def to_discard(match: Match, seat: int) -> Match:
    """Return a copy of ``match`` in which ``seat`` must discard."""
    match = clone(match)
    hand = match.hand
    hand.phase, hand.turn, hand.must_discard, hand.self_win, hand.window = (
        "discard", seat, True, None, None)
    return match


def discarded(match: Match, seat: int, card: str):
    """Return (state, events) after ``seat`` discards ``card`` (written in Chinese)."""
    return GAME.apply(to_discard(match, seat), seat, {"type": "discard", "card": cards(card)[0]})


def drawn(match: Match, seat: int):
    """Return (state, events) after ``seat`` draws the top stock card (and the automatic steps)."""
    match = clone(match)
    events = flow.draw_chain(match, seat, [])
    return match, events


def all_cards(state) -> Counter:
    """Count every card of the running hand: stock, hands, piles, shown groups, exposed card."""
    hand = state.hand
    found = Counter(hand.stock)
    for p in hand.players:
        found.update(p.hand)
        found.update(p.pile)
        found.update(c for g in p.groups for c in g.cards)
    if hand.window is not None:
        found[hand.window.card] += 1
    return found
