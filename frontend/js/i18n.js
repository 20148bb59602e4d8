// Translations: t(key, params) looks `key` up in the loaded dictionary (frontend/i18n/<lang>.json,
// English as the fallback) and fills "{name}" placeholders from `params`.
// When params.n === 1 and "<key>.one" exists, that singular form is used instead.
// A missing key is returned visibly as "⟦key⟧" (and warned once in the console) so it is easy
// to spot on screen and in tests.

const FALLBACK = "en";
const SUPPORTED = ["en"];
let dict = {};
let fallbackDict = {};
let lang = FALLBACK;
const warned = new Set();

/** The language the page uses: localStorage "arena.lang", else the browser's, else English. */
export function pickLanguage() {
  const wanted = [localStorage.getItem("arena.lang"), ...(navigator.languages || [])]
    .filter(Boolean).map((code) => code.toLowerCase().slice(0, 2));
  return wanted.find((code) => SUPPORTED.includes(code)) || FALLBACK;
}

async function fetchDict(code) {
  const response = await fetch(`/static/i18n/${code}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`i18n ${code}: HTTP ${response.status}`);
  return response.json();
}

/** Load the dictionaries for `code` (and the English fallback); call once before any t(). */
export async function loadLocale(code = pickLanguage()) {
  fallbackDict = await fetchDict(FALLBACK);
  dict = code === FALLBACK ? fallbackDict : await fetchDict(code).catch(() => ({}));
  lang = code;
  document.documentElement.lang = code;
}

/** The current language code, e.g. "en". */
export function currentLang() {
  return lang;
}

/** Whether `key` has a translation (in the current language or English). */
export function has(key) {
  return key in dict || key in fallbackDict;
}

/** Translate `key`, replacing "{name}" with params.name; "⟦key⟧" when the key is missing. */
export function t(key, params = {}) {
  const one = params.n === 1 && has(`${key}.one`) ? `${key}.one` : key;
  const text = dict[one] ?? fallbackDict[one];
  if (text === undefined) {
    if (!warned.has(key)) {
      warned.add(key);
      console.warn(`i18n: missing key ${key}`);
    }
    return `⟦${key}⟧`;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** Translate static markup: [data-i18n] text, [data-i18n-placeholder], [data-i18n-aria-label]. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  }
}

/** A game's display title from its catalog entry's `titles` ({en, zh, ja}). */
export function gameTitle(titles, gameId) {
  const fromCatalog = titles && (titles[lang] || titles[FALLBACK]);
  if (fromCatalog) return fromCatalog;
  return has(`game.${gameId}`) ? t(`game.${gameId}`) : gameId;
}
