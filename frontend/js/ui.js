// Small shared UI pieces: toasts, a confirm dialog, live countdowns.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Show a short message at the bottom of the screen; kind: "info" | "error". */
export function toast(text, kind = "info") {
  let region = document.getElementById("toasts");
  if (!region) {
    region = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(region);
  }
  const item = h("div", { class: ["toast", `toast-${kind}`], "data-testid": "toast" },
    kind === "error" ? h("strong", { text: t("toast.error_prefix") }) : null, text);  // the prefix
  // ends with its language's own gap: "Error: …", "错误：…" (a full-width colon, no space)
  region.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/** Show an error from an ApiError or a websocket error frame: the translated code, or the
 * i18n key `codes[code]` when the caller words that code its own way. */
export function toastError(error, codes = {}) {
  toast(t(codes[error.code] || `error.${error.code || "unknown"}`), "error");
}

/**
 * Ask a yes/no question in a modal <dialog>; resolves true when confirmed.
 * options: {title, body, confirm, cancel} (already translated strings).
 */
export function confirmDialog({ title, body, confirm, cancel }) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "dialog", "aria-labelledby": "confirm-title" },
      h("form", { method: "dialog" },
        h("h2", { id: "confirm-title", text: title }),
        body ? h("p", { text: body }) : null,
        h("div", { class: "dialog-actions" },
          h("button", { value: "cancel", class: "button", text: cancel || t("common.cancel") }),
          h("button", { value: "ok", class: "button button-danger", "data-testid": "confirm-ok",
            text: confirm || t("common.ok") }))));
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Seconds left until `deadline` (unix seconds), never negative; null without a deadline. */
export function secondsLeft(deadline) {
  if (deadline === null || deadline === undefined) return null;
  return Math.max(0, Math.ceil(deadline - Date.now() / 1000));
}

function clockText(seconds) {
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return t("clock.left", { time: `${m}:${s}` });
}

/** A <span> showing the time left until `deadline`; kept current by startClockTicker(). */
export function countdown(deadline) {
  const span = h("span", { class: "clock", "data-deadline": deadline ?? "" });
  paintClock(span);
  return span;
}

function paintClock(span) {
  const seconds = secondsLeft(span.dataset.deadline === "" ? null : Number(span.dataset.deadline));
  span.textContent = seconds === null ? "" : clockText(seconds);
  span.classList.toggle("clock-low", seconds !== null && seconds <= 10);
}

/** Update every countdown on the page four times a second. */
export function startClockTicker() {
  setInterval(() => document.querySelectorAll("[data-deadline]").forEach(paintClock), 250);
}
