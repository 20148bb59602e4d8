"""The processes' heartbeats (``app.rooms.peers``): two ``Peers`` on two lines of a
``Switchboard`` (the room channel between two processes), their beats driven by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.bus.base import LOST, RESYNC
from app.bus.memory import MemoryBroker
from app.rooms.clocks import ManualClock
from app.rooms.peers import LOST_AFTER, Peers
from app.rooms.publisher import Publisher
from tests.app.switchboard import Switchboard
from tests.waiting import wait_until


class Pair:
    """Two processes' publishers and peers; ``lost[i]``: what process ``i`` found lost."""

    def __init__(self) -> None:
        board, self.clock = Switchboard(), ManualClock()
        self.publishers = [Publisher(board.line()) for _ in range(2)]
        self.lost: list[list[str]] = [[], []]
        self.gone: list[list[str]] = [[], []]  # what each process's on_gone listener was told
        self.peers = [Peers(publisher, self.clock, self._loser(i))
                      for i, publisher in enumerate(self.publishers)]
        for peers, gone in zip(self.peers, self.gone):
            peers.on_gone(gone.append)

    def _loser(self, index: int):
        async def lost(process: str) -> None:
            self.lost[index].append(process)
        return lost

    async def beats(self, index: int, count: int) -> None:
        """Let process ``index`` beat ``count`` times (the other is silent)."""
        for _ in range(count):
            await self.peers[index].beat()


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    pair = Pair()
    for publisher in pair.publishers:
        await publisher.start()
    for peers in pair.peers:
        peers.start()
    one, two = pair.peers
    await wait_until(lambda: one.missed == {two.process: 0} and two.missed == {one.process: 0},
                     "each process heard the other", 5)
    yield pair
    for peers in pair.peers:
        await peers.stop()
    for publisher in pair.publishers:
        await publisher.stop()


async def test_a_process_silent_for_lost_after_beats_is_lost_once(pair):
    one, two = pair.peers
    await pair.beats(0, LOST_AFTER - 1)
    assert one.missed == {two.process: LOST_AFTER - 1} and pair.lost[0] == []
    await pair.beats(0, 1)
    assert pair.lost == [[two.process], []] and one.missed == {}
    assert pair.gone == [[two.process], []]
    await pair.beats(0, 2 * LOST_AFTER)  # forgotten: not lost again
    assert pair.lost == [[two.process], []] and pair.gone == [[two.process], []]


async def test_a_heartbeat_heard_starts_the_count_again(pair):
    one, two = pair.peers
    await pair.beats(0, LOST_AFTER - 1)
    await pair.beats(1, 1)
    await wait_until(lambda: one.missed == {two.process: 0}, "one heard two's beat", 5)
    await pair.beats(0, LOST_AFTER - 1)
    assert pair.lost[0] == []


async def test_a_process_that_leaves_is_forgotten_without_a_catch_up(pair):
    one, two = pair.peers
    await two.stop()
    await wait_until(lambda: one.missed == {}, "one heard two leave", 5)
    assert pair.gone[0] == [two.process]  # its sockets are gone: no catch-up
    await pair.beats(0, 2 * LOST_AFTER)
    assert pair.lost[0] == [] and pair.gone[0] == [two.process]


async def test_nobody_is_counted_while_the_channel_is_down_and_the_resync_starts_afresh(pair):
    one, two = pair.peers
    await pair.beats(0, 2)
    await pair.publishers[0].dispatch(dict(LOST))
    await pair.beats(0, 2 * LOST_AFTER)
    assert one.missed == {two.process: 2} and pair.lost[0] == []
    await pair.publishers[0].dispatch(dict(RESYNC))
    assert one.missed == {two.process: 0}
    await pair.beats(0, LOST_AFTER)
    assert pair.lost[0] == [two.process]


async def test_a_single_process_broker_carries_no_heartbeat():
    broker = MemoryBroker()
    publisher, heard = Publisher(broker), []

    async def hear(message):
        heard.append(message)
    publisher.on("heartbeat", hear)
    await publisher.start()
    publisher.post({"room": None, "kind": "heartbeat", "process": "another"})
    peers = Peers(publisher, ManualClock(), hear)
    peers.start()
    await peers.beat()  # a beat by hand is still posted: the channel carries it
    await peers.stop()  # no "leaving" either: stop has nothing to stop
    await wait_until(lambda: len(heard) == 2, "both messages heard", 5)
    await publisher.stop()
    assert [message["process"] for message in heard] == ["another", peers.process]
