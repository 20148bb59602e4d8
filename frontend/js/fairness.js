// The room's "Fair deal" disclosure (ARCHITECTURE.md "Fairness", docs/rules/fair_play.*.md).
//
// renderCommitment(room): once the room has a match, a collapsed "Fair deal" section under the
// seats: what the fingerprint is for, in words, then the seed's SHA-256 commitment
// (GET /api/matches/{id} -> seed_commitment, hex), a link to the match page (where the seed is
// revealed at the end and the match can be verified) and one to "how to check it". Fetched once
// per match; the element is created on first use (#room-commitment).

import { api } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { labelPrefix, t } from "./i18n.js";

let shownMatch = null;

function slot() {
  let element = document.getElementById("room-commitment");
  if (!element) {
    element = h("details", { id: "room-commitment", class: "small commitment", "data-testid": "room-commitment",
      hidden: true });
    byId("presence").after(element);
  }
  return element;
}

/** Show the "Fair deal" disclosure of the room's match (hidden while the room has no match). */
export function renderCommitment(room) {
  const element = slot();
  if (!room.match_id) {
    element.hidden = true;
    shownMatch = null;
    return;
  }
  if (shownMatch === room.match_id) return;
  shownMatch = room.match_id;
  api(`/api/matches/${encodeURIComponent(room.match_id)}`).then((match) => {
    if (shownMatch !== match.id) return;
    replace(element,
      h("summary", { "data-testid": "fair-deal", text: t("room.fair_deal") }),
      h("p", { class: "muted", text: t("room.fair_deal_help") }),
      h("p", {}, labelPrefix(t("room.commitment")), h("code", { class: "hex", text: match.seed_commitment })),
      h("p", {}, h("a", { href: `/matches/${encodeURIComponent(match.id)}`, text: t("room.commitment_check") }),
        " · ", h("a", { href: "/rules/fair_play", target: "_blank", rel: "noopener", text: t("verify.how") })));
    element.hidden = false;
  }).catch(() => { shownMatch = null; });
}
