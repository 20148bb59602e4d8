"""The room status machine: open → playing → finished | abandoned, finished → playing (a
rematch); nothing else."""

from __future__ import annotations

import pytest

from app.rooms.lifecycle import IllegalTransition, RoomStatus, transition

S = RoomStatus
ALLOWED = {(S.OPEN, S.PLAYING), (S.OPEN, S.ABANDONED), (S.PLAYING, S.FINISHED),
           (S.PLAYING, S.ABANDONED),
           (S.FINISHED, S.PLAYING)}  # a rematch in the same room


@pytest.mark.parametrize("current", list(S))
@pytest.mark.parametrize("target", list(S))
def test_transitions(current, target):
    if (current, target) in ALLOWED:
        assert transition(current.value, target) is target
    else:
        with pytest.raises(IllegalTransition):
            transition(current, target)


def test_unknown_status_is_refused():
    with pytest.raises(ValueError):
        transition("paused", S.PLAYING)
