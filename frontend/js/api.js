// REST client (docs/protocol.md) and the stored player identity.
//
// Identity: localStorage["arena.player"] = {"id": int, "name": str, "token": str}.
// api(path, {method, body, auth}) -> parsed JSON (null for 204); throws ApiError on 4xx/5xx
// with the server's {"detail": {"code", "message"}} (422 validation errors get code
// "validation_error", the message's sentence without its field in serverMessage and the field
// in `field`; network failures get code "network_error").

const PLAYER_KEY = "arena.player";

export class ApiError extends Error {
  constructor(status, code, message, field = "", reason = "") {
    super(message || code);
    this.status = status;
    this.code = code;
    /** The server's own message ("" when it sent none). */
    this.serverMessage = message || "";
    /** The field a 422 `validation_error` names ("body.password"), "" for any other error. */
    this.field = field;
    /** The rule a 422 `validation_error` refused ("bot_name", "string_too_short"), else "". */
    this.reason = reason;
  }
}

/** The stored player {id, name, token}, or null when none (or the stored value is corrupt). */
export function getPlayer() {
  try {
    const player = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    const valid = player && Number.isInteger(player.id) && typeof player.name === "string"
      && typeof player.token === "string";
    return valid ? player : null;
  } catch {
    return null;
  }
}

/** Store the player identity returned by POST /api/players. */
export function setPlayer(player) {
  localStorage.setItem(PLAYER_KEY, JSON.stringify(
    { id: player.id, name: player.name, token: player.token }));
}

/** Forget the stored identity (e.g. after the server refused the token with 401). */
export function clearPlayer() {
  localStorage.removeItem(PLAYER_KEY);
}

function errorFrom(status, body) {
  const detail = body && body.detail;
  if (status === 422 && detail && typeof detail === "object" && detail.code === "validation_error") {
    // {message: "body.name: That name belongs…", field: "body.name", reason: "bot_name"}:
    // the sentence without its field, the field, the refused rule's code.
    const message = String(detail.message || "");
    const field = String(detail.field || "");
    const sentence = field && message.startsWith(`${field}: `) ? message.slice(field.length + 2)
      : message;
    return new ApiError(status, "validation_error", sentence, field, String(detail.reason || ""));
  }
  if (detail && typeof detail === "object" && !Array.isArray(detail) && detail.code) {
    return new ApiError(status, detail.code, detail.message);
  }
  return new ApiError(status, `http_${status}`, typeof detail === "string" ? detail : "");
}

/** Call the REST API; see the module comment for the contract. */
export async function api(path, { method = "GET", body, auth = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const player = getPlayer();
  if (auth && player) headers.Authorization = `Bearer ${player.token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network_error", String(error));
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && auth) clearPlayer();
    throw errorFrom(response.status, data);
  }
  return data;
}

/** The waits (ms) before each new try of a request the server could not answer (`withRetries`). */
export const RETRY_DELAYS_MS = [1000, 3000];

function pause(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

/** Whether `error` says the server could not answer (a network error or a 5xx answer): the same
 * request may well work a moment later. A 4xx answer is the server's word: asking again changes
 * nothing. */
export function worthRetrying(error) {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

/** Return what `call()` (an `api` call) resolves to, calling it again after each of `delays`
 * ms in turn while it fails in a way `worthRetrying`; any other error, or the last one, is
 * thrown. `sleep(ms)` waits (a test gives its own). */
export async function withRetries(call, { delays = RETRY_DELAYS_MS, sleep = pause } = {}) {
  for (let tried = 0; ; tried += 1) {
    try {
      return await call();
    } catch (error) {
      if (tried >= delays.length || !worthRetrying(error)) throw error;
      await sleep(delays[tried]);
    }
  }
}

/** POST /api/players {name} -> {id, name, token}; stores and returns the new identity. */
export async function createPlayer(name) {
  const player = await api("/api/players", { method: "POST", body: { name } });
  setPlayer(player);
  return player;
}

let catalog = null;

/** GET /api/games (cached for the page's life): [{id, titles, min_players, ..., options}]. */
export function getGames() {
  catalog = catalog || api("/api/games").catch((error) => {
    catalog = null;
    throw error;
  });
  return catalog;
}

/** Build a query string from an object, skipping null/undefined/"" values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
