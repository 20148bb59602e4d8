// Replay page (/replay/{match_id}?step=k&viewer=s): steps through a finished match action by
// action (first / previous / next / last, autoplay, a slider, ←/→/Home/End keys), drawing each
// step's view with the game's own table module (no actions offered). The view is the
// spectator's, or — the match being over, nothing is secret any more — one player's, hand
// included (the "viewer" select). The URL always names the step shown, so it can be shared.
// A link whose viewer is no seat of the match (`?viewer=7` for a match of two) shows the
// spectator's replay with a notice saying so; the select lists the seats to choose from.
// Data: GET /api/matches/{id}/replay[?viewer=s] (docs/protocol.md "Replays"). Each step names a
// seat by who played it then: a bot that took a seat over mid-match from its `from_step` on, the
// player it replaced before.

import { byId, h, replace } from "./dom.js";
import { labelText, t } from "./i18n.js";
import { resultText } from "./outcome.js";
import { matchSeatName, occupantAt, occupantsOf, seatName } from "./bots.js";
import { initPage, setTitle } from "./page.js";
import { toast, toastError } from "./ui.js";
import { renderLog } from "./move_log.js";
import { fetchReplay, seatsAt, stepBatches, stepContext, stepLines } from "./replay_steps.js";

const AUTOPLAY_MS = 1000;
const matchId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
const replay = { data: null, step: 0, viewer: null, module: null, timer: null, forward: false, lines: [],
  batches: [] };

/** The step and viewer asked for in the page URL (the step is clamped later): `viewer` is a
 * seat number (one or two digits: no match has a hundred seats), null for the spectator's
 * (none given), or the text given when it is no seat number (`-1`, `x`, ` 1`, `1e23`). */
function readUrl() {
  const params = new URLSearchParams(window.location.search);
  const step = Number.parseInt(params.get("step") || "0", 10);
  const viewer = params.get("viewer");
  return { step: Number.isFinite(step) ? step : 0,
    viewer: viewer === null || viewer === "" ? null : /^\d{1,2}$/.test(viewer) ? Number(viewer) : viewer };
}

/** The shareable URL of the step shown (and the viewer, when a seat's). */
function stepUrl() {
  const params = new URLSearchParams({ step: String(replay.step) });
  if (replay.viewer !== null) params.set("viewer", String(replay.viewer));
  return `${window.location.origin}/replay/${encodeURIComponent(matchId)}?${params}`;
}

function holderName(seat, index) {
  const entry = seatsAt(replay.data, index).find((s) => s.seat === seat);
  return entry ? seatName(entry) : t("room.seat_n", { n: seat + 1 });
}

/** "From this step on, Normal bot plays for Bob." for each seat taken over at step `number`. */
function takeoverLines(number) {
  return replay.data.seats.flatMap((entry) => {
    const all = occupantsOf(entry);
    return all.slice(1).filter((o) => o.from_step === number).map((o) => t("replay.took_over",
      { bot: seatName(o), name: seatName(occupantAt(entry, number - 1)) }));
  });
}

/** What step `index` did, in the words of the room's move log (the same lines). */
function actionText(index) {
  const step = replay.data.steps[index];
  if (step.step === 0) return t("replay.deal");
  const lines = replay.lines[index];
  const text = lines.length ? lines.join(" ")
    : t("log.hidden_step", { name: holderName(step.seat, step.step) });
  return [...takeoverLines(step.step), text].join(" ");
}

/** The log of the steps up to the one shown, that step's lines marked current. */
function logUpTo(index) {
  const entries = [];
  for (let k = 1; k <= index; k += 1) {
    for (const text of replay.lines[k]) entries.push({ text, step: k, current: k === index });
  }
  return entries;
}

function renderOutcome(last) {
  const el = byId("replay-outcome");
  const outcome = replay.data.outcome;
  el.hidden = !last || !outcome;
  if (el.hidden) return;
  el.dataset.winners = outcome.winners.join(",");
  el.dataset.reason = outcome.reason;
  el.textContent = labelText(t("replay.final"), resultText(replay.data));
}

function render() {
  const steps = replay.data.steps;
  const last = replay.step === steps.length - 1;
  byId("replay-step").textContent = t("replay.step", { n: replay.step, total: steps.length - 1 });
  byId("replay-action").textContent = actionText(replay.step);
  renderLog(byId("move-log"), logUpTo(replay.step));
  byId("replay-slider").value = String(replay.step);
  byId("replay-first").disabled = byId("replay-prev").disabled = replay.step === 0;
  byId("replay-next").disabled = byId("replay-last").disabled = last;
  renderOutcome(last);
  const table = byId("table");
  table.dataset.game = replay.data.game;
  table.dataset.step = String(replay.step);
  try {
    replay.module.render(table, stepContext(replay.data, replay.batches, replay.step, replay.forward));
  } catch (error) {
    console.error(error);
    replace(table, h("p", { class: "error", text: t("room.render_failed") }));
  }
  window.history.replaceState(null, "", stepUrl());
  replay.forward = false;
}

function go(step, { forward = false } = {}) {
  const max = replay.data.steps.length - 1;
  replay.step = Math.max(0, Math.min(max, step));
  replay.forward = forward;
  if (replay.step === max) stopAutoplay();
  render();
}

