"""Compact patches between two JSON values: what a patched ``update`` sends instead of the
whole view (docs/protocol.md "Patched updates").

``diff(old, new)`` returns the operations that turn ``old`` into ``new`` when applied in order,
or ``None`` when ``new`` is better sent whole (the two differ in type, or replacing the whole is
shorter). An operation is a short list: ``["=", path, value]`` replaces, ``["+", path, value]``
adds (a list element inserted before index ``path``'s last token, or a new key),
``["-", path]`` removes. A path is relative to the patched value: its JSON Pointer (RFC 6901,
``~`` written ``~0`` and ``/`` written ``~1``) without the leading ``/`` (``"field/1"`` is
``/field/1``; ``""`` is the key ``""`` of the top dict, never the value itself). Both values
are JSON as the server builds them: dicts with string keys, lists, str, int, float, bool,
None. Neither is mutated, and the operations hold references to parts of ``new`` (not
copies): encode them before ``new`` could change.

Equal parts cost one C-level ``==`` and are not walked. The limit that buys: values compare
with Python's ``==``, so ``true`` where ``1`` was (or ``1.0`` where ``1`` was) counts as
unchanged and is not sent. No game view holds a boolean and a number at one place, nor an
integer where a float was (the playout tests of tests/app/test_ws_patches.py compare every
rebuilt frame with the full one); confirming each equal part by its encoding would make a
diff cost about twice as much.

A dict or list with several changed entries, at least half of its size, whose operations
encode longer than replacing it whole is replaced whole. A list is cut to the part between
its common head and tail; a middle of the same length on both sides is patched element by
element, any other middle becomes removes of the old elements then adds of the new (so no
replace path ever goes through an index another op of the patch shifted).
"""

from __future__ import annotations

from typing import Any

import orjson

#: One operation: ``["=", path, value]``, ``["+", path, value]`` or ``["-", path]``.
Op = list[Any]

#: Bytes a replace op adds around its path and value: ``["=","",]`` and the comma that
#: separates it from the next op.
REPLACE_BYTES = 9

REPLACE, ADD, REMOVE = "=", "+", "-"


def pointer(path: str, key: str | int) -> str:
    """Return the JSON Pointer ``path`` extended by one reference token (RFC 6901: ``~`` →
    ``~0``, ``/`` → ``~1``)."""
    if isinstance(key, str) and ("~" in key or "/" in key):
        key = key.replace("~", "~0").replace("/", "~1")
    return f"{path}/{key}"


def _dump(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def diff(old: Any, new: Any) -> list[Op] | None:
    """Return the operations turning ``old`` into ``new`` (``[]`` when equal), or ``None``
    when ``new`` should be sent whole instead: they differ in type or are not containers, or
    the operations would encode longer than ``new`` itself."""
    if old is new or old == new:
        return []
    ops: list[Op] = []
    _diff(old, new, "", ops)
    if ops and ops[0][1] == "":  # the value itself replaced: only ever the sole op
        return None
    for op in ops:
        op[1] = op[1][1:]
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """Append the operations of two values ``!=`` each other (paths with their leading ``/``;
    ``diff`` strips it)."""
    if type(old) is dict and type(new) is dict:
        inner: list[Op] = []
        _diff_dict(old, new, path, inner)
    elif type(old) is list and type(new) is list:
        inner = []
        _diff_list(old, new, path, inner)
    else:
        ops.append([REPLACE, path, new])
        return
    if len(inner) > 1 and 2 * len(inner) >= len(new) \
            and len(_dump(inner)) > len(_dump(new)) + len(path) + REPLACE_BYTES:
        ops.append([REPLACE, path, new])
    else:
        ops.extend(inner)


def _diff_dict(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[Op]) -> None:
    if len(old) > len(new) or not old.keys() <= new.keys():
        ops.extend([REMOVE, pointer(path, key)] for key in old if key not in new)
    for key, value in new.items():
        was = old.get(key, _MISSING)
        if was is value or was == value:
            continue
        if was is _MISSING:
            ops.append([ADD, pointer(path, key), value])
        else:
            _diff(was, value, pointer(path, key), ops)


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    n, m = len(old), len(new)
    head = 0
    while head < n and head < m and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and old[n - 1 - tail] == new[m - 1 - tail]:
        tail += 1
    gone, come = n - head - tail, m - head - tail
    if gone == come:
        for i in range(head, head + gone):
            if old[i] != new[i]:
                _diff(old[i], new[i], f"{path}/{i}", ops)
        return
    at = f"{path}/{head}"
    ops.extend([REMOVE, at] for _ in range(gone))
    ops.extend([ADD, f"{path}/{head + i}", new[head + i]] for i in range(come))


#: A key's place in a dict that lacks it (no JSON value is this object).
_MISSING: Any = object()
