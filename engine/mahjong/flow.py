"""The turn flow of a hand: turns, draws, discards, kongs, claim windows, wins and the next hand
(rulings "A turn", "Claims on a discard", "The end of the wall", "Hebei: ready declaration").

Every function works on a ``Match`` that ``apply`` has already copied (``state.clone``) and
appends the events it makes to ``events``. Steps that need no decision — the next seat's draw,
a kong's replacement, a locked hand's only discard — are returned as a ``Next`` step and run
by ``run`` in a loop until some seat has a decision (or the match is over).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import Event
from engine.mahjong.claims import window_options, winning_answer
from engine.mahjong.deal import deal_hand
from engine.mahjong.progress import next_seating, ranks
from engine.mahjong.scoring import sheet
from engine.mahjong.state import Discard, Match, Meld, Player, Window
from engine.mahjong.table import next_seat
from engine.mahjong.tiles import is_flower, sorted_tiles
from engine.mahjong.turn import after_own_kong, only_discard_of_drawn, turn_options
from engine.mahjong.wall import draw_head, draw_tail
from engine.mahjong.winning import Win, claim_win, self_win

Events = list[Event]
#: A step the flow runs next without a decision: (``"draw"`` | ``"replacement"`` |
#: ``"auto_discard"``, seat), or None when a decision is waited for.
Next = tuple[str, int] | None


def run(match: Match, nxt: Next, events: Events) -> Events:
    """Run the automatic steps from ``nxt`` until a decision is waited for; return ``events``."""
    while nxt is not None:
        kind, seat = nxt
        nxt = _STEPS[kind](match, seat, events)
    return events


# --------------------------------------------------------------------------- hands


def begin_hand(match: Match, number: int, order: tuple[int, ...], dealer: int,
               events: Events) -> Next:
    """Deal hand ``number`` and give the dealer its first turn (it discards, wins on the deal
    or declares a concealed kong)."""
    events += deal_hand(match, number, dealer, order)
    return begin_turn(match, dealer, "deal", events)


def end_hand(match: Match, win: Win | None, events: Events, robbed: bool = False) -> Next:
    """Score the hand (``win`` None: a draw), add it to the totals and deal the next hand, or
    end the match after its last hand."""
    hand = match.hand
    result = sheet(match, win, robbed)
    match.totals = list(result["totals"])
    match.results.append(result)
    events.append(Event("hand_over", result))
    following = next_seating(match, None if win is None else win.seat)
    if following is None:
        match.over = True
        hand.phase, hand.window, hand.asked, hand.answers = "over", None, {}, {}
        events.append(Event("match_over", {"totals": list(match.totals),
                                           "ranks": list(ranks(match.totals))}))
        return None
    number, order, dealer = following
    return begin_hand(match, number, order, dealer, events)


# --------------------------------------------------------------------------- turns


def begin_turn(match: Match, seat: int, step: str, events: Events) -> Next:
    """Make ``seat`` decide in its turn (``step``: how it came to act); a locked hand whose
    only choice is the drawn tile's discard has it played at once."""
    hand = match.hand
    hand.phase, hand.turn, hand.step, hand.window, hand.answers = "turn", seat, step, None, {}
    options = turn_options(match)
    hand.asked = {seat: options}
    if only_discard_of_drawn(options, hand.players[seat]):
        return ("auto_discard", seat)
    return None


def _take_drawn(match: Match, seat: int, step: str, tile: str, events: Events) -> Next:
    """Hold ``tile`` apart as the drawn tile, exposing and replacing flowers from the tail first
    (``mcr``); a flower that is the wall's last tile ends the hand in a draw. A flower replaced
    after a kong's replacement makes the turn a plain draw (rulings "Scoring: `mcr`")."""
    hand = match.hand
    player = hand.players[seat]
    while is_flower(tile):
        player.flowers.append(tile)
        events.append(Event("flower", {"seat": seat, "tile": tile}))
        if hand.wall_left == 0:
            return end_hand(match, None, events)
        tile, step = draw_tail(hand), "draw"
        events.append(Event("drew", {"seat": seat, "from": "tail"}))
    player.drawn = tile
    return begin_turn(match, seat, step, events)


def draw(match: Match, seat: int, events: Events) -> Next:
    """``seat`` draws from the head; with the wall empty the hand is a draw (荒庄)."""
    hand = match.hand
    if hand.wall_left == 0:
        return end_hand(match, None, events)
    tile = draw_head(hand)
    events.append(Event("drew", {"seat": seat, "from": "head"}))
    return _take_drawn(match, seat, "draw", tile, events)


def replacement(match: Match, seat: int, events: Events) -> Next:
    """``seat`` draws a kong's replacement from the tail (a kong needs a tile left)."""
    tile = draw_tail(match.hand)
    events.append(Event("drew", {"seat": seat, "from": "tail"}))
    return _take_drawn(match, seat, "kong", tile, events)


def _merge_drawn(player: Player) -> None:
    """Put the drawn tile among the standing tiles."""
    if player.drawn is not None:
        player.concealed = sorted_tiles(player.concealed + [player.drawn])
        player.drawn = None


def discard(match: Match, seat: int, tile: str, declare: bool, events: Events,
            auto: bool = False) -> Next:
    """``seat`` discards ``tile`` (``declare``: declaring ready with it); the claim window
    opens when some seat can claim, else the next seat draws."""
    hand = match.hand
    player = hand.players[seat]
    first = not any(p.discards for p in hand.players)
    if player.drawn == tile:
        player.drawn = None
    else:
        player.concealed.remove(tile)
        _merge_drawn(player)
    player.discards.append(Discard(tile, ready=declare))
    player.ready = player.ready or declare
    hand.last_discarder = seat
    events.append(Event("discarded", {"seat": seat, "tile": tile, "ready": declare,
                                      "auto": auto}))
    window = Window(tile, seat, last=hand.wall_left == 0, first=first)
    return open_window(match, window, events)


