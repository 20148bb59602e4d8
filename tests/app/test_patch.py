"""``app.realtime.patch``: the compact patches of patched ``update`` frames.

Each diff is turned into RFC 6902 operations (``tests.patching.rfc6902``) and applied with the
``jsonpatch`` library (an independent implementation of RFC 6902 and RFC 6901); it must give the
new document exactly (``exact``: the same JSON text with
sorted keys). The property test draws random JSON pairs, some unrelated and some a random edit
of the other. Its numbers are never 0, 1 or a float with an integral value: the diff compares
with Python's ``==``, for which ``True == 1`` and ``2 == 2.0`` (the module's documented limit;
the playout tests of ``test_ws_patches`` check the games' own frames exactly).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.realtime.fanout import Fanout, Stream, patch_body
from app.realtime.patch import NO_TEMPLATES, Templates, diff, pointer
from tests.patching import exact, rfc6902


def applied(old: Any, new: Any) -> list[list[Any]] | None:
    """Return ``diff(old, new)`` after checking that it turns ``old`` into ``new`` (unless it
    is ``None``: send ``new`` whole) and leaves both unchanged."""
    before, after = copy.deepcopy(old), copy.deepcopy(new)
    ops = diff(old, new)
    if ops is not None:
        rebuilt = jsonpatch.apply_patch({"v": old}, rfc6902(ops, [], under="v"))["v"]
        assert exact(rebuilt) == exact(new)
    assert exact(old) == exact(before) and exact(new) == exact(after)
    return ops


def test_pointer_escapes_tilde_then_slash():
    assert pointer("", "a/b") == "/a~1b"
    assert pointer("/x", "m~n") == "/x/m~0n"
    assert pointer("", "~1") == "/~01"
    assert pointer("", "") == "/"
    assert pointer("/l", 3) == "/l/3"


def test_equal_documents_need_no_operation():
    assert applied({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}) == []


def test_changed_keys_are_replaced_added_and_removed_with_escaped_paths():
    kept = "long enough that replacing the whole document costs more" * 2
    old = {"a/b": 2, "m~n": {"x": 3, "y": 4, "z": 5, "w": 6}, "": 7, "gone": 8, "k": kept}
    new = {"a/b": 3, "m~n": {"x": 3, "y": 4, "z": 5, "w": 9}, "": 7, "new": "v", "k": kept}
    assert applied(old, new) == [
        ["-", "gone"],
        ["=", "a~1b", 3],
        ["=", "m~0n/w", 9],
        ["+", "new", "v"]]


def test_a_list_grown_at_its_end_gets_adds():
    old = {"l": [f"a card of twenty-{n}" for n in range(4)]}
    new = {"l": [*old["l"], 4, 5]}
    assert applied(old, new) == [
        ["+", "l/4", 4], ["+", "l/5", 5]]


def test_a_list_edited_in_its_middle_keeps_its_head_and_tail():
    a, b, c, d, e, f = (f"the card called {name} in full" for name in "abcdef")
    old = {"l": [a, b, c, d, e, f]}
    assert applied(old, {"l": [a, b, d, e, f]}) == [["-", "l/2"]]
    assert applied(old, {"l": [a, b, "X", c, d, e, f]}) == [
        ["+", "l/2", "X"]]
    assert applied(old, {"l": [a, e, f]}) == [
        ["-", "l/1"], ["-", "l/1"],
        ["-", "l/1"]]
    assert applied(old, {"l": [a, b, "Y", d, e, f]}) == [
        ["=", "l/2", "Y"]]
    assert applied(old, {"l": [a, b, c, "Y", f]}) == [
        ["-", "l/3"], ["-", "l/3"],
        ["+", "l/3", "Y"]]
    assert applied(old, {"l": [a, "Y", "Z", "W", f]}) == [  # 4 removes + 3 adds cost more
        ["=", "l", [a, "Y", "Z", "W", f]]]


def test_a_list_of_dicts_is_patched_inside_its_changed_element():
    old = {"hand": [{"id": 1, "hp": 12, "tags": ["x"]}, {"id": 2, "hp": 30, "tags": []}]}
    new = {"hand": [{"id": 1, "hp": 12, "tags": ["x"]}, {"id": 2, "hp": 25, "tags": []}]}
    assert applied(old, new) == [["=", "hand/1/hp", 25]]


def test_a_container_mostly_changed_is_replaced_whole_when_that_is_smaller():
    assert applied({"s": {"a": 1, "b": 2}}, {"s": {"a": 3, "b": 4}}) == [
        ["=", "s", {"a": 3, "b": 4}]]
    assert applied({"l": []}, {"l": [{"type": "pass"}, {"type": "play"}]}) == [
        ["=", "l", [{"type": "pass"}, {"type": "play"}]]]


def test_a_value_of_another_type_is_replaced_and_the_root_is_sent_whole():
    assert applied({"v": {"a": 2}}, {"v": [2]}) == [["=", "v", [2]]]
    assert applied({"v": None}, {"v": "x"}) == [["=", "v", "x"]]
    assert applied({"": 2}, {"": 3}) == [["=", "", 3]]  # the key "", not the root
    assert applied([2], {"a": 2}) is None
    assert applied(2, 3) is None
    assert applied({"a": 1, "b": 2}, {"a": 3, "b": 4}) is None  # shorter whole


#: JSON scalars on which Python's ``==`` is JSON's equality (see the module docstring).
SCALARS = st.one_of(
    st.none(), st.booleans(), st.text(alphabet="ab/~ ", max_size=3),
    st.integers(-50, 50).filter(lambda n: n not in (0, 1)),
    st.floats(-5, 5, allow_nan=False).filter(lambda x: not x.is_integer()))
KEYS = st.text(alphabet="ab/~0", max_size=3)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(KEYS, inner, max_size=5)), max_leaves=25)


@st.composite
def edited(draw: st.DrawFn, value: Any) -> Any:
    """Return ``value`` after random edits: kept, replaced, or (inside containers) elements
    removed, inserted and edited in their turn."""
    choice = draw(st.integers(0, 4))
    if choice == 0:
        return value
    if choice == 1 or not isinstance(value, (dict, list)):
        return draw(JSON)
    if isinstance(value, dict):
        out = {key: draw(edited(item)) for key, item in value.items() if draw(st.booleans())}
        out.update(draw(st.dictionaries(KEYS, JSON, max_size=2)))
        return out
    items = [draw(edited(item)) for item in value if draw(st.integers(0, 3))]
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), draw(JSON))
    return items


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    old = draw(JSON)
    return old, draw(st.one_of(JSON, edited(old)))


@settings(max_examples=400, deadline=None)
@given(pairs())
def test_every_diff_applies_to_the_new_document(pair):
    old, new = pair
    applied(old, new)


# ------------------------------------------------------------------ patched update frames


def doc(view: Any, prompt: str | None = None, legal: list[Any] | None = None,
        deadline: float | None = None, clocks: dict[str, float] | None = None,
        version: int = 4, events: list[Any] | None = None) -> dict[str, Any]:
    """A render (``RoomPort.update``'s data) or a socket's document."""
    return {"version": version, "view": view, "prompt": prompt, "legal": legal or [],
            "deadline": deadline, "clocks": clocks or {}, "events": events or []}


def body(old: dict[str, Any], new: dict[str, Any], kept: list[Any] | None = None,
         table: Templates = NO_TEMPLATES) -> tuple[Any, list[Any], Templates]:
    made = patch_body(old, old["legal"] if kept is None else kept, table, new, None)
    assert made is not None
    return json.loads("{" + made[0]), made[1], made[2]


def test_a_patched_update_sends_only_what_changed_with_the_compact_ops():
    played = {"turn": 2, "seat": 0, "card": None}
    rules = {"rules": "a long part of the view that stays unchanged", "sides": ["UP", "DOWN"]}
    old = doc({"turn": 1, "field": [], "hand": ["+1", "-2"], **rules}, "p1",
              [{"type": "play", "card": "+1"}, {"type": "play", "card": "-2"}],
              10.0004, {"0": 10.0004})
    new = doc({"turn": 2, "field": [played], "hand": ["+1"], **rules}, None, [], 20.25,
              {"1": 20.25},
              version=5, events=[{"kind": "played", "data": played}])
    frame, kept, table = body(old, new)
    # version 4 + 1 and the deadline (the one clock) left out; the field entry is the event's
    # data (&); the event's data, then the replace map make templates 0 and 1
    # (clocks and deadlines in ms after the last deadline: 10.0004 s → 10,000 ms)
    assert frame == {"prompt": None, "clocks": {"1": 10250},
                     "patch": [{"turn": 2}, ["&", "field/0", 0], ["-", "hand/1"]],
                     "events": [["played", played]]}
    assert kept is old["legal"]  # kept while the prompt is null
    assert table.ids == {("played", ("turn", "seat", "card")): 0, ("turn",): 1}
    again = doc({"turn": 3, "field": [played, {**played, "turn": 3}], "hand": ["+1"], **rules},
                "p2",
                [{"type": "play", "card": "+1"}], 30.0, {"0": 30.0, "1": 31.0}, version=9,
                events=[{"kind": "played", "data": {**played, "turn": 3}}])
    frame, kept, table = body(new, again, kept, table)
    # the legal list is patched against the kept one (~l/); two clocks: the deadline is sent
    assert frame == {"version": 9, "prompt": "p2", "deadline": 9750,
                     "clocks": {"0": 9750, "1": 10750},
                     "patch": [[1, 3], ["&", "field/1", 0], ["-", "~l/1"]],
                     "events": [[0, 3, 0, None]]}
    assert kept is again["legal"] and len(table.ids) == 2


def test_dict_values_and_legal_lists_use_templates_but_never_for_digit_keys():
    rules = {"rules": "a long part of the view that stays unchanged"}
    old = doc({"s": None, "t": None, **rules}, "p", [{"type": "pass"}])
    new = doc({"s": {"seat": 1, "hp": 2}, "t": {"0": 1}, **rules}, "q",
              [{"type": "play", "card": "+1"}, {"type": "play", "card": "-1"}], version=5)
    frame, _, table = body(old, new)
    assert frame == {"prompt": "q",
                     "legal": [{"type": "play", "card": "+1"}, [0, "play", "-1"]],
                     "patch": [["=", "s", {"seat": 1, "hp": 2}], ["=", "t", {"0": 1}]],
                     "events": []}
    assert list(table.ids) == [("type", "card"), ("seat", "hp")]
    newer = doc({"s": {"seat": 2, "hp": 2}, "t": {"0": 1}, **rules}, "q", new["legal"],
                version=6)
    frame, _, _ = body(new, newer, table=table)
    assert frame == {"patch": [{"s/seat": 2}], "events": []}
    newest = doc({"s": {"seat": 5, "hp": 7}, "t": {"0": 1}, **rules}, "q", new["legal"],
                 version=7)
    assert body(newer, newest, table=table)[0]["patch"] == [["=", "s", 1, 5, 7]]


def test_a_full_update_replaces_a_patch_that_would_resend_the_view_or_a_legal_without_prompt():
    assert patch_body(doc(None), [], NO_TEMPLATES, doc({"a": 1}), None) is None
    assert patch_body(doc({"a": [1]}), [], NO_TEMPLATES, doc([2]), None) is None
    assert patch_body(doc({"a": 1}), [], NO_TEMPLATES, doc({"a": 2}, None, [{"t": 1}]),
                      None) is None


def test_sockets_given_the_same_frames_share_one_encoded_patch():
    room = {"code": "AB"}
    start = doc({"n": 1}, version=0)
    data = doc({"n": 2}, version=1, events=[{"kind": "x", "data": {"n": 2}}])
    fanout = Fanout(room)
    # a and b were welcomed with one document; late with another, equal one
    a, b, late = Stream(start, room), Stream(start, room), Stream(dict(start), room)
    texts = [fanout.patched(stream, data) for stream in (a, b, late)]
    assert texts[0] == texts[1] == texts[2]
    assert len(fanout._patches) == 2  # a and b: one diff; late its own ...
    assert a.templates is b.templates is late.templates  # ... making the same table
    assert json.loads(texts[0]) == {"type": "update", "seq": 1, "patch": [{"n": 2}],
                                    "events": [["x", {"n": 2}]]}
    nxt = doc({"n": 3}, version=2, events=[{"kind": "x", "data": {"n": 3}}])
    fanout = Fanout(room)
    for stream in (a, late):
        assert json.loads(fanout.patched(stream, nxt)) == {
            "type": "update", "seq": 2, "patch": [[1, 3]], "events": [[0, 3]]}
    assert len(fanout._patches) == 1  # from now on one diff for all three
    full = json.loads(fanout.patched(b, nxt, full=True))
    assert "view" in full and b.templates is NO_TEMPLATES
