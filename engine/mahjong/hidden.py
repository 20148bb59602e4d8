"""Re-deals and samples: complete states that a viewer cannot tell from the real one
(``GAME.redeal`` for the leak tests, ``GAME.sample`` for a search bot's determinization).

Hidden from a seat: the other hands (their sizes and whether a tile is held apart as drawn are
public), the tiles of the others' concealed kongs (all four copies unseen), the wall's order,
and, in a claim window, who else was asked and what they answered. A spectator sees no hand.

A filled state must be one the rules can reach with the same pending decision:

- a locked (报听) hand is ready, and a locked hand in turn has a choice (a win or a kong that
  keeps its waits), else the engine would have discarded for it;
- an open claim window has a seat still to answer: the viewer, or another seat that can claim
  the tile (the others' answers are hidden, so a fill treats them as not given yet);
- flowers are never in a hand (they are exposed at once).

A fill deals the concealed-kong kinds, then the constrained hands (built by ``construct`` so
that they are ready, or can claim the pending tile), then the free hands and the wall, and is
checked; the attempts alternate a fill with a built claimer and one without. ``redeal`` falls
back to keeping the constrained seats' tiles, then to re-dealing the wall's order alone (always
reachable). ``sample`` raises when no attempt fits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Rng
from engine.mahjong import construct, ready
from engine.mahjong.claims import chow_pairs, window_options
from engine.mahjong.state import Discard, Hand, Match, Meld, Player, Window, clone
from engine.mahjong.table import SEATS, next_seat
from engine.mahjong.tiles import KINDS, sorted_tiles, tile_set
from engine.mahjong.turn import only_discard_of_drawn, turn_options

#: Fills tried before falling back (``redeal``) or giving up (``sample``).
ATTEMPTS = 24


@dataclass(frozen=True)
class Blank:
    """A hidden seat to fill: ``size`` standing tiles (the drawn one included when ``drawn``)
    and the indexes of its concealed kongs whose kinds are hidden."""

    seat: int
    size: int
    drawn: bool
    kongs: tuple[int, ...]


# --------------------------------------------------------------------------- filling


def _needs_claimer(base: Match, viewer: int | None) -> bool:
    """Whether an open window must get a claimer among the hidden seats (the viewer is not
    still to answer)."""
    hand = base.hand
    if hand.phase != "claim":
        return False
    return viewer is None or viewer not in hand.asked or viewer in hand.answers


def _claim_hand(match: Match, seat: int, size: int, pool: Counter, rng: Rng) -> list[str] | None:
    """Build ``size`` tiles with which ``seat`` can claim the window's tile (碰, 吃 or 和)."""
    hand = match.hand
    window = hand.window
    assert window is not None, "the claim phase has an open window"
    tile = window.tile
    player = hand.players[seat]
    ways = ["win"]
    if not (window.robbing or window.last or player.ready):
        if pool[tile] >= 2:
            ways.append("pung")
        if match.rules == "mcr" and seat == next_seat(hand.order, window.source):
            ways.append("chow")
    way = rng.choice(ways)
    if way == "win":
        return construct.waiting_on(pool, size, rng, tile)
    if way == "pung":
        core = [tile, tile]
    else:
        pairs = chow_pairs([k for k in KINDS if pool[k]], tile)
        if not pairs:
            return None
        core = rng.choice(pairs)
    rest = pool.copy()
    rest.subtract(core)
    more = construct.random_hand(rest, size - len(core), rng)
    return None if more is None else core + more


def _constrained_hand(match: Match, blank: Blank, pool: Counter, rng: Rng,
                      claimer: int | None) -> list[str] | None:
    """Build the tiles of a seat that must keep a constraint: the chosen claimer, or a locked
    hand (complete when it is in turn with a drawn tile, else ready)."""
    if blank.seat == claimer:
        return _claim_hand(match, blank.seat, blank.size, pool, rng)
    if blank.drawn:
        return construct.complete_hand(pool, blank.size, rng)
    return construct.ready_hand(pool, blank.size, rng)


def _take(pool: Counter, tiles: list[str]) -> None:
    pool.subtract(tiles)


def _deal_kongs(players: list[Player], blanks: list[Blank], pool: Counter, rng: Rng) -> bool:
    """Give every hidden concealed kong a kind of which all four copies are unseen."""
    for blank in blanks:
        player = players[blank.seat]
        for index in blank.kongs:
            kinds = [k for k in KINDS if pool[k] >= 4]
            if not kinds:
                return False
            kind = rng.choice(kinds)
            _take(pool, [kind] * 4)
            player.melds[index] = replace(player.melds[index], tiles=(kind,) * 4)
    return True


def _seat_tiles(player: Player, blank: Blank, tiles: list[str], rng: Rng) -> None:
    """Stand ``tiles`` in the seat's hand, one of them apart as drawn when the seat has one."""
    player.drawn = None
    if blank.drawn:
        player.drawn = tiles.pop(rng.randbelow(len(tiles)))
    player.concealed = sorted_tiles(tiles)


