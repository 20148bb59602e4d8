// Ask the player's name once and create a guest identity (POST /api/players).

import { createPlayer, getPlayer } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { renderIdentity } from "./page.js";
import { toastError } from "./ui.js";

const MAX_NAME = 32;

/** Show the name dialog; resolves to the trimmed name, or null when cancelled. */
function askName() {
  return new Promise((resolve) => {
    const input = h("input", { id: "name-input", name: "name", required: true, maxlength: MAX_NAME,
      autocomplete: "nickname", "data-testid": "name-input" });
    const dialog = h("dialog", { class: "dialog", "aria-labelledby": "name-title" },
      h("form", { method: "dialog" },
        h("h2", { id: "name-title", text: t("identity.ask_title") }),
        h("p", { class: "muted", text: t("identity.ask_body") }),
        h("label", { for: "name-input", text: t("identity.name_label") }), input,
        h("div", { class: "dialog-actions" },
          h("button", { value: "cancel", class: "button", formnovalidate: true,
            text: t("common.cancel") }),
          h("button", { value: "ok", class: "button button-primary", "data-testid": "name-ok",
            text: t("identity.ask_confirm") }))));
    dialog.addEventListener("close", () => {
      const name = input.value.trim();
      resolve(dialog.returnValue === "ok" && name ? name.slice(0, MAX_NAME) : null);
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
  while (true) {
    const name = await askName();
    if (!name) return null;
    try {
      const player = await createPlayer(name);
      renderIdentity();
      return player;
    } catch (error) {
      toastError(error);
    }
  }
}
