// The site header every page shares (skip link, brand, navigation, identity slot), defined once
// here instead of being copied into each HTML file. A page holds only an empty
// `<header data-site-header></header>` placeholder before its `<main id="main">`.

import { h } from "./dom.js";

/** Navigation entries: [href, i18n key, data-testid or null]; order is the on-screen order. */
const NAV_LINKS = [
  ["/", "nav.lobby", null],
  ["/history", "nav.history", null],
  ["/ladders", "nav.ladders", "nav-ladders"],
  ["/rules", "nav.rules", "nav-rules"],
];

/**
 * Fill the page's `[data-site-header]` placeholder and put the skip link (to `#main`) before it,
 * so it stays the first focusable element. Texts are `data-i18n` keys that `applyI18n` fills.
 * Idempotent: a header already rendered is left as it is. Returns the header element, or null
 * when the page has no placeholder.
 */
export function renderHeader() {
  const header = document.querySelector("[data-site-header]");
  if (!header || header.childElementCount) return header;
  header.classList.add("site-header");
  header.before(h("a", { class: "skip-link", href: "#main", "data-i18n": "nav.skip" }));
  header.append(
    h("a", { class: "brand", href: "/", "data-i18n": "app.name" }),
    h("nav", { class: "site-nav", "data-i18n-aria-label": "nav.label" },
      NAV_LINKS.map(([href, key, testid]) => h("a", { href, "data-i18n": key, "data-testid": testid }))),
    h("div", { id: "identity", class: "identity" }));
  return header;
}
