"""Per-viewer views of a zipai match (rulings "Hidden information"; shape in docs/protocol.md).

A seat sees its own hand, its 臭 and passed-碰 faces, its own face-down groups and its own pending
decision (the answers it is offered in a claim window and the one it gave; in its discard phase
whether a self-drawn win is listed and whether a discard is owed); everyone sees laid groups,
piles, counts, the 亮张, the stock size, the exposed card (and whether it is the dealer's first
discard, for 地胡), whether the dealer has discarded, and whose discard it is. In a claim window
the view says only that claims are pending, never who is asked.
"""

from __future__ import annotations

from typing import Any

from engine.zipai.state import PARTLY_SHOWN_KINDS, Hand, Match, Player


def _player_view(player: Player, seat: int, viewer: int | None) -> dict[str, Any]:
    """Return a seat's public cards; the opening 扫穿 kept in hand counts in the hand size and is
    listed only for its owner. A laid group is shown whole to its owner, to others with only
    the shown cards (``Group.shown_cards``; the rest None)."""
    mine = viewer == seat
    hand_size = len(player.hand)
    groups = []
    for group in player.groups:
        in_hand = group.in_hand
        if in_hand:
            hand_size += len(group.cards)
            if not mine:
                continue
        kind = group.kind
        cards: list[str | None]
        if mine or kind not in PARTLY_SHOWN_KINDS:
            cards = list(group.cards)
        else:
            shown = group.shown_cards()
            cards = group.cards[:shown] + [None] * (len(group.cards) - shown)
        groups.append({"kind": kind, "cards": cards, "in_hand": in_hand})
    return {"seat": seat, "hand_size": hand_size, "groups": groups, "pile": list(player.pile)}


def _exposed(hand: Hand) -> dict[str, Any] | None:
    window = hand.window
    if hand.phase != "claim" or window is None:
        return None
    return {"card": window.card, "seat": window.source,
            "source": "draw" if window.by_draw else "discard", "dihu": window.dihu}


def _mine(hand: Hand, viewer: int | None, over: bool) -> dict[str, Any] | None:
    if viewer is None:
        return None
    player = hand.players[viewer]
    window = hand.window
    asked = hand.phase == "claim" and window is not None and viewer in window.options
    deciding = not over and hand.phase == "discard" and hand.turn == viewer
    mine: dict[str, Any] = {
        "hand": list(player.hand),
        "chou": list(player.chou),
        "passed_peng": list(player.passed_peng),
        "claim": None, "options": None, "answer": None,
        "self_win": hand.self_win if deciding else None,
        "must_discard": hand.must_discard if deciding else None,
    }
    if asked:
        assert window is not None, "a seat is asked only in an open window"
        answer = window.answers.get(viewer)
        mine["claim"] = "asked" if answer is None else "answered"
        mine["options"] = list(window.options[viewer])
        mine["answer"] = answer
    return mine


def view(match: Match, viewer: int | None) -> dict[str, Any]:
    """Return what ``viewer`` (a seat, or None = spectator) may see, JSON-ready.

    A view is read-only: the answers in ``me.options`` and ``me.answer`` are the claim window's
    own action dicts (shared with the state and its legal lists, never changed); everything
    else is new every call.
    """
    hand = match.hand
    phase = "finished" if match.over else hand.phase
    return {
        "game": "zipai",
        "seat": viewer,
        "hands": match.options["hands"],
        "stake": match.options["stake"],
        "hand_no": hand.number,
        "dealer": hand.dealer,
        "liangzhang": hand.liang,
        "turn_seconds": match.options["turn_seconds"],
        "stock_size": len(hand.stock),
        "dealer_discarded": hand.dealer_discarded,
        "phase": phase,
        "turn": hand.turn if phase == "discard" else None,
        "exposed": _exposed(hand),
        "claims_pending": phase == "claim",
        "players": [_player_view(p, s, viewer) for s, p in enumerate(hand.players)],
        "me": _mine(hand, viewer, match.over),
        "totals": list(match.totals),
        "results": list(match.results),
        "resigned": match.resigned,
    }
