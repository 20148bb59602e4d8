"""Response and request models of the REST API (they drive the OpenAPI schema at /docs)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.api.player_name import PlayerName
from engine.bots import LEVELS

#: A bot level (``engine.bots.LEVELS``: ``easy``, ``normal``, ``hard``, ``expert``).
BotLevel = Literal[LEVELS]  # type: ignore[valid-type]


class ErrorBody(BaseModel):
    """``{"code", "message"}`` inside ``{"detail": ...}`` of every 4xx answer; a 422
    ``validation_error`` adds ``field`` (``"body.name"``) and ``reason``, the refused rule's
    code (``bot_name``, ``string_too_short``…: ``app.api.errors.validation_error``)."""

    code: str
    message: str
    field: str | None = None
    reason: str | None = None


class ErrorOut(BaseModel):
    """Every error answer: ``{"detail": {"code", "message"}}``."""

    detail: ErrorBody


class OptionOut(BaseModel):
    """One room option of a game (``OptionSpec.to_json``)."""

    name: str
    kind: Literal["choice", "int", "bool"]
    default: Any
    label: str
    choices: list[Any] | None = None
    minimum: int | None = None
    maximum: int | None = None
    when: dict[str, Any] | None = None


class GameOut(BaseModel):
    """A catalog entry (``GameSpec.to_json``)."""

    id: str
    titles: dict[str, str]
    min_players: int
    max_players: int
    hidden_information: bool
    max_length: int
    options: list[OptionOut]


class BodyIn(BaseModel):
    """A request body: a field it does not define is refused (422 ``validation_error`` naming
    it: ``"body.privte: Extra inputs are not permitted"``), so a misspelt field is never
    silently ignored (a room meant private created public)."""

    model_config = ConfigDict(extra="forbid")


class PlayerIn(BodyIn):
    """``POST /api/players`` body: a name (``PlayerName``: stripped; refused with 422 when
    blank or holding a control character)."""

    name: PlayerName


class PlayerOut(BaseModel):
    """A public player."""

    id: int
    name: str


class PlayerCreated(PlayerOut):
    """A new player with its bearer token (shown once; the server keeps only its hash)."""

    token: str


class RoomIn(BodyIn):
    """``POST /api/rooms`` body: a game id and (partial) options."""

    game: str
    options: dict[str, Any] | None = None
    #: a private room is never listed (link only, 96-bit code); what happens
    #: to a seat that times out three decisions in a row.
    private: StrictBool = False  # a JSON boolean: "yes" is 422
    on_timeouts: Literal["bot", "forfeit"] = "bot"


class RoomSeatOut(BaseModel):
    """One seat of a room: ``team`` is its index in ``RoomOut.teams``; ``side`` is the name the
    match's view gives its side (Reverse Curse ``UP``/``DOWN``, a coin toss at the start), known
    once the match started and served by a process that holds it, else ``null`` (use ``team``)."""

    seat: int
    player_id: int | None
    name: str | None
    #: the holder's bot level (``easy``/``normal``/``hard``/``expert``), ``null`` for a person
    #: or a free seat; clients name a bot by its level in their own language.
    bot_level: BotLevel | None
    team: int
    side: str | None


class ForfeitOut(BaseModel):
    """A seat the room resigned for itself (the room's ``on_timeouts: "forfeit"`` rule), which
    ended the match: not the player's own resignation."""

    seat: int
    reason: Literal["timeouts"] = Field(
        description="``timeouts``: the seat's clock played its last ``timeouts`` decisions in "
                    "a row.")
    timeouts: int = Field(description="How many decisions in a row the seat's clock played.")


class MatchForfeitOut(ForfeitOut):
    """A ``ForfeitOut`` with the action it was stored as."""

    step: int = Field(description="The resign's ``seq`` in the action log (the replay's step).")


class RoomOut(BaseModel):
    """A room (docs/protocol.md ``Room``)."""

    code: str
    game: str
    options: dict[str, Any]
    status: Literal["open", "playing", "finished", "abandoned"]
    seats: list[RoomSeatOut]
    #: The seats that play as one side, in side order (the engine's ``sides``; one seat per
    #: team in a game without teams), known from the room's creation.
    teams: list[list[int]]
    match_id: int | None
    created_at: str
    ws: str
    creator_id: int
    private: bool
    on_timeouts: Literal["bot", "forfeit"]
    rematch: list[int]
    forfeit: ForfeitOut | None = Field(
        description="The seat the room resigned in its newest match (which that ended), where "
                    "the serving process holds the match (every websocket frame; a REST answer "
                    "from another process may say null: ``MatchSummary.forfeit`` always tells).")


class OutcomeOut(BaseModel):
    """``Outcome.to_json``."""

    ranks: list[int]
    reason: str
    winners: list[int]
    draw: bool
    detail: dict[str, Any]


class SeatOccupantOut(BaseModel):
    """One player who played a seat of a match, from action ``from_step`` on (until the next
    occupant's ``from_step``)."""

    player_id: int
    name: str
    bot_level: BotLevel | None = Field(
        description="The player's bot level, null for a person (as in a room's seats).")
    from_step: int | None = Field(
        description="The first action (``seq``; the replay's step) this occupant played the "
                    "seat for: 1 for the player seated at the start. Null for one who took the "
                    "seat over while the match is not finished: like the action log, how many "
                    "actions were played is told once the match is over.")


class MatchSeatOut(BaseModel):
    """Who played a seat: the player seated when the match started, and every occupant in
    order (more than one when a bot took the seat over mid-match: the seat kept timing out)."""

    seat: int
    player_id: int = Field(description="The player seated when the match started.")
    name: str
    bot_level: BotLevel | None = Field(
        description="The player's bot level, null for a person (as in a room's seats).")
    occupants: list[SeatOccupantOut] = Field(
        description="Everyone who played the seat, in order, the player seated at the start "
                    "first; an action ``seq`` was played by the last occupant whose "
                    "``from_step`` is at most ``seq``.")


class MatchSummary(BaseModel):
    """A match in lists (docs/protocol.md ``MatchSummary``)."""

    id: int
    game: str
    room_code: str | None  # None for a private room (its code is its key)
    status: Literal["playing", "finished", "abandoned"]
    options: dict[str, Any]
    seats: list[MatchSeatOut]
    teams: list[list[int]] = Field(
        description="The seats that play as one side, in side order (the game's sides, as a "
                    "room's ``teams``: Reverse Curse 2v2 ``[[0, 2], [1, 3]]``; one seat per "
                    "team in a game without teams).")
    outcome: OutcomeOut | None
    forfeit: MatchForfeitOut | None = Field(
        description="The seat the room resigned (it kept timing out), which ended the match; "
                    "null when no seat was (a player's own resign is the outcome's ``resign``).")
    started_at: str
    finished_at: str | None


class ActionOut(BaseModel):
    """One logged action (``at`` is ISO 8601 UTC)."""

    seq: int
    seat: int
    player_id: int = Field(
        description="Who played it: the seat's occupant at this ``seq`` (``MatchSeatOut``).")
    action: dict[str, Any]
    at: str


class MatchDetail(MatchSummary):
    """A match with its seed commitment; seed and actions only once finished."""

    seed_commitment: str
    seed: str | None
    actions: list[ActionOut] | None


class RoomPage(BaseModel):
    """A page of rooms, newest first; pass ``next_cursor`` as ``cursor`` for the next."""

    items: list[RoomOut]
    next_cursor: str | None


class MatchPage(BaseModel):
    """A page of matches, newest first; pass ``next_cursor`` as ``cursor`` for the next."""

    items: list[MatchSummary]
    next_cursor: str | None


class LadderCard(BaseModel):
    """One field card of a resolved set."""

    card: str
    seat: int
    side: Literal["UP", "DOWN"]


class LadderSet(BaseModel):
    """One resolved Reverse Curse set."""

    set: int
    first_side: Literal["UP", "DOWN"]
    field: list[LadderCard]
    result: int
    position_after: int


class LadderOut(BaseModel):
    """``GET /api/matches/{id}/ladder``."""

    match_id: int
    sets: list[LadderSet]
