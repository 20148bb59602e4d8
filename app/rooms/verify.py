"""Server-side replay check of a finished match (the match page's "verify").

It runs ``tools.verify.verify_match`` — the same check as ``python -m tools.verify
MATCH.json`` — on the match detail the REST API publishes, with the games this server hosts.
The replay runs in a worker thread (a long log must not stall the event loop) and its report is
cached by the detail's content: a finished match never changes, so asking again is free.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from app.rooms.catalog import Catalog
from app.rooms.errors import RoomError
from tools.verify import VerifyReport, verify_match

#: How many reports the cache keeps (least recently used dropped first).
CACHE_SIZE = 256
_cache: OrderedDict[str, VerifyReport] = OrderedDict()


def _key(detail: Mapping[str, Any]) -> str:
    """Return the SHA-256 of ``detail`` as canonical JSON (the cache key)."""
    return hashlib.sha256(json.dumps(detail, sort_keys=True, default=str).encode()).hexdigest()


def _games(catalog: Catalog, game_id: Any) -> dict[str, Any]:
    """Return ``{game_id: GAME}`` if this server hosts ``game_id``, else ``{}``."""
    try:
        return {game_id: catalog.game(game_id)} if isinstance(game_id, str) else {}
    except RoomError:
        return {}


async def verify_detail(catalog: Catalog, detail: Mapping[str, Any]) -> VerifyReport:
    """Return the ``tools.verify`` report of a ``MatchDetail`` (docs/protocol.md).

    Args:
        catalog: the hosted games. detail: the match detail JSON (``seed`` and ``actions``
            are ``null`` unless the match is finished, which the report then names).

    Returns:
        The report (``ok``, ``checks``, ``failure``, ``actions``); never raises for bad data.
    """
    key = _key(detail)
    report = _cache.get(key)
    if report is None:
        games = _games(catalog, detail.get("game"))
        report = await asyncio.to_thread(verify_match, dict(detail), games)
        _cache[key] = report
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    _cache.move_to_end(key)
    return report
