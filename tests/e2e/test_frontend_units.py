"""The frontend's pure helpers, run in Chromium as the pages load them (ES modules from /static).

Expected strings are written from en.json and the rulings' card list, not read from the code.
"""

from __future__ import annotations

import pytest

from tests.e2e.browser import evaluate_on

pytestmark = pytest.mark.browser

SCRIPT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLocale("en");
  const cards = await import("/static/games/rc_cards.js");
  const t = i18n.t;
  return {
    missing: t("no.such_key"),
    one: t("rc.cards_in_hand", { n: 1 }),
    many: t("rc.cards_in_hand", { n: 3 }),
    params: t("rc.leads", { side: "▲ UP", n: 2 }),
    unfilled: t("rc.leads", {}),
    labels: ["+1", "-3", "DOUBLE_BUBBLE", "FLIP_TRAP", "SILENCE_SIREN", "MIRROR_PILLAR",
             "ECHO_FLOW", "REVERSE_CURSE"].map((code) => cards.cardLabel(code, t)),
    signed: [3, 0, -2].map(cards.signed),
    steps: [
      { index: 4, card: "SILENCE_SIREN", identity: "SILENCE_SIREN", silenced: false, effect: "silence", total: 0 },
      { index: 3, card: "DOUBLE_BUBBLE", identity: "DOUBLE_BUBBLE", silenced: true, effect: "silenced", total: 0 },
      { index: 2, card: "MIRROR_PILLAR", identity: "DOUBLE_BUBBLE", silenced: false, effect: "x2", total: 0 },
      { index: 1, card: "+2", identity: "+2", silenced: false, effect: "+2", total: 2 },
      { index: 12, card: "MIRROR_PILLAR", identity: null, silenced: false, effect: "nothing", total: 0 },
      { index: 5, card: "-1", identity: "-1", silenced: false, effect: "-4", total: -4 },
    ].map((step) => [cards.stepCardText(step, t), cards.stepText(step, t)]),
  };
}"""


def test_translations_card_labels_and_step_sentences(live_server, chromium_path):
    got = evaluate_on(chromium_path, f"{live_server}/history", SCRIPT)
    assert got["missing"] == "⟦no.such_key⟧"
    assert (got["one"], got["many"]) == ("1 card", "3 cards")
    assert got["params"] == "▲ UP leads by 2"
    assert got["unfilled"] == "{side} leads by {n}"
    assert got["labels"] == ["+1", "−3", "×2 Double Bubble", "×−1 Flip Trap", "⊘ Silence Siren",
                             "≡ Mirror Pillar", "↑↑ Echo Flow", "⇄ Reverse Curse"]
    assert got["signed"] == ["+3", "0", "−2"]
    # Rulings example [+2, MIRROR_PILLAR, DOUBLE_BUBBLE, SILENCE_SIREN] → 2, top card first,
    # then a MIRROR on top (copies nothing) and a −1 under ECHO → MIRROR (×4) adding −4.
    assert got["steps"] == [
        ["⊘ Silence Siren", "silences the next card"],
        ["×2 Double Bubble", "silenced: no effect"],
        ["≡ Mirror Pillar (as ×2 Double Bubble)", "doubles the total"],
        ["+2", "adds +2"],
        ["≡ Mirror Pillar (as nothing)", "no effect"],
        ["−1", "adds −4"],
    ]
