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

import weakref
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
        at = f"{path}/{key}" if "~" not in key and "/" not in key else pointer(path, key)
        if was is _MISSING:
            ops.append([ADD, at, value])
        elif type(value) is dict or type(value) is list:
            _diff(was, value, at, ops)
        else:  # a scalar: what _diff would do, without the call
            ops.append([REPLACE, at, value])


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    n, m = len(old), len(new)
    if m > n and new[:n] == old:  # grown at its end (a field, a discard pile): one C compare
        ops.extend([ADD, f"{path}/{i}", new[i]] for i in range(n, m))
        return
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


#: The most key templates one socket is given (until its next full update); later key tuples
#: stay plain objects.
MAX_TEMPLATES = 256

#: A key tuple: a dict's keys in order, or ``(kind, keys)`` for an event's data.
Keys = tuple[Any, ...]


class Templates:
    """The key templates a patching socket was given since its last full update: ``{keys:
    id}``, ids numbered from 0 in the order they were made. Never mutated: a frame that makes
    new ones gets the table after it from ``then``, one object per (table, new key tuples),
    so sockets given the same frames since their last full update hold the same table (and
    share their encoded frames) even when their first patches were computed apart (from
    different ``welcome`` documents). Tables no socket holds are dropped (``then`` keeps weak
    references)."""

    __slots__ = ("ids", "_then", "__weakref__")

    def __init__(self, ids: dict[Keys, int] | None = None) -> None:
        self.ids: dict[Keys, int] = ids or {}
        self._then: weakref.WeakValueDictionary[tuple[Keys, ...], Templates] = \
            weakref.WeakValueDictionary()

    def then(self, made: dict[Keys, int]) -> Templates:
        """Return the table after this one made ``made`` (``{keys: id}``, in order)."""
        key = tuple(made)
        found = self._then.get(key)
        if found is None:
            found = self._then[key] = Templates({**self.ids, **made})
        return found


#: The table of a socket given no template yet (after a ``welcome`` or a full update).
NO_TEMPLATES = Templates()


def _plain_only(value: dict[str, Any]) -> bool:
    """Whether a dict is never templated: it has a key of ASCII digits only (a JavaScript
    object lists such keys first, in numeric order, whatever the order they were sent in)."""
    return any(key.isdigit() and key.isascii() for key in value)


class Compactor:
    """Writes one patched frame's dicts with a socket's key templates (docs/protocol.md
    "Patched updates"). A dict sent plain in a templated place (an event's data, an entry of a
    whole ``legal``, a replace map, a dict value of an add or replace op), in the order the
    client reads them (events, then ``legal``, then ``patch``), makes the next template of
    its key tuple when that has none; a dict whose key tuple has one is sent as the template's
    id then its values."""

    __slots__ = ("_old", "_new")

    def __init__(self, table: Templates) -> None:
        self._old = table
        self._new: dict[Keys, int] = {}

    def _id(self, keys: Keys, value: dict[str, Any]) -> int | None:
        """Return the template id of ``keys`` (``value``'s), or ``None`` after making it (when
        room is left and ``value`` may have one): the dict goes plain this time."""
        found = self._old.ids.get(keys)
        if found is None:
            found = self._new.get(keys)
            if found is None:
                made = len(self._old.ids) + len(self._new)
                if made < MAX_TEMPLATES and not _plain_only(value):
                    self._new[keys] = made
        return found

    def event(self, kind: str, data: Any) -> list[Any]:
        """Return an event as sent: ``[id, *values]`` by the template of its kind and data
        keys, else ``[kind, data]``."""
        if type(data) is dict:
            keys = (kind, tuple(data))
            found = self._old.ids.get(keys)
            if found is None:
                found = self._id(keys, data)
            if found is not None:
                return [found, *data.values()]
        return [kind, data]

    def entry(self, value: Any) -> Any:
        """Return a dict in a templated place as sent: ``[id, *values]``, or the dict itself
        (also any other value)."""
        if type(value) is dict and value:
            keys = tuple(value)
            found = self._old.ids.get(keys)
            if found is None:
                found = self._id(keys, value)
            if found is not None:
                return [found, *value.values()]
        return value

    def ops(self, ops: list[Op], events: list[Any]) -> list[Op]:
        """Return ``diff`` ops as sent: first one replace map of every replace whose value is
        not a non-empty dict (``{path: value}``, or a template's ``[id, *values]``: no replace
        path goes through an index another op shifts, so they may come first), then the other
        ops in order, an add of a dict equal to ``events[i]`` written ``["&", path, i]`` and a
        templated dict value ``[op, path, id, *values]``."""
        replaces: dict[str, Any] = {}
        out: list[Op] = []
        valued: list[int] = []  # where the ops with a dict value go, made after the map
        for op in ops:
            kind = op[0]
            if kind == REMOVE:
                out.append(op)
                continue
            value = op[2]
            if type(value) is dict and value:
                if kind == ADD and events:
                    at = 0
                    for data in events:
                        if data == value:
                            break
                        at += 1
                    else:
                        at = -1
                    if at >= 0:
                        out.append([COPY, op[1], at])
                        continue
                valued.append(len(out))
                out.append(op)
            elif kind == REPLACE:
                replaces[op[1]] = value
            else:
                out.append(op)
        shift = 0
        if replaces:  # first, and its template made before the values'
            out.insert(0, self.entry(replaces))
            shift = 1
        for at in valued:
            op = out[at + shift]
            sent = self.entry(op[2])
            if sent is not op[2]:
                out[at + shift] = [op[0], op[1], *sent]
        return out

    @property
    def table(self) -> Templates:
        """The socket's templates after this frame."""
        return self._old.then(self._new) if self._new else self._old


#: The op that adds a copy of an event's data: ``["&", path, event index]``.
COPY = "&"
