"""Replays of finished matches: the logged actions replayed with the engine
from the revealed seed, and the view at every step.

Step 0 is the deal (no action); step ``k`` (1-based, ``= match_actions.seq``) is the position
after the ``k``-th action. Views are the engine's own ``view(state, viewer)``: the spectator's
(``viewer=None``) or, since a finished match hides nothing any more (its seed is public), any
seat's — with that player's hand. Replaying goes through ``LiveMatch`` so a resign, a clock
move and a resign the room played for a seat are replayed exactly as they were played
(``timeout`` and ``forfeit`` events included). A step's events are
those its viewer saw in play, plus the ``timeout`` event of a clock-played action for every
viewer: in play it can be the timed-out seat's alone (``app.rooms.live.timeout_event``: a claim
window), but once the match is over its action log says which actions the clock played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rooms.live import Forfeit, LiveMatch
from engine.core import Game


def replay_steps(game: Game, match_id: int, options: Mapping[str, Any], players: int,
                 seed: bytes, actions: Sequence[Any], viewer: int | None) -> list[dict[str, Any]]:
    """Return one entry per step, the deal first:
    ``{"step", "seat", "action", "timeout", "forfeit", "events", "view"}``.

    Args:
        game: the engine; match_id: the match (only for the replay's prompt ids).
        options: the match's validated options; players: its seat count; seed: its seed.
        actions: the logged rows (``seq``, ``seat``, ``action``, ``timeout``, ``forfeit``,
            ``at``) in order.
        viewer: the seat whose view is shown, ``None`` for the spectator's.

    ``events`` are the step's events that ``viewer`` may see (a clock-played step's
    ``timeout {seat}`` first, whoever the viewer; a forfeit's public ``forfeit {seat, reason,
    timeouts}`` first); ``forfeit`` is the row's (``{reason, timeouts}`` when the room resigned
    the seat, else ``None``); step 0 has ``seat``/``action``/``forfeit`` ``None`` and no events.

    Raises:
        EngineError: a logged action the engine refuses (a corrupt log).
    """
    live = LiveMatch.start(game, match_id, 0, "", options, players, seed, 0.0)
    steps = [_entry(live, 0, None, None, False, None, (), viewer)]
    for row in actions:
        live, step = live.replay(row.seat, row.action, row.at.timestamp(), row.timeout,
                                 row.forfeit)
        steps.append(_entry(live, step.version, row.seat, row.action, row.timeout, row.forfeit,
                            step.events, viewer))
    return steps


def _entry(live: LiveMatch, number: int, seat: int | None, action: Any, timeout: bool,
           forfeit: Forfeit | None, events, viewer: int | None) -> dict[str, Any]:
    return {"step": number, "seat": seat, "action": action, "timeout": bool(timeout),
            "forfeit": forfeit,
            "events": [e.to_json() for e in events if e.visible(viewer) or e.kind == "timeout"],
            "view": live.game.view(live.state, viewer)}
