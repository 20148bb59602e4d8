"""Read the error codes docs/protocol.md lists (its websocket and REST error tables), for the
static tests that check every listed code has a translation."""

from __future__ import annotations

import re
from pathlib import Path

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def table_codes(text: str, title: str, column: int) -> set[str]:
    """The `code`s in ``column`` (1-based) of the Markdown table right after the line ``title``.

    Raises IndexError when ``text`` has no line ``title`` (the doc changed shape)."""
    block = text.split(f"\n{title}\n", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|") for line in block.splitlines() if line.startswith("| ")]
    return {code for row in rows for code in re.findall(r"`([a-z_]+)`", row[column])}


def protocol_error_codes() -> set[str]:
    """Every code in the "Websocket error codes" table (first column) and the "REST errors"
    table (second column) of docs/protocol.md."""
    text = PROTOCOL.read_text("utf-8")
    rest = text.split("### REST errors", 1)[1]
    return table_codes(text, "Websocket error codes", 1) | table_codes(rest, "translates by `code`).", 2)
