"""The ceiling: a bare uvicorn websocket server with no game logic, no database.

It answers the same REST calls and websocket frames the load generator uses, with frames padded
to the sizes the real server sends, to the same fan-out (every socket of the room gets every
update), so ``moves/s(app) / moves/s(ceiling)`` measured in one run is how close the server comes
to what Python + uvicorn + websockets can do on this machine.

"No game logic": a room's seats take turns in order (seat ``version % seats`` is asked, with one
legal action ``{"type": "go"}``); an ``act`` from the asked seat bumps the version and broadcasts.

Usage: ``python -m bench.ceiling --port 8201 [--seats 2] [--update-bytes N] [--welcome-bytes N]
[--ws IMPL]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import uvicorn

#: The single legal action the asked seat gets.
GO = {"type": "go"}


@dataclass
class CeilingRoom:
    """One room: its seats' tokens, version and connected sockets (``send`` callables by seat)."""

    code: str
    seats: int
    tokens: list[str | None]
    version: int = 0
    sockets: dict[int, tuple[Callable, int | None]] = field(default_factory=dict)

    def asked(self) -> int:
        """Return the seat whose turn it is (seats take turns in order)."""
        return self.version % self.seats

    def to_json(self) -> dict[str, Any]:
        """Return the room as the protocol's ``Room`` (just the fields the generator reads)."""
        return {"code": self.code, "game": "ceiling", "options": {}, "status": "playing",
                "seats": [{"seat": s, "player_id": None, "name": None, "side": None}
                          for s in range(self.seats)], "match_id": 1,
                "ws": f"/ws/rooms/{self.code}"}


class Ceiling:
    """The ASGI app: in-memory players and rooms, padded frames."""

    def __init__(self, seats: int, update_bytes: int, welcome_bytes: int) -> None:
        self.seats, self.update_bytes, self.welcome_bytes = seats, update_bytes, welcome_bytes
        self.tokens: dict[str, int] = {}
        self.rooms: dict[str, CeilingRoom] = {}
        self.ids = itertools.count(1)
        self.sockets = itertools.count(1)

    # ------------------------------------------------------------------ frames

    def frame(self, room: CeilingRoom, seat: int | None, kind: str, size: int) -> str:
        """Return a ``welcome``/``update`` for ``seat`` padded with a ``view.pad`` to ``size``."""
        asked = seat is not None and seat == room.asked()
        data: dict[str, Any] = {"type": kind, "seat": seat, "version": room.version,
                "prompt": f"{room.version}" if asked else None, "legal": [GO] if asked else [],
                "view": {"pad": ""}}
        text = json.dumps(data)
        data["view"]["pad"] = "x" * max(0, size - len(text))
        return json.dumps(data)

    async def broadcast(self, room: CeilingRoom) -> None:
        """Send the update of ``room.version`` to every socket of the room."""
        for send, seat in list(room.sockets.values()):
            await send({"type": "websocket.send",
                        "text": self.frame(room, seat, "update", self.update_bytes)})

    # ------------------------------------------------------------------ ASGI

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)
        elif scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})

    async def http(self, scope, receive, send) -> None:
        """``POST /api/players``, ``POST /api/rooms``, ``POST /api/rooms/{code}/seats/{seat}``."""
        while (await receive()).get("more_body"):
            pass
        token = dict(scope["headers"]).get(b"authorization", b"").decode()[len("Bearer "):]
        parts = scope["path"].strip("/").split("/")
        status = 404
        body: dict[str, Any] = {"detail": {"code": "not_found", "message": "Not found."}}
        if scope["method"] == "POST" and parts == ["api", "players"]:
            player = next(self.ids)
            self.tokens[f"t{player}"] = player
            status, body = 201, {"id": player, "name": f"p{player}", "token": f"t{player}"}
        elif scope["method"] == "POST" and parts == ["api", "rooms"]:
            room = CeilingRoom(f"c{next(self.ids)}", self.seats, [None] * self.seats)
            self.rooms[room.code] = room
            status, body = 201, room.to_json()
        elif scope["method"] == "POST" and len(parts) == 5 and parts[3] == "seats":
            room = self.rooms[parts[2]]
            room.tokens[int(parts[4])] = token
            status, body = 200, room.to_json()
        payload = json.dumps(body).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": payload})

    async def websocket(self, scope, receive, send) -> None:
        """Serve one socket: hello -> welcome; act from the asked seat -> broadcast update."""
        room = self.rooms.get(scope["path"].rstrip("/").rsplit("/", 1)[-1])
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        key, seat = next(self.sockets), None
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect" or room is None:
                    return
                data = json.loads(message.get("text") or message.get("bytes") or b"{}")
                if data.get("type") == "hello":
                    token = data.get("token")
                    seat = room.tokens.index(token) if token in room.tokens else None
                    room.sockets[key] = (send, seat)
                    await send({"type": "websocket.send",
                                "text": self.frame(room, seat, "welcome", self.welcome_bytes)})
                elif data.get("type") == "act" and seat == room.asked():
                    room.version += 1
                    await self.broadcast(room)
        finally:
            if room is not None:
                room.sockets.pop(key, None)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the ceiling on 127.0.0.1:PORT until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bench.ceiling", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8201)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--update-bytes", type=int, default=3000)
    parser.add_argument("--welcome-bytes", type=int, default=3000)
    parser.add_argument("--ws", default="auto",
                        help="uvicorn's websocket implementation (its --ws: auto, "
                             "websockets-sansio, websockets, wsproto)")
    args = parser.parse_args(argv)
    app = Ceiling(args.seats, args.update_bytes, args.welcome_bytes)
    uvicorn.run(app, host="127.0.0.1", port=args.port, access_log=False, log_level="warning",
                ws=args.ws)
    return 0


if __name__ == "__main__":
    sys.exit(main())
