"""``presence`` frames (docs/protocol.md): a room's sockets are sent the room's total when it
changes, a new socket gets the last total with its ``welcome``, and the periodic renewal of a
process's entries sends nothing when no total changed; a process found lost or leaving stops
counting at once."""

from __future__ import annotations


async def seated(arena):
    """Return ``(code, alice, first)``: a room whose seat 0 Alice holds, and her socket, sent
    the room's first total (seat 0 online, no spectator)."""
    alice = await arena.player("Alice")
    code = (await arena.room(alice))["code"]
    assert (await arena.sit(code, 0, alice)).status_code == 200
    first = await arena.connect(code, alice["token"])
    await first.until_presence([0], 0)
    return code, alice, first


async def test_a_renewal_that_changes_nothing_sends_no_frame(arena):
    code, _, first = await seated(arena)
    watcher = await arena.connect(code)
    await first.until_presence([0], 1)
    # the last total with the welcome, then the total that counts the watcher
    assert await watcher.next("presence") == {"type": "presence", "online": [0], "spectators": 0}
    assert await watcher.next("presence") == {"type": "presence", "online": [0], "spectators": 1}

    arena.app.state.arena.hub.renew()
    assert await first.silent() == []
    assert await watcher.silent() == []


async def test_a_second_socket_of_a_seat_gets_the_rooms_total(arena):
    code, alice, first = await seated(arena)
    again = await arena.connect(code, alice["token"])  # the total does not change
    assert await again.next("presence") == {"type": "presence", "online": [0], "spectators": 0}
    assert await first.silent() == []


async def test_a_process_that_leaves_stops_counting_at_once(arena):
    code, _, first = await seated(arena)
    broker = arena.app.state.arena.broker
    await broker.publish("arena.rooms", {"room": None, "kind": "heartbeat", "process": "p2"})
    await broker.publish("arena.rooms", {"room": code, "kind": "presence", "process": "p2",
                                         "online": [1], "spectators": 2})
    await first.until_presence([0, 1], 2)  # another process's sockets count
    await broker.publish("arena.rooms", {"room": None, "kind": "heartbeat", "process": "p2",
                                         "leaving": True})
    # not after its entry lapses (30 s): at once
    assert await first.next("presence") == {"type": "presence", "online": [0], "spectators": 0}
