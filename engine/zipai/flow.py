"""The turn flow of a hand: deal, draws, claim windows, discards, wins and the next hand.

Every function here works on a ``Match`` that ``apply`` has already copied (``state.clone``;
a player record is changed only through ``state.own_player``), and returns the events it
produced. Automatic steps (draws, forced 扫/扫穿, unclaimed cards) run until a seat
has a decision (rulings "Deal and turn flow").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core import Event, Rng
from engine.zipai.cards import deck, sort_cards
from engine.zipai.claims import seat_order, window_options
from engine.zipai.scoring import fan_xing, win_result
from engine.zipai.state import Group, Hand, Match, Player, Window, claim_window, own_player
from engine.zipai.tally import discards, tally
from engine.zipai.winning import all_cards, evaluate_win

SEATS = 3
DEALER_CARDS, OTHER_CARDS = 21, 20

Events = list[Event]


def _next(seat: int) -> int:
    return (seat + 1) % SEATS


def _others(seat: int) -> frozenset[int]:
    return frozenset(s for s in range(SEATS) if s != seat)


def _take(hand: list[str], cards: list[str]) -> None:
    for card in cards:
        hand.remove(card)


# --------------------------------------------------------------------------- dealing


def _opening_saochuan(player: Player, stock: list[str]) -> int:
    """Lay the player's opening four-of-a-kinds as 扫穿; return how many (seed 3.4).

    One set stays in the hand (hidden); with two or more, all are laid face-down and the player
    draws one extra card from the stock per extra set (a set made by an extra card counts too).
    """
    made = drawn = 0
    while True:
        fours = sorted(c for c in set(player.hand) if player.hand.count(c) == 4)
        for card in fours:
            _take(player.hand, [card] * 4)
            player.groups.append(Group("saochuan", [card] * 4))
        made += len(fours)
        owed = max(0, made - 1) - drawn
        if not fours and owed == 0:
            break
        for _ in range(min(owed, len(stock))):
            player.hand.append(stock.pop(0))
        drawn += owed
    player.hand[:] = sort_cards(player.hand)
    if made == 1:
        player.groups[0].in_hand = True
    player.fours = made
    return made


def deal_hand(match: Match, number: int, dealer: int) -> tuple[int | None, Events]:
    """Deal hand ``number`` with ``dealer``; return (seat to draw next or None, events).

    Dealer 21 cards (the 21st is the 亮张), others 20, stock 19 (seed 3.1), dealt from a shuffle
    derived from the match seed and the hand number.
    """
    cards = Rng.derive(bytes.fromhex(match.seed), "deal", number).shuffled(deck())
    sizes = {dealer: DEALER_CARDS, _next(dealer): OTHER_CARDS, _next(_next(dealer)): OTHER_CARDS}
    hands, at = {}, 0
    for seat in (dealer, _next(dealer), _next(_next(dealer))):
        hands[seat] = cards[at:at + sizes[seat]]
        at += sizes[seat]
    liang = hands[dealer][-1]
    players = [Player(sort_cards(hands[s])) for s in range(SEATS)]
    hand = Hand(number=number, dealer=dealer, liang=liang, stock=cards[at:], players=players)
    match.hand = hand
    events = [Event("hand_started", {"hand": number, "dealer": dealer, "liangzhang": liang})]
    for seat in (dealer, _next(dealer), _next(_next(dealer))):
        made = _opening_saochuan(players[seat], hand.stock)
        if made:
            data = {"seat": seat, "sets": made, "on_table": made > 1}
            events.append(Event("opening_saochuan", data, None if made > 1 else frozenset({seat})))
    return start_discard(match, dealer, must_discard=True, self_win="tianhu"), events


# --------------------------------------------------------------------------- decisions


def start_discard(match: Match, seat: int, must_discard: bool, self_win: str | None) -> int | None:
    """Make ``seat`` decide: discard (if owed and possible) and/or win with its hand.

    Returns the seat that draws next when there is nothing to decide (no card to discard and no
    win: the turn passes to the next player's draw), else None.
    """
    hand = match.hand
    player = hand.players[seat]
    can_win = self_win is not None and evaluate_win(player) is not None
    can_discard = must_discard and tally(tuple(player.hand)).free_faces > 0
    if not can_win and not can_discard:
        return _next(seat)
    hand.phase, hand.turn, hand.window = "discard", seat, None
    hand.must_discard = can_discard
    hand.self_win = self_win if can_win else None
    return None


def listed_discard_actions(hand: Hand) -> tuple[dict[str, Any], ...]:
    """Return the legal actions of the seat in the discard phase (hu, discards, or pass) as
    shared dicts (read them, never change them: ``legal_actions`` copies them), memoised on the
    discarder's cards and whether a win / a discard is listed (``apply`` checks an
    action against them on every discard-phase move)."""
    return _discard_table(tuple(hand.players[hand.turn].hand), bool(hand.self_win),
                          hand.must_discard)


@lru_cache(maxsize=1 << 8)
def _discard_table(cards: tuple[str, ...], win: bool,
                   must_discard: bool) -> tuple[dict[str, Any], ...]:
    out = [{"type": "hu"}] if win else []
    if must_discard:
        out += [{"type": "discard", "card": c} for c in discards(cards)]
    else:
        out.append({"type": "pass"})
    return tuple(out)


# --------------------------------------------------------------------------- drawing


def _forced_sao(hand: Hand, seat: int, card: str) -> str | None:
    """Apply the drawer's (``seat``) forced 扫穿/扫/过扫 on its own draw; return the kind made or
    None."""
    player = hand.players[seat]
    if player.hand.count(card) == 3:
        player = own_player(hand, seat)
        _take(player.hand, [card] * 3)
        player.groups.append(Group("saochuan", [card] * 4))
        player.fours += 1
        return "saochuan"
    for i, group in enumerate(player.groups):
        if group.kind in ("sao", "guosao") and group.cards[0] == card:
            player = own_player(hand, seat)
            player.groups[i] = Group("saochuan", [card] * 4, group.in_hand)
            player.fours += 1
            return "saochuan"
    if player.hand.count(card) == 2:
        player = own_player(hand, seat)
        _take(player.hand, [card] * 2)
        kind = "guosao" if card in player.passed_peng else "sao"
        player.groups.append(Group(kind, [card] * 3))
        return kind
    return None


def draw(match: Match, seat: int) -> tuple[int | None, Events]:
    """``seat`` draws the top stock card; return (next seat to draw or None, events).

    Stock empty: 荒庄. A forced 扫/扫穿 is shown only to the drawer (过扫 shows the card); after
    it the drawer may win with its hand, then discards unless it was a 重舵. Otherwise the card is
    turned face-up and a claim window opens.
    """
    hand = match.hand
    if not hand.stock:
        return end_hand(match, None)
    card = hand.stock.pop(0)
    kind = _forced_sao(hand, seat, card)
    if kind is None:
        events = [Event("drawn", {"seat": seat, "card": card})]
        nxt, more = open_window(match, card, seat, by_draw=True)
        return nxt, events + more
    shown = card if kind == "guosao" else None
    events = [Event("drawn", {"seat": seat, "card": shown, "forced": kind}),
              Event("drawn_own", {"seat": seat, "card": card, "forced": kind}, frozenset({seat}))]
    chongduo = kind == "saochuan" and hand.players[seat].fours >= 2
    return start_discard(match, seat, must_discard=not chongduo, self_win="zimo"), events


# --------------------------------------------------------------------------- claims


def open_window(match: Match, card: str, source: int, by_draw: bool,
                dihu: bool = False) -> tuple[int | None, Events]:
    """Open the claim window on an exposed card; resolve at once when nobody is asked."""
    hand = match.hand
    options, kaiduo = window_options(hand.players, card, source, by_draw)
    hand.window = Window(card, source, by_draw, options, kaiduo_seat=kaiduo, dihu=dihu)
    hand.phase = "claim"
    if not options:
        return resolve_window(match)
    return None, [Event("claims_pending", {"card": card})]


def _mark_passes(hand: Hand) -> None:
    """A passed 吃/碰 makes the card 臭 for that player; a passed 碰 is remembered (过碰/过扫)."""
    window = claim_window(hand)
    for seat, answer in window.answers.items():
        if answer["type"] != "pass":
            continue
        kinds = {o["type"] for o in window.options[seat]}
        player = hand.players[seat]
        if kinds & {"chi", "peng"} and window.card not in player.chou:
            player = own_player(hand, seat)
            player.chou.append(window.card)
        if "peng" in kinds and window.card not in player.passed_peng:
            own_player(hand, seat).passed_peng.append(window.card)


def _first_by_kind(window: Window) -> dict[str, int]:
    """Return {answer type: the first seat in claim order that gave it}."""
    answers = window.answers
    first: dict[str, int] = {}
    for seat in seat_order(window.source, window.by_draw):
        if seat in answers:
            first.setdefault(answers[seat]["type"], seat)
    return first


def resolve_window(match: Match) -> tuple[int | None, Events]:
    """Resolve the window by priority: 胡 (first in order) → 开舵 → 碰 → 吃 → to the pile."""
    hand = match.hand
    window = claim_window(hand)
    _mark_passes(hand)
    first = _first_by_kind(window)
    winner = first.get("hu")
    if winner is not None:
        return window_win(match, winner)
    hand.window = None
    if window.kaiduo_seat is not None:
        return claim_kaiduo(match, window.kaiduo_seat, window.card)
    taker = first.get("peng")
    if taker is not None:
        return claim_peng(match, taker, window.card)
    taker = first.get("chi")
    if taker is not None:
        return claim_chi(match, taker, window.card, window.answers[taker])
    own_player(hand, window.source).pile.append(window.card)
    return _next(window.source), [Event("to_pile", {"seat": window.source, "card": window.card})]


def claim_kaiduo(match: Match, seat: int, card: str) -> tuple[int | None, Events]:
    """Make the forced 开舵 from a 坎, 扫/过扫 or (own draw) 碰; 重舵 owes no discard (seed 3.1)."""
    player = own_player(match.hand, seat)
    if player.hand.count(card) == 3:
        _take(player.hand, [card] * 3)
        player.groups.append(Group("kaiduo", [card] * 4))
    else:
        i, group = next((i, g) for i, g in enumerate(player.groups)
                        if len(g.cards) == 3 and g.cards[0] == card)
        player.groups[i] = Group("kaiduo", [card] * 4, group.in_hand)
    player.fours += 1
    events = [Event("claimed", {"seat": seat, "kind": "kaiduo", "cards": [card] * 4})]
    if player.fours >= 2:
        return _next(seat), events
    return start_discard(match, seat, True, None), events


def claim_peng(match: Match, seat: int, card: str) -> tuple[int | None, Events]:
    """Make a 碰 with the pair in hand; the player then discards."""
    player = own_player(match.hand, seat)
    _take(player.hand, [card, card])
    player.groups.append(Group("peng", [card] * 3))
    events = [Event("claimed", {"seat": seat, "kind": "peng", "cards": [card] * 3})]
    return start_discard(match, seat, True, None), events


def claim_chi(match: Match, seat: int, card: str,
              action: dict[str, Any]) -> tuple[int | None, Events]:
    """Make a 吃 with its 比 groups (all shown); the player then discards."""
    player = own_player(match.hand, seat)
    _take(player.hand, list(action["cards"]))
    player.groups.append(Group("chi", sort_cards([card, *action["cards"]])))
    for bi in action["bi"]:
        _take(player.hand, list(bi))
        player.groups.append(Group("bi", list(bi)))
    data = {"seat": seat, "kind": "chi", "cards": sort_cards([card, *action["cards"]]),
            "bi": [list(b) for b in action["bi"]]}
    return start_discard(match, seat, True, None), [Event("claimed", data)]


def discard(match: Match, seat: int, card: str) -> tuple[int | None, Events]:
    """``seat`` discards ``card`` face-up; a claim window opens on it (地胡 if the dealer's first)."""
    hand = match.hand
    own_player(hand, seat).hand.remove(card)
    dihu = seat == hand.dealer and not hand.dealer_discarded
    if seat == hand.dealer:
        hand.dealer_discarded = True
    hand.self_win = None
    nxt, events = open_window(match, card, seat, by_draw=False, dihu=dihu)
    return nxt, [Event("discarded", {"seat": seat, "card": card})] + events


def draw_chain(match: Match, seat: int | None, events: Events) -> Events:
    """Run automatic draws from ``seat`` (None: nothing to draw) until someone must decide or
    the match is over; return all events."""
    while seat is not None and not match.over:
        seat, more = draw(match, seat)
        events = events + more
    return events


# --------------------------------------------------------------------------- winning


def _finish_win(match: Match, seat: int, win, flags: list[str],
                payer: int | None, card: str | None) -> tuple[int | None, Events]:
    hand = match.hand
    haidi = "haidi" in flags
    turns = [] if haidi else fan_xing(hand.stock, all_cards(hand.players[seat]) + ([card] if card else []))
    result = win_result(win, winner=seat, payer=payer, flags=flags, xing_turns=turns,
                        stake=match.options["stake"])
    result["win_card"] = card
    return end_hand(match, result)


def window_win(match: Match, seat: int) -> tuple[int | None, Events]:
    """``seat`` wins on the window's card: 自摸 on its own draw, 海底 on the last stock card,
    地胡 on the dealer's first discard, 点炮 (discarder pays) on any other discard."""
    hand = match.hand
    window = claim_window(hand)
    own = window.by_draw and seat == window.source
    win = evaluate_win(hand.players[seat], window.card, own)
    flags = []
    if own:
        flags.append("zimo")
    if window.by_draw and not hand.stock:
        flags.append("haidi")
    if window.dihu:
        flags.append("dihu")
    payer = window.source if not window.by_draw and not window.dihu else None
    return _finish_win(match, seat, win, flags, payer, window.card)


def self_win(match: Match, seat: int) -> tuple[int | None, Events]:
    """``seat`` wins with its hand: 天胡 at the deal, or 自摸 after a forced 扫/扫穿 (海底 if last)."""
    hand = match.hand
    assert hand.self_win is not None, "a seat wins with its hand only when self_win names how"
    flags = [hand.self_win]
    if hand.self_win == "zimo" and not hand.stock:
        flags.append("haidi")
    return _finish_win(match, seat, evaluate_win(hand.players[seat]), flags, None, None)


def end_hand(match: Match, result: dict[str, Any] | None) -> tuple[int | None, Events]:
    """Record the hand (a win, or 荒庄 when ``result`` is None) and deal the next or end the match.

    The winner deals next; on 荒庄 the dealer stays (rulings "Deal and turn flow").
    """
    hand = match.hand
    if result is None:
        result = {"winner": None, "payments": [0] * SEATS}
    result = {"hand": hand.number, "dealer": hand.dealer, **result}
    match.totals = [t + p for t, p in zip(match.totals, result["payments"])]
    match.results.append(result)
    hand.phase, hand.window = "done", None
    events = [Event("hand_over", result)]
    if hand.number >= match.options["hands"]:
        match.over = True
        return None, events + [Event("match_over", {"totals": list(match.totals)})]
    dealer = hand.dealer if result["winner"] is None else result["winner"]
    nxt, more = deal_hand(match, hand.number + 1, dealer)
    return nxt, events + more
