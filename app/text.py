"""Which characters show on a page: the rule shared by player names and chat lines.

A character shows nothing when it is a control, format (zero-width, bidi), private-use,
unassigned, surrogate, line- or paragraph-separator character, or one of the blank fillers in
``INVISIBLE`` (docs/security.md: nobody may pass a blank or look-alike name or line).
"""

from __future__ import annotations

import unicodedata

#: Unicode categories of characters that show nothing: control, format (zero-width, bidi),
#: private use, unassigned, surrogate, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
#: Characters outside those categories that still show nothing (combining grapheme joiner,
#: Hangul and Khmer fillers, Braille blank).
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")


def refused_char(ch: str) -> bool:
    """Return whether the one-character ``ch`` shows nothing (see module doc): a name may not
    hold it, and it does not count as a chat line's visible character."""
    return ch in INVISIBLE or unicodedata.category(ch) in REFUSED_CATEGORIES


def has_visible(text: str) -> bool:
    """Return whether ``text`` holds a character that shows: neither whitespace nor
    ``refused_char``."""
    return any(not ch.isspace() and not refused_char(ch) for ch in text)
