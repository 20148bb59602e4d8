"""Typed path and query parameters shared by the routes (hostile HTTP input).

Row ids are ``INTEGER`` columns: 32-bit on PostgreSQL, 64-bit on SQLite; ids start at 1. A
number outside 1 … ``MAX_ID`` makes the database driver fail (a 500), so it never reaches it.
An id in a path names a thing: any whole number is taken, and one no row can have is answered
as any unknown id is (404 ``player_not_found``, ``match_not_found``: the lookups check it,
``repositories.can_be_id``). An id in the query filters a list and is refused up front
(422 ``validation_error``).

A number in a path or a query is written as the server writes it: decimal digits (``-``
first for an id in a path); another spelling pydantic would read as that number (``1.0``,
``+1``, `` 1``) is refused with 422 ``validation_error`` as ``abc`` is, e.g. ``path.seat: Input
should be a seat number in digits (0, 1, …)`` (``plain_number``)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from app.db.repositories import MAX_ID
from app.rooms.errors import RoomError

WHOLE_NUMBER = re.compile(r"-?[0-9]+")
DIGITS = re.compile(r"[0-9]+")


def plain_number(pattern: re.Pattern[str], message: str) -> BeforeValidator:
    """Return a validator that lets through a path text matching ``pattern`` in full (to be
    read as an ``int``) and refuses any other text with ``message`` (422 ``validation_error``,
    e.g. ``path.seat: Input should be a seat number in digits (0, 1, …)``)."""
    def check(value: Any) -> Any:
        if isinstance(value, str) and not pattern.fullmatch(value):
            raise PydanticCustomError("plain_number", message)
        return value

    return BeforeValidator(check)


#: A row id in the path (``/api/matches/{match_id}``): any whole number in digits (module doc).
IdPath = Annotated[int, Path(description="a row id in digits (ids are 1 to 2^31-1; another "
                                         "number names nothing: 404)"),
                   plain_number(WHOLE_NUMBER, "Input should be an id in digits (1, 2, …)")]
#: A seat index in the path (``/api/rooms/{code}/seats/{seat}``): digits only (a seat the room
#: does not have is the route's 404 ``no_such_seat``).
SeatPath = Annotated[int, Path(ge=0, description="a seat index in digits, 0 first"),
                     plain_number(DIGITS, "Input should be a seat number in digits (0, 1, …)")]
#: A number in the query (``?limit=``, ``?offset=``, ``?viewer=``): digits only; the route's
#: ``Query`` gives its bounds (``Annotated[int, Query(ge=1, le=100), IN_DIGITS] = 20``).
IN_DIGITS = plain_number(DIGITS, "Input should be a number in digits (0, 1, …)")
#: An optional row id in the query (``?player=``): 1 … ``MAX_ID``, in digits.
IdQuery = Annotated[int | None, Query(ge=1, le=MAX_ID, description="a row id (1 to 2^31-1)"),
                    plain_number(DIGITS, "Input should be an id in digits (1, 2, …)")]
#: A page cursor as the server gives it (``next_cursor``): decimal digits of a row id. The
#: pattern is documented, and checked by the route itself (``422 bad_cursor``).
CURSOR_PATTERN = r"^[0-9]{1,10}$"
CursorQuery = Annotated[str | None, Query(description="next_cursor of the previous page",
                                          json_schema_extra={"pattern": CURSOR_PATTERN})]


def parse_cursor(cursor: str | None) -> int | None:
    """Return the match id a cursor stands for (``None`` = first page).

    Raises:
        RoomError: ``bad_cursor`` (422).
    """
    if cursor is None:
        return None
    if not re.fullmatch(CURSOR_PATTERN, cursor):
        raise RoomError("bad_cursor", "The cursor is not one this server gave.", 422)
    return int(cursor)
