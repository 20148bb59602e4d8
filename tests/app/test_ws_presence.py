"""``presence`` frames (docs/protocol.md): a room's sockets are sent the room's total when it
changes, a new socket gets the last total with its ``welcome``, and the periodic renewal of a
process's entries sends nothing when no total changed."""

from __future__ import annotations


async def test_a_renewal_that_changes_nothing_sends_no_frame(arena):
    alice = await arena.player("Alice")
    code = (await arena.room(alice))["code"]
    assert (await arena.sit(code, 0, alice)).status_code == 200
    first = await arena.connect(code, alice["token"])
    await first.until_presence([0], 0)
    watcher = await arena.connect(code)
    await first.until_presence([0], 1)
    # the last total with the welcome, then the total that counts the watcher
    assert await watcher.next("presence") == {"type": "presence", "online": [0], "spectators": 0}
    assert await watcher.next("presence") == {"type": "presence", "online": [0], "spectators": 1}

    arena.app.state.arena.hub.renew()
    assert await first.silent() == []
    assert await watcher.silent() == []


async def test_a_second_socket_of_a_seat_gets_the_rooms_total(arena):
    alice = await arena.player("Alice")
    code = (await arena.room(alice))["code"]
    assert (await arena.sit(code, 0, alice)).status_code == 200
    first = await arena.connect(code, alice["token"])
    await first.until_presence([0], 0)
    again = await arena.connect(code, alice["token"])  # the total does not change
    assert await again.next("presence") == {"type": "presence", "online": [0], "spectators": 0}
    assert await first.silent() == []
