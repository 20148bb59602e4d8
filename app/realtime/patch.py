"""JSON Patch (RFC 6902) between two documents: what a patched ``update`` sends instead of the
whole view (docs/protocol.md "Patched updates").

``diff(old, new)`` returns operations that turn ``old`` into ``new`` when applied in order
(``add``, ``remove``, ``replace`` only; paths are JSON Pointers, RFC 6901, with ``~`` written
``~0`` and ``/`` written ``~1``). Both are JSON values as the server builds them: dicts with
string keys, lists, str, int, float, bool, None. Neither is mutated, and the operations hold
references to parts of ``new`` (not copies): encode them before ``new`` could change.

Equal parts cost one C-level ``==`` and are not walked. The limit that buys: values compare
with Python's ``==``, so ``true`` where ``1`` was (or ``1.0`` where ``1`` was) counts as
unchanged and is not sent. No game view holds a boolean and a number at one place, nor an
integer where a float was (the playout tests of tests/app/test_ws_patches.py compare every
rebuilt frame's exact JSON with the full one); confirming each equal part by its encoding
would make a diff cost about twice as much.

A dict or list with several changed entries, at least half of its size, whose operations
encode longer than replacing it whole is replaced whole. A list is cut to the part between
its common head and tail; a middle of the same length on both sides is patched element by
element, any other middle becomes ``remove``s of the old elements then ``add``s of the new
(so no ``replace`` path ever goes through an index another op of the patch shifted).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

Op = dict[str, Any]

#: Bytes a ``replace`` op adds around its path and value: ``{"op":"replace","path":"","value":}``
#: and the comma that separates it from the next op.
REPLACE_BYTES = 32


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


def diff(old: Any, new: Any, path: str = "") -> list[Op]:
    """Return the JSON Patch operations turning ``old`` into ``new`` (``[]`` when equal).

    ``path`` is the JSON Pointer of ``old`` inside the document being patched (``""``: the
    whole document, replaced whole when the two differ in type).
    """
    ops: list[Op] = []
    if old is not new and old != new:
        _diff(old, new, path, ops)
    return ops


def diff_fields(old: Mapping[str, Any], new: Mapping[str, Any], keys: Iterable[str]) -> list[Op]:
    """Return the operations turning the document ``{key: old[key] for key in keys}`` into
    the same of ``new`` (without building either: the two mappings are read, not copied)."""
    ops: list[Op] = []
    for key in keys:
        was, value = old[key], new[key]
        if was is not value and was != value:
            _diff(was, value, pointer("", key), ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """Append the operations of two values ``!=`` each other."""
    if type(old) is dict and type(new) is dict:
        inner: list[Op] = []
        _diff_dict(old, new, path, inner)
    elif type(old) is list and type(new) is list:
        inner = []
        _diff_list(old, new, path, inner)
    else:
        ops.append({"op": "replace", "path": path, "value": new})
        return
    if len(inner) > 1 and 2 * len(inner) >= len(new) \
            and len(_dump(inner)) > len(_dump(new)) + len(path) + REPLACE_BYTES:
        ops.append({"op": "replace", "path": path, "value": new})
    else:
        ops.extend(inner)


def _diff_dict(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[Op]) -> None:
    if len(old) > len(new) or not old.keys() <= new.keys():
        ops.extend({"op": "remove", "path": pointer(path, key)} for key in old if key not in new)
    for key, value in new.items():
        was = old.get(key, _MISSING)
        if was is value or was == value:
            continue
        if was is _MISSING:
            ops.append({"op": "add", "path": pointer(path, key), "value": value})
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
    ops.extend({"op": "remove", "path": at} for _ in range(gone))
    ops.extend({"op": "add", "path": f"{path}/{head + i}", "value": new[head + i]}
               for i in range(come))


#: A key's place in a dict that lacks it (no JSON value is this object).
_MISSING: Any = object()
