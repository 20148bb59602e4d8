// Page bootstrap shared by every page: load translations, translate static markup, fill the
// header's identity badge and its language switcher.

import { getPlayer } from "./api.js";
import { accountButton } from "./account.js";
import { h, replace } from "./dom.js";
import { renderHeader } from "./header.js";
import { HTML_LANG, LANGUAGES, applyI18n, currentLang, labelPrefix, loadLocale, rememberLanguage, t } from "./i18n.js";

/** Render the shared header (before anything is awaited, so it never arrives late), load the
 * locale, translate [data-i18n] markup, fill the identity badge; call first on each page. */
/** Name the tab: "<parts, joined by ·> · Reversal Arena" (a missing thing's page is named by its
 * message, "This match does not exist. · Reversal Arena"). */
export function setTitle(...parts) {
  document.title = [...parts, t("app.name")].join(" · ");
}

export async function initPage() {
  renderHeader();
  await loadLocale();
  applyI18n(document);
  renderIdentity();
  renderLanguageSwitcher();
}

/** Fill #identity with "Player: <name>" or a hint that a name will be asked. */
export function renderIdentity() {
  const slot = document.getElementById("identity");
  if (!slot) return;
  const player = getPlayer();
  replace(slot, player
    ? h("span", {}, labelPrefix(t("identity.playing_as")), h("strong", { "data-testid": "my-name", text: player.name }))
    : h("span", { class: "muted", text: t("identity.guest") }));
  slot.append(" ", accountButton());  // save the profile / log in elsewhere
}

/** Put the language menu (English / 简体中文 / 日本語, each in its own script) in the header;
 * a choice is remembered in this browser and the page reloads in that language. */
export function renderLanguageSwitcher() {
  const header = document.querySelector(".site-header");
  if (!header || header.querySelector(".lang-switch")) return;
  const select = h("select", { id: "lang-select", "data-testid": "lang-select" },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", {
      value: code, lang: HTML_LANG[code], selected: code === currentLang(), text: name })));
  select.addEventListener("change", () => {
    if (rememberLanguage(select.value)) window.location.reload();
  });
  header.append(h("div", { class: "lang-switch" },
    h("label", { for: "lang-select", class: "lang-label" },
      t("lang.label")), select));
}