def _fill(base: Match, blanks: list[Blank], pool: Counter, rng: Rng, viewer: int | None,
          kept: frozenset[int], build_claimer: bool) -> Match | None:
    """Return ``base`` with the blanks filled from ``pool`` and the wall re-dealt, the pending
    decision recomputed (answers kept only for ``kept`` seats), or None when it fails."""
    match = clone(base)
    hand = match.hand
    players = hand.players
    work = pool.copy()
    if not _deal_kongs(players, blanks, work, rng):
        return None
    claimer = None
    if build_claimer and _needs_claimer(base, viewer) and blanks:
        claimer = rng.choice(blanks).seat
    constrained = [b for b in blanks if b.seat == claimer or players[b.seat].ready]
    free = [b for b in blanks if b not in constrained]
    for group, build in ((constrained, True), (free, False)):
        for blank in group:
            tiles = (_constrained_hand(match, blank, work, rng, claimer) if build
                     else construct.random_hand(work, blank.size, rng))
            if tiles is None:
                return None
            _take(work, tiles)
            _seat_tiles(players[blank.seat], blank, tiles, rng)
    wall = rng.shuffled(sorted_tiles(work.elements()))
    hand.wall, hand.head, hand.tail = tuple(wall), 0, len(wall)
    _recompute(match, kept)
    return match if _reachable(match, blanks) else None


def _recompute(match: Match, kept: frozenset[int]) -> None:
    """Recompute the pending decision of a filled state; answers stay for ``kept`` seats."""
    hand = match.hand
    if hand.phase == "turn":
        hand.asked = {hand.turn: turn_options(match)}
        hand.answers = {}
    elif hand.phase == "claim":
        assert hand.window is not None, "the claim phase has an open window"
        hand.asked = window_options(match, hand.window)
        hand.answers = {s: a for s, a in hand.answers.items() if s in kept and s in hand.asked}


def _reachable(match: Match, blanks: list[Blank]) -> bool:
    """Check the constraints of the module doc on a filled state."""
    hand = match.hand
    for blank in blanks:
        player = hand.players[blank.seat]
        if player.ready and not ready.waits(player.concealed, player.melds):
            return False
    if hand.phase == "claim":
        return bool(hand.asked.keys() - hand.answers.keys())
    if hand.phase == "turn":
        player = hand.players[hand.turn]
        return not only_discard_of_drawn(hand.asked[hand.turn], player)
    return True


def _attempts(base: Match, blanks: list[Blank], pool: Counter, rng: Rng,
              viewer: int | None, kept: frozenset[int]) -> Match | None:
    for attempt in range(ATTEMPTS):
        found = _fill(base, blanks, pool, rng, viewer, kept, build_claimer=attempt % 2 == 1)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------- redeal


def _blanks_of(hand: Hand, seats: list[int]) -> list[Blank]:
    out = []
    for seat in seats:
        player = hand.players[seat]
        kongs = tuple(i for i, m in enumerate(player.melds) if m.kind == "concealed_kong")
        out.append(Blank(seat, len(player.concealed) + (player.drawn is not None),
                         player.drawn is not None, kongs))
    return out


def _hidden_pool(hand: Hand, blanks: list[Blank]) -> Counter:
    """The tiles a re-deal moves: the blanks' standing tiles and hidden kongs, and the wall."""
    pool = Counter(hand.wall[hand.head:hand.tail])
    for blank in blanks:
        player = hand.players[blank.seat]
        pool.update(player.held())
        for index in blank.kongs:
            pool.update(player.melds[index].tiles)
    return pool


def _constrained_seats(hand: Hand) -> set[int]:
    """Seats whose tiles a fallback re-deal keeps: locked hands, the asked seats of an open
    window, the seat in turn."""
    seats = {s for s, p in enumerate(hand.players) if p.ready}
    if hand.phase == "claim":
        return seats | set(hand.asked)
    return seats | {hand.turn}


def _wall_only(state: Match, rng: Rng) -> Match:
    """Re-deal only the order of the tiles left in the wall (any order can come out)."""
    match = clone(state)
    hand = match.hand
    rest = rng.shuffled(sorted_tiles(hand.wall[hand.head:hand.tail]))
    hand.wall, hand.head, hand.tail = tuple(rest), 0, len(rest)
    return match


def redeal(state: Match, viewer: int | None, rng: Rng) -> Match:
    """Return a state ``viewer`` (a seat, or None) cannot tell from ``state``: the other hands,
    their concealed kongs' kinds and the wall re-dealt (see the module doc). Never changes
    ``state``; deterministic for the ``rng`` stream."""
    if state.over:
        return _wall_only(state, rng)
    hand = state.hand
    others = [s for s in range(SEATS) if s != viewer]
    levels = [others, [s for s in others if s not in _constrained_seats(hand)]]
    for seats in levels:
        blanks = _blanks_of(hand, seats)
        kept = frozenset(s for s in range(SEATS) if s not in seats)
        found = _attempts(state, blanks, _hidden_pool(hand, blanks), rng, viewer, kept)
        if found is not None:
            return found
    return _wall_only(state, rng)


