// Ask the player's name once and create a guest identity (POST /api/players).

import { createPlayer, getPlayer } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { renderIdentity } from "./page.js";

const MAX_NAME = 32;
/** Control characters (Unicode Cc), which the server refuses in a name (app/api/player_name.py). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why `raw` cannot be a player name, as an i18n key, or null when it can: the server's rule
 * (app/api/player_name.py) — no control character, and something visible once the surrounding
 * spaces are stripped.
 */
export function nameProblem(raw) {
  if (CONTROL.test(raw)) return "identity.name_control";
  if (!raw.trim()) return "identity.name_blank";
  return null;
}

/** The name rule's refusals by their `reason` code (docs/protocol.md "Identity",
 * app/api/player_name.py), as i18n keys. */
const NAME_REFUSALS = {
  control_character: "identity.name_control",
  invisible_character: "identity.name_invisible",
  name_normal_form: "identity.name_normal_form",
  blank_name: "identity.name_blank",
  bot_name: "identity.name_bot",
};

/** The i18n key of a known 422 `validation_error` (an ApiError), else null: a password's (all
 * a form can get wrong is its length, 8–128 characters) or one of the name rule's. */
function knownValidation(error) {
  if (error.field === "body.password") return "error.bad_password";
  if (error.field === "body.name") return NAME_REFUSALS[error.reason] || null;
  return null;
}

/**
 * The server's refusal (an ApiError) as text for a form, in the page's language: a known
 * validation error's text (`knownValidation`: "That name belongs to the computer players."),
 * the server's own sentence for another one (English), else the text of the error's code —
 * `codes[code]` when the form words it its own way (an i18n key), `error.<code>` otherwise.
 */
export function refusalText(error, codes = {}) {
  if (error.code === "validation_error") {
    const key = knownValidation(error);
    if (key) return t(key);
    if (error.serverMessage) return error.serverMessage;
  }
  return t(codes[error.code] || `error.${error.code || "unknown"}`);
}

/**
 * Show the name dialog until a player is created (resolves to it) or the dialog is cancelled
 * (resolves to null). A name the server would refuse — blank, control characters — and the
 * server's own refusal are shown in the dialog, which stays open.
 */
function askAndCreate() {
  return new Promise((resolve) => {
    const input = h("input", { id: "name-input", name: "name", maxlength: MAX_NAME,
      autocomplete: "nickname", "data-testid": "name-input", "aria-describedby": "name-error" });
    const problem = h("p", { id: "name-error", class: "error small", "data-testid": "name-error",
      role: "alert", hidden: true });
    const ok = h("button", { value: "ok", class: "button button-primary", "data-testid": "name-ok",
      text: t("identity.ask_confirm") });
    const form = h("form", { method: "dialog" },
      h("h2", { id: "name-title", text: t("identity.ask_title") }),
      h("p", { class: "muted", text: t("identity.ask_body") }),
      h("label", { for: "name-input", text: t("identity.name_label") }), input, problem,
      h("div", { class: "dialog-actions" },
        h("button", { value: "cancel", class: "button", formnovalidate: true, text: t("common.cancel") }),
        ok));
    const dialog = h("dialog", { class: "dialog", "aria-labelledby": "name-title" }, form);
    let player = null;
    const show = (text) => {
      problem.textContent = text;
      problem.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
    };
    // Enter in the field means "Continue" (the form's default button would be Cancel).
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing) return;
      event.preventDefault();
      ok.click();
    });
    form.addEventListener("submit", async (event) => {
      if (!event.submitter || event.submitter.value !== "ok") return;  // Cancel closes
      event.preventDefault();
      const key = nameProblem(input.value);
      if (key) return show(t(key));
      ok.disabled = true;
      try {
        player = await createPlayer(input.value.trim().slice(0, MAX_NAME));
        dialog.close("ok");
      } catch (error) {
        show(refusalText(error, { rate_limited: "identity.too_many_players" }));
      } finally {
        ok.disabled = false;
      }
    });
    dialog.addEventListener("close", () => {
      resolve(player);
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** The stored player, or a new guest after asking the name; null when the player cancels. */
export async function ensurePlayer() {
  const existing = getPlayer();
  if (existing) return existing;
  const player = await askAndCreate();
  if (player) renderIdentity();
  return player;
}
