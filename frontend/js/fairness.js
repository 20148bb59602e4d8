// The match's seed commitment in the room (issue 9 part 5, ARCHITECTURE.md "Fairness").
//
// renderCommitment(room): once the room has a match, shows its public SHA-256 commitment
// (GET /api/matches/{id} -> seed_commitment, hex) under the seats, with a link to the match
// page, where the seed is revealed at the end and the match can be verified against it.
// Fetched once per match; the element is created on first use (#room-commitment).

import { api } from "./api.js";
import { byId, h, replace } from "./dom.js";
import { t } from "./i18n.js";

let shownMatch = null;

function slot() {
  let element = document.getElementById("room-commitment");
  if (!element) {
    element = h("p", { id: "room-commitment", class: "muted small commitment",
      "data-testid": "room-commitment", hidden: true });
    byId("presence").after(element);
  }
  return element;
}

/** Show the commitment of the room's match (hidden while the room has no match). */
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
    replace(element, t("room.commitment"), " ",
      h("code", { class: "hex", text: match.seed_commitment }), " ",
      h("a", { href: `/matches/${encodeURIComponent(match.id)}`, text: t("room.commitment_check") }));
    element.hidden = false;
  }).catch(() => { shownMatch = null; });
}
