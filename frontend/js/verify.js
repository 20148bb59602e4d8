// Fair-dealing check of a finished match on the match page.
//
// verifySection(match) -> HTMLElement: what verifying means, in words; a "Verify" button that asks
// the server to replay the match from its revealed seed (GET /api/matches/{id}/verify ->
// {match_id, ok, checks: [str], failure: str|null, actions: int}) and shows the verdict with the
// checks that passed (English lines from the verifier, under a disclosure); a link to download
// the match to check it elsewhere, and one to the page that tells how (/rules/fair_play).

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

function reportView(report) {
  return [
    h("p", { class: report.ok ? "verify-ok" : "error", "data-testid": "verify-verdict",
      text: report.ok ? t("verify.ok", { n: report.actions })
        : t("verify.failed", { reason: report.failure }) }),
    h("details", { class: "small" }, h("summary", { text: t("verify.details") }),
      h("ul", { class: "verify-checks", "data-testid": "verify-checks", lang: "en" },
        report.checks.map((line) => h("li", { text: line })))),
  ];
}

async function runCheck(match, button, result) {
  button.disabled = true;
  replace(result, h("p", { class: "muted", text: t("verify.running") }));
  try {
    replace(result, reportView(await api(`/api/matches/${encodeURIComponent(match.id)}/verify`)));
  } catch (error) {
    replace(result, h("p", { class: "error", text: t(`error.${error.code}`) }));
  } finally {
    button.disabled = false;
  }
}

/** The "verify this match" panel of a finished match (one whose seed is revealed). */
export function verifySection(match) {
  const result = h("div", { "data-testid": "verify-result", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "button button-primary",
    "data-testid": "verify-button", text: t("verify.button") });
  button.addEventListener("click", () => runCheck(match, button, result));
  return h("section", { class: "panel verify", "data-testid": "verify" },
    h("h2", { text: t("verify.title") }),
    h("p", { class: "muted small", text: t("verify.help") }),
    h("p", { class: "verify-actions" }, button,
      h("a", { href: `/api/matches/${encodeURIComponent(match.id)}`, download: `match-${match.id}.json`,
        "data-testid": "verify-download", text: t("verify.download") }),
      h("a", { href: "/rules/fair_play", "data-testid": "verify-how", text: t("verify.how") })),
    result);
}
