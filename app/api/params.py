"""Typed path and query parameters shared by the routes (hostile HTTP input).

Row ids are ``INTEGER`` columns: 32-bit on PostgreSQL, 64-bit on SQLite. A larger number in a
URL used to reach the database driver and fail there (a 500); with these types it is refused
up front as ``422 validation_error``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

#: The largest row id any supported database stores (PostgreSQL ``integer``).
MAX_ID = 2 ** 31 - 1

#: A row id in the path (``/api/matches/{match_id}``): 1 … ``MAX_ID``.
IdPath = Annotated[int, Path(ge=1, le=MAX_ID, description="a row id (1 to 2^31-1)")]
#: An optional row id in the query (``?player=``): 1 … ``MAX_ID``.
IdQuery = Annotated[int | None, Query(ge=1, le=MAX_ID, description="a row id (1 to 2^31-1)")]
#: A page cursor as the server gives it (``next_cursor``): decimal digits of a row id. The
#: pattern is documented, and checked by the route itself (``422 bad_cursor``).
CURSOR_PATTERN = r"^[0-9]{1,10}$"
CursorQuery = Annotated[str | None, Query(description="next_cursor of the previous page",
                                          json_schema_extra={"pattern": CURSOR_PATTERN})]
