"""How the API reads a JSON request body: UTF-8 text only, refusals answered as invalid JSON.

FastAPI parses a JSON body with Starlette's ``Request.json`` (``json.loads`` on the bytes) and
turns any error but ``json.JSONDecodeError`` into ``HTTPException(400)`` caused by it. Two bodies
got through or past that as they should not:

- UTF-16 and UTF-32 text: ``json.loads`` reads it, telling the encoding from the first bytes
  (``json.detect_encoding``: a UTF-16/32 byte order mark, or a NUL among the first four bytes).
  RFC 8259 §8.1: JSON text exchanged between systems that are not part of a closed ecosystem
  MUST be encoded using UTF-8. A UTF-8 byte order mark is ignored, as §8.1 allows (parsers "MAY
  ignore" one; senders "MUST NOT" add one);
- arrays or objects nested deeper than the parser recurses (about 1,000 levels, well within
  the 64 KiB body limit): ``json.loads`` raises ``RecursionError``;
- an integer of more than 4,300 digits (``sys.get_int_max_str_digits``): ``ValueError``.

``JsonRequest.json`` raises ``UnreadableBody`` for those and for bytes that are not UTF-8 at all
(``UnicodeDecodeError``); ``app.api.errors.http_error`` answers the 400 it causes as 422
``validation_error``, field ``body``, reason ``json_invalid``, with the exception's message.
Every router is built with ``route_class=JsonRoute`` (FastAPI's way to give routes their own
``Request`` class), so every route that takes a JSON body reads it here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

#: The message of a JSON body that is not UTF-8 text.
NOT_UTF8 = "body: The body is not valid JSON: it is not UTF-8 text."
#: The message of a JSON body nested deeper than the parser recurses.
TOO_DEEP = "body: The body is not valid JSON: it nests arrays and objects too deeply."
#: The message of a JSON body with an integer of more digits than Python reads
#: (``sys.get_int_max_str_digits()``: 4,300).
TOO_LONG = "body: The body is not valid JSON: it has an integer of more than 4,300 digits."

#: What ``json.detect_encoding`` calls UTF-8 text (``utf-8-sig``: after a byte order mark).
UTF8 = ("utf-8", "utf-8-sig")


class UnreadableBody(ValueError):
    """A JSON body refused before it is validated; ``message`` is the answer's text
    (``"body: …"``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def parse_json(body: bytes) -> Any:
    """Return the JSON value of ``body``, which must be UTF-8 text (RFC 8259 §8.1; a leading
    UTF-8 byte order mark is skipped).

    Raises:
        UnreadableBody: ``NOT_UTF8`` for UTF-16 or UTF-32 text (as ``json.loads`` would tell
            it) or bytes that are not UTF-8 (an encoded lone surrogate included); ``TOO_DEEP`` for arrays or objects nested deeper
            than the parser's recursion limit; ``TOO_LONG`` for an integer of more digits than
            ``int`` reads (4,300).
        json.JSONDecodeError: for UTF-8 text that is not JSON (FastAPI answers it itself).
    """
    if json.detect_encoding(body) not in UTF8:
        raise UnreadableBody(NOT_UTF8)
    try:  # strict: json.loads(bytes) would let an encoded lone surrogate (ED A0 80) through
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableBody(NOT_UTF8) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError as exc:  # only the parser's own recursion on this body's nesting
        raise UnreadableBody(TOO_DEEP) from exc
    except ValueError as exc:  # the one other refusal: int()'s limit on an integer's digits
        raise UnreadableBody(TOO_LONG) from exc


class JsonRequest(Request):
    """A ``Request`` whose ``json()`` is ``parse_json`` (the rest is Starlette's)."""

    async def json(self) -> Any:
        """Return the body's JSON value, parsed once.

        Raises:
            UnreadableBody, json.JSONDecodeError: as ``parse_json``.
        """
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class JsonRoute(APIRoute):
    """An ``APIRoute`` whose endpoint gets a ``JsonRequest``: pass it as every ``APIRouter``'s
    ``route_class``."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """Return FastAPI's handler, handed a ``JsonRequest`` on the same connection."""
        handler = super().get_route_handler()

        async def reading_json_strictly(request: Request) -> Response:
            return await handler(JsonRequest(request.scope, request.receive))

        return reading_json_strictly
