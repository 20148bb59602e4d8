"""A decision that another side's action ended, answered late with its prompt, gets
``stale_prompt`` and the current state (docs/protocol.md "Websocket error codes"): the seat was
given that prompt, its frame is out of date. ``already_played`` stays for a decision the seat's
own side took, ``not_your_turn`` for a prompt that is none of the seat's ended decisions.

No hosted game ends a seat's decision by another side's action while the match goes on (every
window waits for all its answers), so the room here hosts ``Buzzer``: both seats are asked to
buzz, the first buzz wins the round and ends the other seat's decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.rooms.live import LiveMatch
from engine.core import Event, GameBase, GameSpec, IllegalAction, OptionSpec, Outcome
from tests.app.conftest import SEED, running_arena

BUZZ, NEXT = {"type": "buzz"}, {"type": "next"}
#: Rounds a seat must win.
WINS = 2


@dataclass(frozen=True)
class Race:
    """``phase``: ``race`` (both asked to buzz), ``next`` (``last``, who won the round, starts
    the next race) or ``over``; ``wins``: rounds won per seat; ``resigned``: a seat or None."""

    phase: str = "race"
    wins: tuple[int, int] = (0, 0)
    last: int | None = None
    resigned: int | None = None


class Buzzer(GameBase[Race]):
    """Two seats race to buzz; the first to win ``WINS`` rounds wins the match."""

    spec = GameSpec("buzzer", {"en": "Buzzer", "zh": "抢答", "ja": "早押し"}, 2, 2, False, 20,
                    (OptionSpec("turn_seconds", "int", 30, minimum=10, maximum=120),))

    def new_game(self, options: Mapping[str, Any], players: int, seed: bytes) -> Race:
        return Race()

    def to_act(self, state: Race) -> frozenset[int]:
        if state.phase == "race":
            return frozenset({0, 1})
        return frozenset() if state.last is None or state.phase == "over" else frozenset(
            {state.last})

    def legal_actions(self, state: Race, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        return [dict(BUZZ if state.phase == "race" else NEXT)]

    def apply(self, state: Race, seat: int, action: Mapping[str, Any]
              ) -> tuple[Race, list[Event]]:
        if dict(action) not in self.legal_actions(state, seat):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if state.phase == "next":
            return replace(state, phase="race"), [Event("race", {})]
        wins = tuple(n + (s == seat) for s, n in enumerate(state.wins))
        phase = "over" if wins[seat] == WINS else "next"
        return Race(phase, (wins[0], wins[1]), seat), [Event("buzzed", {"seat": seat})]

    def view(self, state: Race, viewer: int | None) -> dict[str, Any]:
        return {"game": "buzzer", "seat": viewer, "phase": state.phase,
                "wins": list(state.wins), "last": state.last}

    def outcome(self, state: Race) -> Outcome | None:
        if state.phase != "over":
            return None
        loser = state.resigned if state.resigned is not None else 1 - (state.last or 0)
        return Outcome(tuple(2 if s == loser else 1 for s in (0, 1)),
                       "resign" if state.resigned is not None else "buzzes")

    def deadline_action(self, state: Race, seat: int) -> dict[str, Any]:
        return self.legal_actions(state, seat)[0]

    def clock_seconds(self, state: Race, seat: int) -> int:
        return 30

    def resign(self, state: Race, seat: int) -> tuple[Race, list[Event]]:
        return replace(state, phase="over", resigned=seat), [Event("resigned", {"seat": seat})]

    def dump(self, state: Race) -> dict[str, Any]:
        return {"phase": state.phase, "wins": list(state.wins), "last": state.last,
                "resigned": state.resigned}

    def load(self, data: Mapping[str, Any]) -> Race:
        return Race(data["phase"], (data["wins"][0], data["wins"][1]), data["last"],
                    data["resigned"])


GAME = Buzzer()
STALE = ("stale_prompt", "That decision is no longer the current one.")


async def test_a_late_answer_to_a_decision_another_side_ended_gets_stale_prompt(db_path):
    async with running_arena(db_path, games={"buzzer": GAME}) as arena:
        ann, bob = await arena.player("Ann"), await arena.player("Bob")
        code = (await arena.room(ann, {}, game="buzzer"))["code"]
        clients, _ = await arena.seat_table(code, [ann, bob])
        match = clients[0].welcome["room"]["match_id"]
        first = {seat: clients[seat].last["prompt"] for seat in (0, 1)}
        assert None not in first.values()

        async def play(seat: int, action: dict, version: int) -> None:
            await clients[seat].act(action)
            for client in clients.values():
                await client.until_version(version)

        async def refusal(seat: int, prompt: str, action: dict) -> tuple[tuple[str, str], list]:
            await clients[seat].act(action, prompt=prompt)
            error = await clients[seat].next("error")
            return (error["code"], error["message"]), await clients[seat].settle()

        await play(0, BUZZ, 1)  # Ann buzzes first: Bob's race ends, Bob is not asked
        shown = clients[1].last
        assert (shown["prompt"], shown["legal"]) == (None, [])
        # Bob's buzz arrives late, on the prompt he was given: stale, and his current state.
        error, frames = await refusal(1, first[1], BUZZ)
        assert error == STALE
        assert [(f["version"], f["events"], f["view"], f["prompt"], f["legal"])
                for f in frames] == [(1, [], shown["view"], None, [])]
        # A prompt that is none of his decisions is refused as before, with nothing more.
        assert await refusal(1, f"{match}.1.0000000000000000", BUZZ) == (
            ("not_your_turn", "It is not your turn."), [])
        assert await refusal(1, first[0], BUZZ) == (("not_your_turn", "It is not your turn."), [])

        await play(0, NEXT, 2)  # a new race: both asked anew
        second = {seat: clients[seat].last["prompt"] for seat in (0, 1)}
        assert (await refusal(1, first[1], BUZZ))[0] == STALE  # asked anew: stale as before
        await play(1, BUZZ, 3)  # Bob first this time: Ann's second race ends
        assert clients[0].last["prompt"] is None
        assert (await refusal(0, second[0], BUZZ))[0] == STALE
        # Her first race, which she took herself, is already played (not merely stale).
        assert (await refusal(0, first[0], BUZZ))[0] == (
            "already_played", "This decision was already answered (by a teammate or another "
            "socket).")
        assert await arena.action_count(match) == 3  # the refusals stored nothing


def test_only_decisions_another_side_ended_are_closed():
    """``LiveMatch.closed_by_others``: the exact id of a decision another side's action
    ended; not one the seat took, nor one it is asked now, nor another spelling."""
    live = LiveMatch.start(GAME, 7, 1, "ROOM", GAME.validate_options({}), 2, SEED, 0.0)
    first = {seat: live.prompt_id(seat) for seat in (0, 1)}
    live = live.after(live.propose(0, BUZZ, 1.0))
    assert dict(live.closed) == {1: bytes.fromhex(first[1].rpartition(".")[2])}
    assert live.closed_by_others(1, first[1]) and live.taken_by_side(0, first[0])
    assert not live.taken_by_side(1, first[1]) and not live.closed_by_others(0, first[0])
    assert [live.closed_by_others(1, text) for text in (
        first[1].upper(), first[1].replace("7.1.", "7.0."), first[1] + "0", "", "7.1.",
        live.prompt_id(0))] == [False] * 6
    live = live.after(live.propose(0, NEXT, 2.0))
    assert live.closed_by_others(1, first[1]) and live.prompt_id(1) != first[1]