# --------------------------------------------------------------------------- sample


def _meld(data: Mapping[str, Any]) -> Meld:
    tiles = tuple(data["tiles"])
    return Meld(data["kind"], tiles, data["from"], data["claimed"])


def _player_from_view(data: Mapping[str, Any], mine: Mapping[str, Any] | None) -> Player:
    revealed = data["revealed"]
    if mine is not None:
        concealed, drawn = list(mine["hand"]), mine["drawn"]
    elif revealed is not None:
        concealed, drawn = list(revealed["concealed"]), revealed["drawn"]
    else:
        size = data["hand_size"] - data["drawn"]
        concealed, drawn = [None] * size, ("?" if data["drawn"] else None)
    return Player(concealed, drawn, [_meld(m) for m in data["melds"]], list(data["flowers"]),
                  [Discard(d["tile"], d["taken"], d["ready"]) for d in data["discards"]],
                  data["ready"])


def _window_from_view(claim: Mapping[str, Any] | None) -> Window | None:
    if claim is None:
        return None
    return Window(claim["tile"], claim["from"], claim["robbing"], claim["last"], claim["first"])


def _seen(players: list[Player], window: Window | None) -> Counter:
    """Every tile a seat's view shows: standing tiles it knows, sets, flowers, discards on the
    table (taken ones lie in a set), an added kong's pending tile."""
    seen: Counter = Counter()
    for player in players:
        seen.update(t for t in player.concealed if t is not None)
        if player.drawn not in (None, "?"):
            seen[player.drawn] += 1
        seen.update(t for m in player.melds for t in m.tiles if t is not None)
        seen.update(player.flowers)
        seen.update(d.tile for d in player.discards if not d.taken)
    if window is not None and window.robbing:
        seen[window.tile] += 1
    return seen


def skeleton(view: Mapping[str, Any], seat: int, rng: Rng) -> tuple[Match, list[Blank], Counter]:
    """Return (the state the view shows, its hidden tiles left blank; the blanks; the pool of
    unseen tiles). The seed of later hands is drawn from ``rng`` (the real one is secret)."""
    options = dict(view["options"])
    players = [_player_from_view(p, view["me"] if p["seat"] == seat else None)
               for p in view["players"]]
    window = _window_from_view(view["claim"])
    over = view["phase"] == "finished"
    phase = "over" if over else view["phase"]
    last = view["last_discard"]
    me = view["me"]
    answers = {seat: dict(me["answer"])} if me and me["answer"] is not None else {}
    turn = view["turn"] if phase == "turn" else (window.source if window else view["dealer"])
    hand = Hand(view["hand_no"], view["dealer"], tuple(view["order"]), (), 0, 0, players,
                phase, turn, view["step"], window, {}, answers,
                None if last is None else last["seat"])
    seed = bytes(rng.randbelow(256) for _ in range(16)).hex()
    match = Match(options, seed, view["first_dealer"], list(view["totals"]), hand,
                  [dict(r) for r in view["results"]], over, view["resigned"])
    blanks = []
    for other, player in enumerate(players):
        kongs = tuple(i for i, m in enumerate(player.melds) if None in m.tiles)
        if None in player.concealed or kongs:
            blanks.append(Blank(other, len(player.concealed) + (player.drawn is not None),
                                player.drawn is not None, kongs))
    pool = Counter(tile_set(options["rules"] == "mcr"))
    pool.subtract(_seen(players, window))
    pool = +pool
    if sum(pool.values()) != sum(b.size + 4 * len(b.kongs) for b in blanks) + view["wall_left"]:
        raise ValueError("The view's tile counts do not add up.")
    return match, blanks, pool


def sample(view: Mapping[str, Any], seat: int, rng: Rng) -> Match:
    """Return a complete state consistent with ``seat``'s ``view``: the others' hands of the
    sizes shown, their concealed kongs' kinds, the wall's order and the window's other claimers
    drawn from ``rng`` (see the module doc); ``view(result, seat) == view``.

    Raises:
        ValueError: when the view's counts do not add up, or no fill in ``ATTEMPTS`` tries
            meets the constraints (a shape the builders do not make).
    """
    base, blanks, pool = skeleton(view, seat, rng)
    if base.over:
        wall = rng.shuffled(sorted_tiles(pool.elements()))
        base.hand.wall, base.hand.tail = tuple(wall), len(wall)
        return base
    found = _attempts(base, blanks, pool, rng, seat, frozenset({seat}))
    if found is None:
        raise ValueError("No deal consistent with the view was found.")
    return found
