"""Static checks (no browser) that the frontend keeps to the site's Content-Security-Policy
(``script-src 'self'``, ``style-src 'self'``, no ``unsafe-inline``/``unsafe-eval``:
docs/security.md "Browser defences"): the browser tests would meet these only on the screens
they reach, this scan reads every page and module.

- a page has no inline script, no ``<style>`` element, no ``style=`` or ``on…=`` attribute and no
  ``javascript:`` URL;
- a module sets no ``style`` attribute (not through ``setAttribute``, ``cssText`` or a ``style:``
  key of the DOM builders' attributes: styles go through classes or ``el.style.setProperty``),
  makes no ``<script>``/``<style>`` element and runs no string as code (``eval``,
  ``new Function``, ``setTimeout``/``setInterval`` with a string).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.test_i18n_static import COMMENT

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
PAGES = sorted(FRONTEND.glob("*.html"))
MODULES = sorted(FRONTEND.rglob("*.js"))

PAGE_RULES = {
    "inline script": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "style element": re.compile(r"<style\b", re.IGNORECASE),
    "style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "event handler attribute": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}
MODULE_RULES = {
    "style attribute": re.compile(
        r"""setAttribute\(\s*["']style["']|\.cssText\b|[{,]\s*["']?style["']?\s*:"""),
    "script or style element": re.compile(
        r"""createElement(?:NS)?\([^)]*["'](?:script|style)["']"""),
    "string run as code": re.compile(
        r"""\beval\s*\(|\bnew\s+Function\s*\(|\bset(?:Timeout|Interval)\s*\(\s*["'`]"""),
}


def offences(paths: list[Path], rules: dict[str, re.Pattern]) -> list[str]:
    """Return ``"<file>: <rule>"`` for each rule a file (comments left out for modules) breaks."""
    found = []
    for path in paths:
        text = path.read_text("utf-8")
        if path.suffix == ".js":
            text = COMMENT.sub("", text)
        found += [f"{path}: {what}" for what, rule in rules.items()
                  if rule.search(text)]
    return found


def test_pages_have_no_inline_code_or_style():
    assert {"index.html", "room.html", "match.html", "replay.html", "rules.html", "history.html",
            "ladders.html", "player.html", "not_found.html"} <= {page.name for page in PAGES}
    assert offences(PAGES, PAGE_RULES) == []


def test_modules_set_no_style_attribute_and_run_no_string_as_code():
    assert {"js/dom.js", "js/room.js", "games/grid_reversal_board.js", "games/rc_stairs_chart.js",
            "games/zipai.js"} <= {module.relative_to(FRONTEND).as_posix() for module in MODULES}
    assert offences(MODULES, MODULE_RULES) == []


def test_the_rules_catch_what_the_policy_blocks(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<script>x()</script><style>p{}</style><p style="x" onclick="y()">'
                    '<a href="javascript:z()">z</a><script type="module" src="/ok.js"></script>')
    module = tmp_path / "bad.js"
    module.write_text('h("div", { class: "a", style: `--x: 1` });\nel.setAttribute("style", "");\n'
                      'document.createElement("script");\nsetTimeout("go()", 1);\neval(s);\n')
    assert [line.split(": ", 1)[1] for line in offences([page], PAGE_RULES)] == list(PAGE_RULES)
    assert [line.split(": ", 1)[1] for line in offences([module], MODULE_RULES)] == list(
        MODULE_RULES)