function paintPlay() {
  const button = byId("replay-play");
  const playing = replay.timer !== null;
  button.setAttribute("aria-pressed", String(playing));
  button.textContent = t(playing ? "replay.pause" : "replay.play");
}

function stopAutoplay() {
  clearInterval(replay.timer);
  replay.timer = null;
  paintPlay();
}

function toggleAutoplay() {
  if (replay.timer !== null) return stopAutoplay();
  if (replay.step === replay.data.steps.length - 1) go(0);
  replay.timer = setInterval(() => go(replay.step + 1, { forward: true }), AUTOPLAY_MS);
  paintPlay();
}

function bindControls() {
  byId("replay-first").addEventListener("click", () => go(0));
  byId("replay-prev").addEventListener("click", () => go(replay.step - 1));
  byId("replay-next").addEventListener("click", () => go(replay.step + 1, { forward: true }));
  byId("replay-last").addEventListener("click", () => go(replay.data.steps.length - 1));
  byId("replay-play").addEventListener("click", toggleAutoplay);
  byId("replay-slider").addEventListener("input", (event) => go(Number(event.target.value)));
  byId("replay-viewer").addEventListener("change", async (event) => {
    const value = event.target.value;
    try {
      await load(value === "" ? null : Number(value), replay.step);
      byId("replay-notice").hidden = true;  // the viewer shown is the one chosen
    } catch (error) {  // the replay shown stays, and the menu names its viewer again
      toastError(error);
      event.target.value = replay.viewer === null ? "" : String(replay.viewer);
    }
  });
  byId("replay-share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(stepUrl());
      toast(t("replay.copied"));
    } catch {
      toast(stepUrl());
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const keys = { ArrowLeft: () => go(replay.step - 1), ArrowRight: () => go(replay.step + 1, { forward: true }),
      Home: () => go(0), End: () => go(replay.data.steps.length - 1) };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
}

function fillViewers() {
  const select = byId("replay-viewer");
  replace(select, h("option", { value: "", text: t("replay.spectator") }),
    replay.data.seats.map((s) => h("option", { value: String(s.seat),
      text: `${t("room.seat_n", { n: s.seat + 1 })} — ${matchSeatName(s)}` })));
  select.value = replay.viewer === null ? "" : String(replay.viewer);
}

async function loadModule(game) {
  try {
    return await import(`/static/games/${encodeURIComponent(game)}.js`);
  } catch {
    return import("/static/games/_generic.js");
  }
}

/** Fetch the replay for `viewer` (null = spectator) and show `step`. */
async function load(viewer, step) {
  replay.data = await fetchReplay(matchId, viewer);
  replay.viewer = replay.data.viewer;
  replay.module = replay.module || await loadModule(replay.data.game);
  replay.batches = stepBatches(replay.data);  // ctx.batches, games/README.md
  replay.lines = stepLines(replay.module, replay.data, replay.batches);
  byId("replay-slider").max = String(replay.data.steps.length - 1);
  fillViewers();
  go(step);
}

/** Whether `error` refuses the viewer asked for as no seat of the match: 404 `no_such_seat`,
 * or 422 for a seat number no match has (above 63). */
function notASeat(error) {
  return error.code === "no_such_seat" || (error.code === "validation_error" && error.field === "query.viewer");
}

/** Load the replay the page URL asks for (`readUrl`): a viewer that is no seat of the match
 * shows the spectator's replay, under a notice naming the seat asked for when it is a seat
 * number ("This match has no seat 8 …": seats count from 1 on the page, from 0 in the URL),
 * else saying the link's seat is none of the match's (its text is not repeated). Throws what
 * `load` throws otherwise (no such match, one not over yet). */
async function loadAsked({ viewer, step }) {
  if (viewer === null || Number.isInteger(viewer)) {
    try {
      await load(viewer, step);
      return;
    } catch (error) {
      if (viewer === null || !notASeat(error)) throw error;
    }
  }
  await load(null, step);
  const notice = byId("replay-notice");
  notice.textContent = Number.isInteger(viewer) ? t("replay.no_such_viewer", { n: viewer + 1 })
    : t("replay.bad_viewer");
  notice.hidden = false;
}

/** A replay that cannot be loaded (no such match, one not over yet): only the reason as the
 * page's heading under its back link — no controls, table or log of a replay that is not there.
 * A match that does not exist has no details page to go back to: the link leads to the match
 * history instead. */
function showUnavailable(error) {
  const back = error.code === "match_not_found"
    ? h("a", { id: "match-link", href: "/history", text: t("match.back") }) : byId("match-link");
  const reason = t(`error.${error.code || "unknown"}`);
  replace(byId("main"), h("p", {}, back),
    h("h1", { id: "replay-title", "data-testid": "replay-missing", text: reason }));
  setTitle(reason);
}

async function main() {
  await initPage();
  paintPlay();
  byId("match-link").href = `/matches/${encodeURIComponent(matchId)}`;
  const title = t("replay.title", { id: matchId });
  byId("replay-title").textContent = title;
  setTitle(title);
  try {
    await loadAsked(readUrl());
  } catch (error) {
    showUnavailable(error);
    return;
  }
  bindControls();
}

main();
