"""A state drawn from one seat's view (the determinization a search bot needs).

Rule source: the rulings' "Hidden information" (each player sees only its own hand; concealed
扫 / opening 扫穿 show as face-down groups to others, 过扫 one card) and "Deal and turn flow".
``sample`` copies everything the view shows and deals the unseen cards — the 80 less the
viewer's own cards, every card the groups, piles and the exposed card show — among the hidden
places, every size kept: the other seats' concealed cards (``hand_size``, an opening 扫穿 kept
in hand included), their face-down groups (one face with enough copies each) and the stock
(``stock_size``). A candidate deal is drawn again (rejection) until it is one the rules can
reach and in which the viewer's pending decision is exactly the one its view shows:

* an other seat's four of a kind among its concealed cards is its opening 扫穿 kept in hand
  (seed 3.4: one set stays in the hand; a concealed hand never holds four otherwise), at most
  one; the invariants of ``reachable.concealed_faults`` hold (no 坎 of a face lying in a pile,
  no face of a seat's own same-face group left in its hand, ...);
* the dealer conceals a copy of the 亮张's face unless a copy shows where the dealer's card can
  have gone (the dealer's groups and pile, another seat's claimed group, the exposed discard);
* in a claim window: the drawer of a drawn card holds no pair, 坎 or 扫 of it (that draw would
  have been a forced 扫, seed 3.2); the answers ``claims.window_options`` lists for the viewer
  are exactly the view's ``me.options`` (none when it is not asked); somebody is still to answer
  (every other asked seat is drawn as not having answered yet);
* in another seat's discard phase: it holds a card to discard (the turn would have passed).

Once the match is over the card a hand was won on is in no place, nor is the card exposed
when a seat resigned in a claim window (``ZipaiGame.resign``): the view shows the first in the
hand's result, and one unseen card is left out for the second.

What the view does not show is filled in: a new random match seed (it decides later deals),
the other seats' 臭 and passed-碰 faces as the faces of their 过扫 (the only passes the view
shows), and for another seat's discard phase a discard owed and no self-drawn win listed (the
view does not say whether that decision follows a draw, so the sample is narrower than the
view there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Rng
from engine.zipai.cards import COPIES, deck, sort_cards
from engine.zipai.claims import window_options
from engine.zipai.reachable import concealed_faults
from engine.zipai.state import HIDDEN_KINDS, Group, Hand, Match, Player, Window
from engine.zipai.tally import tally

#: Bytes of the made-up match seed of a sampled state.
SEED_BYTES = 16
#: Candidate deals drawn before a view is refused as one no reachable state has.
ATTEMPTS = 2000
#: Group kinds a seat makes from another seat's exposed card (where the dealer's 亮张 can go).
CLAIMED_KINDS = frozenset({"chi", "peng", "kaiduo"})


def _shown(view: Mapping[str, Any]) -> Counter:
    """Return every card the view shows: the viewer's hand, groups' shown cards, piles and the
    exposed card (a 过扫's hidden copies are its shown face)."""
    shown = Counter(view["me"]["hand"])
    for player in view["players"]:
        shown.update(player["pile"])
        for group in player["groups"]:
            cards = group["cards"]
            if group["kind"] == "guosao":
                shown.update([cards[0]] * len(cards))
            elif None not in cards:
                shown.update(cards)
    if view["exposed"] is not None:
        shown[view["exposed"]["card"]] += 1
    results = view["results"]
    if view["phase"] == "finished" and results and results[-1]["hand"] == view["hand_no"]:
        card = results[-1].get("win_card")
        shown.update([card] if card else [])  # won on, then in no place (``flow.end_hand``)
    return shown


def _groups(entries: Sequence[Mapping[str, Any]], pool: Counter, rng: Rng) -> list[Group] | None:
    """Return the groups of a view's ``groups`` with each face-down one given a face drawn from
    ``pool`` (removed from it), or None when no face has enough copies left."""
    out = []
    for entry in entries:
        cards = entry["cards"]
        if cards and cards[0] is None:
            faces = sort_cards(c for c, n in pool.items() if n >= len(cards))
            if not faces:
                return None
            cards = [rng.choice(faces)] * len(cards)
            pool.subtract(cards)
        elif entry["kind"] == "guosao":
            cards = [cards[0]] * len(cards)
        out.append(Group(entry["kind"], list(cards), entry["in_hand"]))
    return out


def _other_player(entry: Mapping[str, Any], groups: list[Group], cards: list[str]) -> Player | None:
    """Return another seat's record: ``cards`` its concealed cards, a four of a kind among them
    its opening 扫穿 kept in hand (first group); None when that is not possible."""
    count = Counter(cards)
    fours = [c for c, n in count.items() if n == COPIES]
    if len(fours) > 1:
        return None
    if fours:
        groups = [Group("saochuan", [fours[0]] * COPIES, True)] + groups
        cards = [c for c in cards if c != fours[0]]
    passed = [g.cards[0] for g in groups if g.kind == "guosao"]
    return Player(sort_cards(cards), groups, list(entry["pile"]), list(passed), list(passed),
                  sum(len(g.cards) == COPIES for g in groups))


def _own_player(view: Mapping[str, Any], seat: int) -> Player:
    entry, me = view["players"][seat], view["me"]
    groups = [Group(g["kind"], list(g["cards"]), g["in_hand"]) for g in entry["groups"]]
    return Player(list(me["hand"]), groups, list(entry["pile"]), list(me["chou"]),
                  list(me["passed_peng"]), sum(len(g.cards) == COPIES for g in groups))


def _liang_free(view: Mapping[str, Any]) -> bool:
    """Return whether a copy of the 亮张's face shows where the dealer's card can have gone (see
    the module doc): then the dealer need not conceal one."""
    liang, dealer = view["liangzhang"], view["dealer"]
    places = [view["players"][dealer]["pile"]]
    places += [g["cards"] for p in view["players"] for g in p["groups"]
               if p["seat"] == dealer or g["kind"] in CLAIMED_KINDS]
    exposed = view["exposed"]
    if exposed is not None and exposed["seat"] == dealer and exposed["source"] == "discard":
        places.append([exposed["card"]])
    return any(liang in cards for cards in places)


def _concealed(player: Player) -> list[str]:
    return player.hand + [c for g in player.groups if g.in_hand or g.kind in HIDDEN_KINDS
                          for c in g.cards]


def _would_have_sao(player: Player, card: str) -> bool:
    """Return whether drawing ``card`` would have made a forced 扫/扫穿 for ``player`` (seed 3.2)."""
    return player.hand.count(card) >= 2 or any(
        g.kind in ("sao", "guosao") and g.cards[0] == card for g in player.groups)


def _window(view: Mapping[str, Any], seat: int, players: list[Player]) -> Window | None:
    """Return the claim window the view shows, its listed answers worked out for ``players``,
    or None when they do not give the viewer's own answers or leave nobody to answer."""
    exposed, me = view["exposed"], view["me"]
    source, by_draw = exposed["seat"], exposed["source"] == "draw"
    if by_draw and source != seat and _would_have_sao(players[source], exposed["card"]):
        return None
    options, kaiduo = window_options(players, exposed["card"], source, by_draw)
    if options.get(seat) != me["options"]:
        return None
    answers = {} if me["answer"] is None else {seat: me["answer"]}
    if not options.keys() - answers.keys():
        return None
    return Window(exposed["card"], source, by_draw, options, answers, kaiduo, exposed["dihu"])


def _hand(view: Mapping[str, Any], seat: int, players: list[Player]) -> Hand | None:
    """Return the current hand for ``players`` (its pending decision from the view), or None
    when the deal is not one the rules can reach (see the module doc)."""
    others = [s for s in range(len(players)) if s != seat]
    if concealed_faults_of(players, others):
        return None
    dealer = view["dealer"]
    if dealer != seat and not _liang_free(view) and view["liangzhang"] not in _concealed(
            players[dealer]):
        return None
    hand = Hand(view["hand_no"], dealer, view["liangzhang"], [], players,
                dealer_discarded=view["dealer_discarded"])
    phase = view["phase"]
    if phase == "finished":
        hand.phase = "done"
    elif phase == "claim":
        window = _window(view, seat, players)
        if window is None:
            return None
        hand.phase, hand.turn, hand.window = "claim", window.source, window
    else:
        hand.turn = view["turn"]
        if hand.turn == seat:
            hand.self_win, hand.must_discard = view["me"]["self_win"], view["me"]["must_discard"]
        elif not tally(tuple(players[hand.turn].hand)).free_faces:
            return None
    return hand


def concealed_faults_of(players: list[Player], seats: list[int]) -> bool:
    """Return whether the concealed cards of ``seats`` break an invariant of every reachable
    state (``reachable.concealed_faults``)."""
    probe = Match({}, "", [], Hand(0, 0, "", [], players))
    return bool(concealed_faults(probe, seats))


def _deal(view: Mapping[str, Any], seat: int, rng: Rng) -> Hand | None:
    """Return one candidate hand drawn from ``rng``, or None when it is refused."""
    pool = Counter(deck())
    pool.subtract(_shown(view))
    if -pool:
        raise ValueError("The view shows a card more than four times.")
    groups: dict[int, list[Group]] = {}
    for player in view["players"]:
        if player["seat"] != seat:
            found = _groups(player["groups"], pool, rng)
            if found is None:
                return None
            groups[player["seat"]] = found
    rest = rng.shuffled(sort_cards(pool.elements()))
    players: list[Player | None] = []
    for entry in view["players"]:
        if entry["seat"] == seat:
            players.append(_own_player(view, seat))
            continue
        size = entry["hand_size"]
        players.append(_other_player(entry, groups[entry["seat"]], rest[:size]))
        rest = rest[size:]
    lost = len(rest) - view["stock_size"]
    if lost != 0 and not (lost == 1 and view["phase"] == "finished"):
        raise ValueError("The view's counts do not add up to the 80 cards.")
    rest = rest[lost:]  # a resign in a claim window leaves the exposed card in no place
    if any(p is None for p in players):
        return None
    hand = _hand(view, seat, players)  # type: ignore[arg-type]
    if hand is not None:
        hand.stock = rest
    return hand


def sample(view: Mapping[str, Any], seat: int, rng: Rng) -> Match:
    """Return a match consistent with ``view``, ``seat``'s own view, the hidden cards drawn
    from ``rng`` (see the module doc for what is drawn and under which constraints).

    Raises:
        ValueError: when ``view`` is not a seat's view of a reachable state (no ``me``, counts
            that leave no deal, or no candidate accepted in ``ATTEMPTS`` draws).
    """
    if view["me"] is None:
        raise ValueError("sample needs a seat's own view.")
    options = {"hands": view["hands"], "stake": view["stake"],
               "turn_seconds": view["turn_seconds"]}
    seed = bytes(rng.randbelow(256) for _ in range(SEED_BYTES)).hex()
    for _ in range(ATTEMPTS):
        hand = _deal(view, seat, rng)
        if hand is not None:
            return Match(options, seed, list(view["totals"]), hand,
                         [dict(r) for r in view["results"]], view["phase"] == "finished",
                         view["resigned"])
    raise ValueError("No deal of the unseen cards is consistent with the view.")
