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
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.realtime.patch import diff, pointer
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
