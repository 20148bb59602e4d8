// Lasting identity: the header's "Account" dialog.
// - Save this guest profile with a password (POST /api/players/{id}/claim {password, name?}).
// - Log in to a saved profile from this browser (POST /api/login {name, password}) — the new
//   token replaces the stored identity, and the page reloads as that player.
// - Log out of a saved profile (this browser forgets it; log in again with the password).

import { api, clearPlayer, getPlayer, setPlayer } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { nameProblem, refusalText } from "./identity.js";
import { toast } from "./ui.js";

function field(id, label, attrs = {}) {
  const input = h("input", { id, name: id, required: true, "data-testid": id, ...attrs });
  return [h("label", { for: id, text: label }), input];
}

function errorLine() {
  return h("p", { class: "error", role: "alert", "data-testid": "account-error", hidden: true });
}

/** The log-in form's own words for a refusal code (an i18n key): its 429 is about log-ins. */
const LOGIN_CODES = { rate_limited: "account.too_many_logins" };

function showError(line, text) {
  line.hidden = false;
  line.textContent = text;
}

/** The server's password rule: 8 to 128 characters (code points, as Python counts). */
export const PASSWORD_LENGTH = [8, 128];

/** Return the i18n key of why `password` cannot be a password, or null. */
export function passwordProblem(password) {
  const length = [...password].length;
  return length < PASSWORD_LENGTH[0] || length > PASSWORD_LENGTH[1] ? "error.bad_password" : null;
}

/** Check a form's name and password the way the server will, in the page's language (the
 * forms are `novalidate`: the browser's own messages are in the browser's language): show the
 * first problem on `line` and return true; false when the form may be sent (the last
 * refusal shown is cleared). */
function refuseForm(nameInput, passInput, line) {
  line.hidden = true;
  const problem = nameProblem(nameInput.value) ?? passwordProblem(passInput.value);
  if (problem) showError(line, t(problem));
  return problem !== null;
}

function claimForm(player, done) {
  const [nameLabel, nameInput] = field("claim-name", t("account.name"),
    { value: player.name, maxlength: 32, autocomplete: "username" });
  const [passLabel, passInput] = field("claim-password", t("account.password"),
    { type: "password", minlength: 8, maxlength: 128, autocomplete: "new-password" });
  const error = errorLine();
  const form = h("form", { class: "account-form", "data-testid": "claim-form", novalidate: true },
    h("h3", { text: t("account.claim_title") }),
    h("p", { class: "muted small", text: t("account.claim_help") }),
    nameLabel, nameInput, passLabel, passInput, error,
    h("button", { type: "submit", class: "button button-primary", "data-testid": "claim-submit",
      text: t("account.claim") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (refuseForm(nameInput, passInput, error)) return;
    try {
      const saved = await api(`/api/players/${player.id}/claim`, { method: "POST", auth: true,
        body: { password: passInput.value, name: nameInput.value.trim() } });
      setPlayer({ ...player, name: saved.name });
      toast(t("account.claimed"));
      done();
    } catch (err) {
      showError(error, refusalText(err));
    }
  });
  return form;
}

function loginForm(done) {
  const [nameLabel, nameInput] = field("login-name", t("account.name"), { maxlength: 32, autocomplete: "username" });
  const [passLabel, passInput] = field("login-password", t("account.password"),
    { type: "password", maxlength: 128, autocomplete: "current-password" });
  const error = errorLine();
  const form = h("form", { class: "account-form", "data-testid": "login-form", novalidate: true },
    h("h3", { text: t("account.login_title") }),
    h("p", { class: "muted small", text: t("account.login_help") }),
    nameLabel, nameInput, passLabel, passInput, error,
    h("button", { type: "submit", class: "button", "data-testid": "login-submit", text: t("account.login") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (refuseForm(nameInput, passInput, error)) return;
    try {
      setPlayer(await api("/api/login", { method: "POST",
        body: { name: nameInput.value.trim(), password: passInput.value } }));
      done(true);
    } catch (err) {
      showError(error, refusalText(err, LOGIN_CODES));
    }
  });
  return form;
}

async function accountBody(close) {
  const player = getPlayer();
  const parts = [];
  if (player) {
    const me = await api("/api/account", { auth: true }).catch(() => null);
    if (me && me.claimed) {
      parts.push(h("p", { "data-testid": "account-saved", text: t("account.saved", { name: me.name }) }),
        h("button", { type: "button", class: "button", "data-testid": "logout", text: t("account.logout"),
          onclick: () => { clearPlayer(); window.location.reload(); } }));
    } else if (me) {
      parts.push(claimForm(player, () => close(true)));
    }
  }
  parts.push(loginForm((reload) => close(reload)));
  return parts;
}

/** Open the account dialog; the page reloads after a log-in, a log-out or a saved profile. */
export async function openAccountDialog() {
  const body = h("div", { class: "account-body" });
  const dialog = h("dialog", { class: "dialog account-dialog", "aria-labelledby": "account-title",
    "data-testid": "account-dialog" },
    h("h2", { id: "account-title", text: t("account.title") }), body,
    h("div", { class: "dialog-actions" },
      h("button", { type: "button", class: "button", text: t("account.close"),
        onclick: () => dialog.close() })));
  const close = (reload) => {
    dialog.close();
    if (reload) window.location.reload();
  };
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  replace(body, await accountBody(close));
}

/** The header's "Account" button. */
export function accountButton() {
  return h("button", { type: "button", class: "button button-small account-button",
    "data-testid": "account-button", text: t("account.button"), onclick: openAccountDialog });
}
