"""The outcome reason codes an engine can produce, read from its source (no engine run).

A reason reaches ``Outcome.reason`` through a few kinds of *slot*: the second argument (or
``reason=``) of ``Outcome(...)``, a ``"reason": …`` dict entry, a ``reason=…`` keyword, an
attribute assignment ``x.reason = …``, and the ``reason`` argument of the package's own functions
and classes whose ``reason`` parameter or field is itself put into a slot. A slot's expression is
followed: a string literal is a reason; ``a if c else b`` and ``a or b`` give both sides; a local
variable gives what is assigned to it; a parameter makes the function's callers' arguments slots
too. Reading a stored reason (``state.reason``, ``data["reason"]``) adds nothing: it was put there
through another slot. Anything else (an f-string, a computed code) cannot be read and is reported,
so a new reason never escapes the check that it is translated.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, field
from pathlib import Path

FIELD = "reason"


@dataclass
class _Scan:
    """What one package's source says about reasons."""

    trees: list[ast.Module]
    #: function or class name -> positional index of its ``reason`` parameter or field (None:
    #: keyword-only)
    positions: dict[str, int | None] = field(default_factory=dict)
    #: names of the package's functions (and classes) whose ``reason`` is put into a slot
    live: set[str] = field(default_factory=set)
    reasons: set[str] = field(default_factory=set)
    unreadable: list[str] = field(default_factory=list)


def _positions(tree: ast.Module) -> dict[str, int | None]:
    found: dict[str, int | None] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [a.arg for a in node.args.posonlyargs + node.args.args]
            if names and names[0] in ("self", "cls"):
                names = names[1:]
            if FIELD in names:
                found[node.name] = names.index(FIELD)
            elif FIELD in {a.arg for a in node.args.kwonlyargs}:
                found[node.name] = None
        elif isinstance(node, ast.ClassDef):
            fields = [s.target.id for s in node.body
                      if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
            if FIELD in fields:
                found[node.name] = fields.index(FIELD)
    return found


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


class _Function:
    """The innermost function around a node, to resolve its names."""

    def __init__(self, node: ast.AST | None) -> None:
        self.node = node
        self.params = set()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.params = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}

    def assigned(self, name: str) -> list[ast.expr]:
        if self.node is None:
            return []
        values = []
        for node in ast.walk(self.node):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                values.append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                    and node.target.id == name and node.value is not None:
                values.append(node.value)
        return values


def _resolve(scan: _Scan, expr: ast.expr, where: _Function, seen: set[int]) -> None:
    if id(expr) in seen:
        return
    seen.add(id(expr))
    if isinstance(expr, ast.Constant):
        if isinstance(expr.value, str) and expr.value:
            scan.reasons.add(expr.value)
        elif expr.value not in ("", None):
            scan.unreadable.append(ast.unparse(expr))
    elif isinstance(expr, ast.IfExp):
        _resolve(scan, expr.body, where, seen)
        _resolve(scan, expr.orelse, where, seen)
    elif isinstance(expr, ast.BoolOp):
        for value in expr.values:
            _resolve(scan, value, where, seen)
    elif isinstance(expr, ast.Name):
        if expr.id in where.params:
            if isinstance(where.node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and expr.id == FIELD:
                scan.live.add(where.node.name)
            elif expr.id != FIELD:
                scan.unreadable.append(f"parameter {expr.id} of {getattr(where.node, 'name', '?')}")
        else:
            for value in where.assigned(expr.id):
                _resolve(scan, value, where, seen)
    elif isinstance(expr, (ast.Attribute, ast.Subscript)):
        return  # a stored reason read back: it got there through another slot
    else:
        scan.unreadable.append(ast.unparse(expr))


def _slots(scan: _Scan, node: ast.AST) -> list[ast.expr]:
    """The reason expressions ``node`` itself puts into a slot."""
    found: list[ast.expr] = []
    if isinstance(node, ast.Dict):
        found += [v for k, v in zip(node.keys, node.values)
                  if isinstance(k, ast.Constant) and k.value == FIELD]
    elif isinstance(node, ast.Assign):
        found += [node.value for t in node.targets
                  if isinstance(t, ast.Attribute) and t.attr == FIELD]
    elif isinstance(node, ast.Call):
        name = _callee(node)
        own = name in scan.positions
        if name == "Outcome" or (own and name in scan.live):
            index = 1 if name == "Outcome" else scan.positions[name]
            if index is not None and len(node.args) > index:
                found.append(node.args[index])
        found += [k.value for k in node.keywords
                  if k.arg == FIELD and (not own or name in scan.live or name == "Outcome")]
    return found


def _walk_with_function(tree: ast.Module):
    def visit(node: ast.AST, function: _Function):
        for child in ast.iter_child_nodes(node):
            inner = _Function(child) if isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            yield child, inner
            yield from visit(child, inner)
    yield from visit(tree, _Function(None))


def scan_package(folder: Path) -> _Scan:
    """Scan every ``*.py`` file under ``folder``; return the reasons found and what could not be
    read (``_Scan.reasons``, ``_Scan.unreadable``)."""
    trees = [ast.parse(path.read_text("utf-8")) for path in sorted(folder.rglob("*.py"))]
    scan = _Scan(trees)
    for tree in trees:
        scan.positions.update(_positions(tree))
    while True:  # more functions become live as their reason parameter is found in a slot
        before = (set(scan.live), set(scan.reasons))
        scan.unreadable = []
        for tree in trees:
            for node, function in _walk_with_function(tree):
                for expr in _slots(scan, node):
                    _resolve(scan, expr, function, set())
        if (scan.live, scan.reasons) == before:
            return scan


def outcome_reasons(game: object) -> tuple[set[str], list[str]]:
    """Return (the reason codes ``game``'s engine package can put in an Outcome, the slot
    expressions it could not read). The package is the one that defines ``type(game)``."""
    module = inspect.getmodule(type(game))
    assert module is not None and module.__file__ is not None
    scan = scan_package(Path(module.__file__).parent)
    return scan.reasons, sorted(set(scan.unreadable))
