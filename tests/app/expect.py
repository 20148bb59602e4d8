"""Which sockets must get an ``update`` after an action, and waiting for exactly those.

The hub sends a viewer an ``update`` only when it can see a change (docs/protocol.md,
docs/security.md §2): an event visible to it, or a view or legal list other than in the last
frame it was sent. Tests that replay the engine next to the server use ``Expect`` to wait for
exactly the frames that must come (``catch_up``) instead of waiting for every socket to reach
every version — a socket that must get nothing would only time out.

Frames show the public version (docs/protocol.md "version"): it advances by one for each action
that shows a spectator something (an event visible to it, or another spectator view);
``Expect.public`` predicts it, ``Expect.version`` counts the actions.

The prediction looks at ``view``, ``legal`` and the events; the server also compares ``prompt``,
``deadline`` and ``clocks``, which in these tests change only together with a view or a legal
list. ``catch_up`` with ``local`` then also takes what else is queued, so an ``update`` the
prediction did not expect fails ``assert_caught_up``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Event, Game
from tests.app.conftest import Client


@dataclass(frozen=True)
class Seen:
    """The last ``update``/``welcome`` a viewer must have: its (public) version, view, legal,
    events."""

    version: int
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    events: list[dict[str, Any]]


def shows_spectator(game: Game, before: Any, state: Any, events: Iterable[Event]) -> bool:
    """Whether the action from ``before`` to ``state`` (with ``events``) advances the public
    version: an event a spectator may see, or another spectator view (docs/protocol.md
    "version"; these tests' clocks change only together with a view)."""
    return (any(e.visible(None) for e in events)
            or game.view(before, None) != game.view(state, None))


def legal_for(game: Game, state: Any, viewer: int | None) -> list[dict[str, Any]]:
    """Return the ``legal`` list a frame shows ``viewer`` (``[]`` unless it is asked now)."""
    if viewer is None or viewer not in game.to_act(state):
        return []
    return game.legal_actions(state, viewer)


class Expect:
    """Tracks, per viewer (a seat or ``None``), the newest frame the server must have sent it.

    ``step`` after every applied action returns ``heard``: the viewers that must get an
    ``update`` for it (an event visible to them, or their view or legal list changed since their
    last frame). The others get nothing. ``version`` counts the actions, ``public`` the public
    version frames show (an action advances it iff it shows a spectator an event or another
    view), so a viewer's next ``update`` after a hidden answer shows ``public`` + 1 at most.
    """

    def __init__(self, game: Game, state: Any, viewers: Iterable[int | None],
                 version: int = 0, public: int | None = None) -> None:
        """Start at ``version`` (``state`` after that many actions; ``public``, default the
        same, the public version), which every viewer was shown (a ``welcome``, or an
        ``update`` everyone heard)."""
        self.game, self.version = game, version
        self.public = version if public is None else public
        self.state = state
        self.seen = {v: Seen(self.public, game.view(state, v), legal_for(game, state, v), [])
                     for v in viewers}
        self.heard: set[int | None] = set(self.seen)

    def step(self, state: Any, events: Iterable[Event]) -> set[int | None]:
        """Record the next version (``state`` after it, its ``events`` — with a clock's
        ``timeout`` event first when the clock played it); return and keep ``heard``."""
        self.version += 1
        events = list(events)
        self.public += shows_spectator(self.game, self.state, state, events)
        self.state = state
        self.heard = set()
        for viewer, seen in self.seen.items():
            shown = [e.to_json() for e in events if e.visible(viewer)]
            view, legal = self.game.view(state, viewer), legal_for(self.game, state, viewer)
            if shown or view != seen.view or legal != seen.legal:
                self.seen[viewer] = Seen(self.public, view, legal, shown)
                self.heard.add(viewer)
        return self.heard


def timeout_event(seat: int) -> Event:
    """Return the room layer's ``timeout`` event (public) that opens a clock-played update."""
    return Event("timeout", {"seat": seat})


async def catch_up(clients: Mapping[Hashable, Client], expect: Expect,
                   viewer_of: Callable[[Hashable], int | None] = lambda key: key,
                   local: bool = True) -> dict[Hashable, list[dict[str, Any]]]:
    """Receive what each client must be shown after ``expect``'s newest version.

    Clients (keyed as the caller likes; ``viewer_of(key)`` is the seat it watches as, ``None``
    for a spectator) whose viewer is in ``expect.heard`` wait for their one ``update`` first
    (its version may equal the last one: a hidden answer does not advance it). With
    ``local`` (every socket on the server process of one that had to hear — the actor always
    has to) each of the others then takes what is already queued for it (``Client.settle``),
    so a frame sent against the prediction is caught by ``assert_shown``. Without ``local``
    (sockets spread over several processes) only the frames that must come are awaited.

    Returns ``{key: update frames received}``.
    """
    frames: dict[Hashable, list[dict[str, Any]]] = {key: [] for key in clients}
    for key, client in clients.items():
        if viewer_of(key) in expect.heard:
            frames[key] = [await client.next("update")]
    if local:
        for key, client in clients.items():
            if viewer_of(key) not in expect.heard:
                frames[key] = await client.settle()
    return frames


def assert_caught_up(clients: Mapping[Hashable, Client],
                     frames: Mapping[Hashable, list[dict[str, Any]]], expect: Expect,
                     viewer_of: Callable[[Hashable], int | None] = lambda key: key) -> None:
    """Assert ``catch_up``'s ``frames``: one ``update`` (at ``expect.public``) for each client
    whose viewer had to hear the newest version, none for the others — an ``update`` sent
    against the prediction earlier shows here too — and each client's newest frame is the one
    ``expect`` says its viewer must have (``assert_shown``)."""
    for key, client in clients.items():
        viewer = viewer_of(key)
        wanted = [expect.public] if viewer in expect.heard else []
        assert [f["version"] for f in frames[key]] == wanted, (key, frames[key])
        assert_shown(client, expect, viewer)


def assert_shown(client: Client, expect: Expect, viewer: int | None) -> None:
    """Assert ``client``'s newest frame is the one ``expect`` says ``viewer`` must have."""
    seen = expect.seen[viewer]
    assert client.last["version"] == seen.version, (viewer, client.last["version"], seen.version)
    assert client.last["view"] == seen.view
    assert client.last["legal"] == seen.legal
    if client.last["type"] == "update":
        assert client.last["events"] == seen.events



async def play_seeded(game: Game, state: Any, clients: Mapping[int, Client],
                      viewers: Mapping[int | None, Client],
                      policy: Callable[[Any], tuple[int, dict[str, Any]]],
                      assert_private: Callable[[dict[str, Any], int | None], None]) -> tuple[Any, Expect]:
    """Play ``state`` (every viewer shown it: version 0) to the end through the seats' sockets.

    Each step: ``policy(state)`` gives the acting seat and its action; that seat's last frame
    must list exactly the engine's legal actions; the action goes through its socket and is
    applied to the engine too; every viewer (``viewers``: seats and ``None`` for a spectator)
    must get exactly the frames it must (``catch_up``/``assert_caught_up``: an answer that leaves
    a claim window open sends the others nothing, docs/security.md §2), each passing
    ``assert_private(view, viewer)``, and ends on the engine's own view. Returns the final state
    and the ``Expect`` (its ``version`` and ``public`` counts).
    """
    expect = Expect(game, state, viewers)
    while game.to_act(state):
        seat, action = policy(state)
        assert clients[seat].last["legal"] == game.legal_actions(state, seat)
        await clients[seat].act(action)
        state, events = game.apply(state, seat, action)
        expect.step(state, events)
        heard = await catch_up(viewers, expect)
        assert_caught_up(viewers, heard, expect)
        for viewer, client in viewers.items():
            for frame in heard[viewer]:
                assert_private(frame["view"], viewer)
            assert client.last["view"] == game.view(state, viewer)
    return state, expect
