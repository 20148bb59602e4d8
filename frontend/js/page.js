// Page bootstrap shared by every page: load translations, translate static markup, fill the
// header's identity badge.

import { getPlayer } from "./api.js";
import { h, replace } from "./dom.js";
import { applyI18n, loadLocale, t } from "./i18n.js";

/** Load the locale, translate [data-i18n] markup, render the header; call first on each page. */
export async function initPage() {
  await loadLocale();
  applyI18n(document);
  renderIdentity();
}

/** Fill #identity with "Playing as <name>" or a hint that a name will be asked. */
export function renderIdentity() {
  const slot = document.getElementById("identity");
  if (!slot) return;
  const player = getPlayer();
  replace(slot, player
    ? [t("identity.playing_as"), " ", h("strong", { "data-testid": "my-name", text: player.name })]
    : h("span", { class: "muted", text: t("identity.guest") }));
}
