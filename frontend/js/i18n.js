// Translations: t(key, params) looks `key` up in the loaded dictionary (frontend/i18n/<lang>.json,
// English as the fallback) and fills "{name}" placeholders from `params`.
// When params.n === 1 and "<key>.one" exists, that singular form is used instead.
// A missing key is returned visibly as "⟦key⟧" (and warned once in the console) so it is easy
// to spot on screen and in tests. Languages: English, 简体中文 and 日本語 (the languages of the
// games' original rule books); tests/e2e/test_i18n_static.py keeps the three files in step.

const FALLBACK = "en";
/** The languages the site speaks, with their own names (shown untranslated in the switcher). */
export const LANGUAGES = { en: "English", zh: "简体中文", ja: "日本語" };
const SUPPORTED = Object.keys(LANGUAGES);
/** The `lang` attribute of each language: "zh-Hans" so CJK text gets Simplified Chinese glyphs
 * (and "ja" Japanese ones) — the same characters are drawn differently in the two. */
export const HTML_LANG = { en: "en", zh: "zh-Hans", ja: "ja" };
const STORAGE_KEY = "arena.lang";
let dict = {};
let fallbackDict = {};
let lang = FALLBACK;
const warned = new Set();

/** The site language of one browser language tag: "zh-CN"/"zh-TW"/"zh" -> "zh", "ja-JP" -> "ja", else null. */
export function languageOf(tag) {
  const code = String(tag || "").toLowerCase().split("-")[0];
  return SUPPORTED.includes(code) ? code : null;
}

/** The language the page uses: the remembered choice (localStorage "arena.lang"), else the first
 * of the browser's languages the site speaks (navigator.languages), else English. */
export function pickLanguage() {
  const wanted = [localStorage.getItem(STORAGE_KEY), ...(navigator.languages || [navigator.language])];
  return wanted.map(languageOf).find(Boolean) || FALLBACK;
}

/** Remember `code` as this browser's language (the switcher); false for an unknown code. */
export function rememberLanguage(code) {
  if (!SUPPORTED.includes(code)) return false;
  localStorage.setItem(STORAGE_KEY, code);
  return true;
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
  document.documentElement.lang = HTML_LANG[code] || code;
}

/** The current language code, e.g. "en". */
export function currentLang() {
  return lang;
}

/** An Intl.DateTimeFormat in the page's language (not the browser's): a zh page shows
 * "06:33:40", never "6:33:40 AM". `options` as for Intl.DateTimeFormat. */
export function dateFormat(options) {
  return new Intl.DateTimeFormat(HTML_LANG[lang] || lang, options);
}

/** A unix-seconds number or ISO string as a Date (null when it is neither). */
function toDate(value) {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === "number" ? value * 1000 : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A timestamp (unix seconds, ISO string or Date) as a short date and time in the page's
 * language; "" for none, the value itself when it is not a date. */
export function formatTime(value) {
  const date = toDate(value);
  if (!date) return value === null || value === undefined ? "" : String(value);
  return dateFormat({ dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** A timestamp as a time of day in the page's language (`seconds`: with seconds); "" if none. */
export function formatClock(value, seconds = false) {
  const date = toDate(value);
  if (!date) return "";
  return dateFormat({ hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}) })
    .format(date);
}

/** Whether `key` has a translation (in the current language or English). */
export function has(key) {
  return key in dict || key in fallbackDict;
}

/** Translate `key`, replacing "{name}" with params.name; "⟦key⟧" when the key is missing. */
export function t(key, params = {}) {
  const one = Number(params.n) === 1 && has(`${key}.one`) ? `${key}.one` : key;
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

/** "label: value" with the page's own separator ("Rules: Full" in English, "规则：全场" in Chinese,
 * "レギュレーション：フル" in Japanese: key common.label); `tr` the t to use (a table's ctx.t). */
export function labelText(label, value, tr = t) {
  return tr("common.label", { label, value });
}

/** The label before a value drawn as an element (a name in bold, a hash in code): "Label: " in
 * English, "标签：" in Chinese and Japanese (key common.label with an empty value). */
export function labelPrefix(label, tr = t) {
  return tr("common.label", { label, value: "" });
}

/** A list in the page's words: "a, b" in English, "a、b" in Chinese and Japanese (key
 * common.list_sep); `tr` the t to use (a table's ctx.t). */
export function listText(items, tr = t) {
  return items.join(tr("common.list_sep"));
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