def auto_discard(match: Match, seat: int, events: Events) -> Next:
    """A locked hand discards its drawn tile (nothing else is legal)."""
    drawn = match.hand.players[seat].drawn
    assert drawn is not None, "a locked hand is in turn after a draw"
    return discard(match, seat, drawn, False, events, auto=True)


def own_kong(match: Match, seat: int, tile: str, events: Events) -> Next:
    """``seat`` declares a concealed kong (four held) or adds ``tile`` to its pung; an added
    kong first opens a window for robbing it (抢杠和)."""
    hand = match.hand
    player = hand.players[seat]
    concealed, melds = after_own_kong(player, tile)
    if len(melds) == len(player.melds):          # added to a pung: may be robbed
        player.concealed, player.drawn = concealed, None
        events.append(Event("kong_declared", {"seat": seat, "tile": tile}))
        return open_window(match, Window(tile, seat, robbing=True), events)
    player.concealed, player.drawn, player.melds = concealed, None, melds
    events.append(Event("kong", {"seat": seat, "kind": "concealed_kong", "tile": None}))
    return ("replacement", seat)


def finish_added_kong(match: Match, seat: int, tile: str, events: Events) -> Next:
    """Nobody robbed the added kong: the pung becomes a kong and ``seat`` draws its replacement."""
    player = match.hand.players[seat]
    player.melds = [Meld("added_kong", (tile,) * 4, m.source, m.claimed)
                    if m.kind == "pung" and m.tiles[0] == tile else m for m in player.melds]
    events.append(Event("kong", {"seat": seat, "kind": "added_kong", "tile": tile}))
    return ("replacement", seat)


def self_win_now(match: Match, seat: int, events: Events) -> Next:
    """``seat`` wins with its own tiles (自摸, on a kong's replacement, or on the deal)."""
    win = self_win(match)
    assert win is not None, "a self-drawn win is taken only when listed"
    events.append(Event("won", {"seat": seat, "tile": win.win_tile, "way": "self_drawn"}))
    return end_hand(match, win, events)


# --------------------------------------------------------------------------- claim windows


def open_window(match: Match, window: Window, events: Events) -> Next:
    """Ask every seat that can claim ``window``'s tile; with none, go on at once."""
    hand = match.hand
    asked = window_options(match, window)
    if not asked:
        return _unclaimed(match, window, events)
    hand.phase, hand.turn, hand.window, hand.asked, hand.answers = (
        "claim", window.source, window, asked, {})
    events.append(Event("claims_pending", {"tile": window.tile, "from": window.source}))
    return None


def answer(match: Match, seat: int, action: dict[str, Any], events: Events) -> Next:
    """Record ``seat``'s answer; once every asked seat has answered, resolve the window."""
    hand = match.hand
    hand.answers[seat] = action
    if hand.answers.keys() < hand.asked.keys():
        return None
    return _resolve(match, events)


def _unclaimed(match: Match, window: Window, events: Events) -> Next:
    if window.robbing:
        return finish_added_kong(match, window.source, window.tile, events)
    return ("draw", next_seat(match.hand.order, window.source))


def _mark_taken(match: Match, window: Window) -> None:
    """Mark the window's discard as taken (robbing: there is no discard)."""
    if window.robbing:
        return
    discards = match.hand.players[window.source].discards
    discards[-1] = replace(discards[-1], taken=True)


def _resolve(match: Match, events: Events) -> Next:
    """Apply the window's winning answer (``claims.winning_answer``), or go on unclaimed."""
    hand = match.hand
    window = hand.window
    assert window is not None, "the claim phase has an open window"
    best = winning_answer(match)
    events.append(Event("claims_closed", {"tile": window.tile, "from": window.source}))
    if best is None:
        return _unclaimed(match, window, events)
    seat, action = best
    if action["type"] == "win":
        # Scored before the discard is marked taken: it must still count as lying in the
        # pool for 和绝张, exactly as when the win was listed.
        win = claim_win(match, seat, window)
        _mark_taken(match, window)
        hand.players[seat].drawn = window.tile
        events.append(Event("won", {"seat": seat, "tile": window.tile,
                                    "way": "robbing" if window.robbing else "discard"}))
        return end_hand(match, win, events, robbed=window.robbing)
    _mark_taken(match, window)
    return _take_claimed(match, seat, action, window, events)


def _take_claimed(match: Match, seat: int, action: dict[str, Any], window: Window,
                  events: Events) -> Next:
    """``seat`` makes its 碰, 吃 or 明杠 with the window's tile: after 碰/吃 it discards, after
    明杠 it draws the replacement from the tail."""
    player = match.hand.players[seat]
    tile, kind = window.tile, action["type"]
    used = action["tiles"] if kind == "chow" else [tile] * (3 if kind == "kong" else 2)
    for t in used:
        player.concealed.remove(t)
    group = sorted_tiles(used + [tile])
    player.melds.append(Meld(kind, tuple(group), window.source, tile))
    events.append(Event("claimed", {"seat": seat, "kind": kind, "tile": tile,
                                    "from": window.source, "tiles": group}))
    if kind == "kong":
        return ("replacement", seat)
    return begin_turn(match, seat, "claimed", events)


_STEPS: dict[str, Callable[[Match, int, Events], Next]] = {
    "draw": draw, "replacement": replacement, "auto_discard": auto_discard,
}
