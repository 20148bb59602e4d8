// Reversed Civilizations table (game id "civilization"); interface: frontend/games/README.md.
// Draws the view of docs/protocol.md "Reversed Civilizations view": both players (resources,
// workers, leaders, who faces 王权, who passed), the row of cards with both slots (the slot
// facing this viewer at the bottom), the ↺ reversal icon, leader costs and placed leaders,
// workers (own, opponent's, neutral), the phase and clock, the revealed card to orient, every
// follow-up choice of a slot as a small dialog, and a rotation animation at clean-up.
// Test hooks: [data-testid=civ-table|civ-status|civ-phase|civ-outcome|civ-row|civ-card|civ-slot|
// civ-dialog (data-kind = pending kind)|civ-answer|civ-waiting|civ-main|civ-player-<seat>],
// [data-action=place][data-card][data-resolve=true|false], [data-action=leader], [data-action=pass].

import { h, replaceKeepingFocus } from "/static/js/dom.js";
import { labelText } from "/static/js/i18n.js";
import { icon } from "/static/js/icons.js";
import { translator } from "./civ_text.js";
import { bottomSeat, busy, endReasonOf, ensureStyles, isSpectator, markLastMove, seatName } from "./kit.js";
import { lastCard } from "./civ_log.js";

export { logLines, logMemo } from "./civ_log.js";

const RESOURCES = ["fish", "meat", "wheat"];
const memories = new WeakMap();

/** The seat drawn at the bottom: the viewer's, or seat 0 for spectators. */
function mySide(ctx) {
  return bottomSeat(ctx);
}

/** A resource as its word (buttons and sentences; the icons stand next to the counts). */
function resText(tr, res) {
  return tr(`civ.res.${res}`);
}

function cardName(tr, view, index) {
  const card = view.row[index];
  if (!card) return tr("civ.card_no", { n: index });
  const label = card.card === 0 ? tr("civ.start_card") : tr("civ.card_no", { n: card.card });
  return `${label} ${card.slots.map((s) => tr(`civ.slot.${s.slot}`)).join(" / ")}`;
}

function slotAt(view, index, faces) {
  const card = view.row[index];
  return card ? card.slots.find((s) => s.faces === faces) : null;
}

/** A readable label for a legal follow-up answer. */
function answerLabel(action, view, ctx, tr) {
  const me = mySide(ctx);
  const kind = view.pending ? view.pending.kind : "";
  switch (action.type) {
    case "take": case "steal": case "declare":
      return tr(`civ.answer.${action.type}`, { res: resText(tr, action.resource) });
    case "pay":
      return tr(kind === "pay_same" ? "civ.answer.pay_same" : "civ.answer.pay", { res: resText(tr, action.resource) });
    case "exchange":
      return tr("civ.answer.exchange", { give: resText(tr, action.give), get: resText(tr, action.get) });
    case "match":
      return tr("civ.answer.match", { set: resText(tr, action.set), to: resText(tr, action.to) });
    case "rotate": case "leader":
      return tr(`civ.answer.${action.type}`, { card: cardName(tr, view, action.card) });
    case "remove": {
      const slot = view.row[action.card].slots[action.slot];
      const who = slot.worker === "neutral" ? tr("civ.worker.neutral") : tr("civ.worker.seat", { name: seatName(ctx, slot.worker) });
      return tr("civ.answer.remove", { who, slot: tr(`civ.slot.${slot.slot}`) });
    }
    case "place_neutral": {
      const faces = kind === "learn" ? 1 - me : me;
      return tr("civ.answer.place_neutral", { slot: tr(`civ.slot.${slotAt(view, action.card, faces).slot}`) });
    }
    case "resolve":
      return tr("civ.answer.resolve", { slot: tr(`civ.slot.${slotAt(view, action.card, me).slot}`) });
    case "orient":
      return tr("civ.answer.orient", { slot: tr(`civ.slot.${view.revealed.slots[action.slot]}`) });
    default:
      return tr(`civ.answer.${action.type}`);
  }
}

function targetCards(ctx) {
  return new Set(ctx.legal.filter((a) => "card" in a && a.type !== "place" && a.type !== "orient").map((a) => a.card));
}

// ------------------------------------------------------------------ players

function resourceList(res, tr) {
  return h("ul", { class: "civ-res" }, RESOURCES.map((r) => h("li", { class: `civ-res-${r}`, "data-res": r },
    icon(r), " ",
    h("strong", { text: String(res[r]) }), " ", h("span", { class: "small", text: tr(`civ.res.${r}`) }))));
}

function playerPanel(view, ctx, tr, seat) {
  const me = ctx.seat === seat;
  const badges = [
    seat === view.kingship ? h("span", { class: "badge civ-badge-king" }, icon("crown"), " ", tr("civ.faces_kingship")) : null,
    seat === view.start_player && view.round > 0 ? h("span", { class: "badge", text: tr("civ.start_player") }) : null,
    view.phase === "action" && view.passed[seat] ? h("span", { class: "badge civ-badge-passed", text: tr("civ.passed") }) : null,
  ];
  return h("section", { class: ["civ-player", `civ-seat-${seat}`, me && "civ-me"], "data-testid": `civ-player-${seat}` },
    h("div", { class: "civ-player-head" },
      h("span", { class: `civ-token civ-token-${seat}`, "aria-hidden": "true" }),
      h("strong", { text: seatName(ctx, seat) }), me ? h("span", { class: "muted", text: `(${tr("civ.you")})` }) : null,
      badges),
    resourceList(view.resources[seat], tr),
    h("p", { class: "civ-counts small" },
      h("span", { "data-testid": `civ-workers-${seat}`, text: tr("civ.workers", view.workers[seat]) }), " · ",
      h("span", { "data-testid": `civ-leaders-${seat}`, text: tr("civ.leaders", view.leaders[seat]) })));
}

// ------------------------------------------------------------------ the row

function workerToken(slot, ctx, tr) {
  if (slot.worker === null) return null;
  if (slot.worker === "neutral") return h("span", { class: "civ-worker civ-worker-neutral", text: `○ ${tr("civ.worker.neutral")}` });
  return h("span", { class: `civ-worker civ-token-${slot.worker}`, text: `● ${seatName(ctx, slot.worker)}` });
}

function slotBox(slot, ctx, tr, place) {
  return h("div", { class: ["civ-slot", `civ-${slot.colour}`, slot.worker !== null && "civ-taken"],
    "data-testid": "civ-slot", "data-slot": slot.slot, "data-faces": String(slot.faces) },
  h("div", { class: "civ-slot-name" },
    h("span", { text: tr(`civ.slot.${slot.slot}`) }),
    slot.reversal ? h("span", { class: "civ-reversal", title: tr("civ.reversal"), "aria-label": tr("civ.reversal"), text: "↺" }) : null),
  h("div", { class: "civ-effect small", text: tr(`civ.effect.${slot.slot}`) }),
  // the slot's colour is also written out (colour is never the only signal).
  h("span", { class: "civ-colour-tag small", "data-colour": slot.colour, text: tr(`civ.colour.${slot.colour}`) }),
  workerToken(slot, ctx, tr),
  place);
}

/** What a place action does, e.g. "Put a worker on 狩猎 Hunting and use it now: +3 meat". */
function placeExplanation(action, ctx, tr) {
  const slot = slotAt(ctx.view, action.card, mySide(ctx));
  if (!slot) return null;
  return tr(action.resolve ? "civ.explain.use" : "civ.explain.place_only",
    { slot: tr(`civ.slot.${slot.slot}`), effect: tr(`civ.effect.${slot.slot}`) });
}

function placeButtons(ctx, tr, index) {
  const options = ctx.legal.filter((a) => a.type === "place" && a.card === index);
  if (!options.length) return null;
  return h("div", { class: "civ-buttons" }, options.map((action) => h("button", {
    type: "button", class: ["button", "button-small", action.resolve && "button-primary"],
    "data-action": "place", "data-card": String(index), "data-resolve": String(action.resolve),
    "data-key": `place-${index}-${action.resolve}`, disabled: busy(ctx), title: placeExplanation(action, ctx, tr),
    text: tr(action.resolve ? "civ.use" : "civ.place_only"), onclick: () => ctx.act(action) })));
}

function centre(card, ctx, tr, index) {
  const lead = ctx.legal.find((a) => a.type === "leader" && a.card === index && !(ctx.view.pending));
  return h("div", { class: "civ-centre" },
    h("span", { class: "civ-card-no", text: card.card === 0 ? tr("civ.start_card") : tr("civ.card_no", { n: card.card }) }),
    h("span", { class: "small", text: card.cost ? tr("civ.cost", { res: resText(tr, card.cost) }) : tr("civ.no_cost") }),
    card.leader !== null ? h("span", { class: `civ-leader civ-token-${card.leader}`, "data-testid": "civ-leader" },
      icon("flag"), " ", tr("civ.leader_of", { name: seatName(ctx, card.leader) })) : null,
    lead ? h("button", { type: "button", class: "button button-small", "data-action": "leader", "data-card": String(index),
      "data-key": `leader-${index}`, disabled: busy(ctx), text: tr("civ.place_leader", { res: resText(tr, card.cost) }),
      onclick: () => ctx.act(lead) }) : null);
}

function cardTile(card, index, ctx, tr, memory, targets) {
  const me = mySide(ctx);
  const top = card.slots.find((s) => s.faces !== me);
  const bottom = card.slots.find((s) => s.faces === me);
  const main = !ctx.view.pending;
  const tile = h("li", { class: ["civ-card", memory.spin.has(index) && "civ-spin", targets.has(index) && "civ-target"],
    "data-testid": "civ-card", "data-card": String(card.card), "data-index": String(index) },
  slotBox(top, ctx, tr, null), centre(card, ctx, tr, index),
  slotBox(bottom, ctx, tr, main ? placeButtons(ctx, tr, index) : null));
  if (memory.last === index) markLastMove(tile, ctx, (ctx.events || []).length > 0);
  return tile;
}

function rowPanel(view, ctx, tr, memory) {
  const targets = targetCards(ctx);
  const title = isSpectator(ctx)
    ? tr("civ.row_spectator", { name: seatName(ctx, 0) }) : tr("civ.row");
  return h("section", { class: "civ-row-panel" }, h("h3", { text: title }),
    h("ol", { class: "civ-row", "data-testid": "civ-row" }, view.row.map((card, i) => cardTile(card, i, ctx, tr, memory, targets))));
}

// ------------------------------------------------------------------ status and decisions

function statusLine(view, ctx, tr) {
  const acting = view.to_act.length ? view.to_act[0] : null;
  const mine = ctx.legal.length > 0;
  const clock = view.phase === "over" ? null : (mine && ctx.deadline) || (acting !== null ? (ctx.clocks || {})[acting] : null);
  return h("div", { class: "civ-status", "data-testid": "civ-status", "data-phase": view.phase },
    view.round > 0 ? h("span", { text: tr("civ.round", { round: view.round }) }) : null,
    h("strong", { "data-testid": "civ-phase", text: tr(`civ.phase.${view.phase}`) }),
    view.phase === "over" ? h("span", { "data-testid": "civ-outcome", text: outcomeText(view, ctx, tr) })
      : h("span", { text: mine ? tr("civ.turn.mine") : tr("civ.turn.other", { name: seatName(ctx, acting) }) }),
    clock ? ctx.countdown(clock) : null,
    h("span", { class: "muted", text: tr("civ.deck", { n: view.deck_size }) }));
}

function outcomeText(view, ctx, tr) {
  const outcome = view.outcome;
  if (!outcome) return "";
  const winner = outcome.winners[0];
  if (ctx.room && ctx.room.forfeit) {  // the room resigned the other seat: a forfeit, not a resign
    return tr("civ.outcome.forfeit", { name: seatName(ctx, winner), reason: endReasonOf(ctx, outcome) });
  }
  return tr(`civ.outcome.${outcome.reason}`, { name: seatName(ctx, winner),
    leaders: outcome.detail.leaders[winner], resources: outcome.detail.resources[winner] });
}

function revealedCard(view, tr) {
  const card = view.revealed;
  return h("div", { class: "civ-revealed", "data-testid": "civ-revealed" },
    h("span", { class: "civ-card-no", text: tr("civ.card_no", { n: card.card }) }),
    // the slot's name is printed in the face font, its effect in the page's (as on the row's slots)
    card.slots.map((slot, j) => h("span", { class: "civ-revealed-slot" },
      h("span", { class: "civ-revealed-name", text: `${tr(`civ.slot.${slot}`)}${card.reversal[j] ? " ↺" : ""}` }),
      ` — ${tr(`civ.effect.${slot}`)}`)),
    h("span", { class: "small", text: tr("civ.cost", { res: resText(tr, card.cost) }) }));
}

function decisionPanel(view, ctx, tr) {
  const pending = view.pending;
  const mine = ctx.legal.length > 0;
  if (!pending) {
    if (!mine || view.phase !== "action") return null;
    const pass = ctx.legal.find((a) => a.type === "pass");
    return h("section", { class: "decision civ-decision", "data-testid": "civ-main" },
      h("p", { class: "small", text: tr("civ.main_help") }),
      h("button", { type: "button", class: "button", "data-action": "pass", "data-key": "pass", disabled: busy(ctx),
        text: tr("civ.pass"), onclick: () => ctx.act(pass) }));
  }
  const title = tr(`civ.pending.${pending.kind}`, { n: pending.n });
  if (!mine) {
    const text = pending.kind === "orient" ? tr("civ.wait_orient", { name: seatName(ctx, pending.seat) })
      : labelText(seatName(ctx, pending.seat), title, tr);
    return h("section", { class: "civ-waiting", "data-testid": "civ-waiting" },
      view.revealed ? revealedCard(view, tr) : null, h("p", { class: "muted", text }));
  }
  return h("section", { class: "decision civ-decision", role: "dialog", "aria-label": title, "data-testid": "civ-dialog",
    "data-kind": pending.kind },
  h("h3", { text: title }),
  pending.kind === "orient" ? [revealedCard(view, tr), h("p", { class: "small", text: tr("civ.orient_help") })] : null,
  h("div", { class: "dialog-actions" }, ctx.legal.map((action, index) => h("button", {
    type: "button", class: ["button", index === 0 && "button-primary"], "data-testid": "civ-answer",
    "data-answer": action.type, "data-key": `answer-${index}`, disabled: busy(ctx),
    text: answerLabel(action, view, ctx, tr), onclick: () => ctx.act(action) }))));
}

// ------------------------------------------------------------------ entry points

function spinsFrom(events) {
  const spin = new Set();
  for (const event of events || []) {
    if (event.kind === "cleanup") event.data.rotated.forEach((i) => spin.add(i));
    if ((event.kind === "decision" || event.kind === "forced") && event.data.action && event.data.action.type === "rotate") {
      spin.add(event.data.action.card);
    }
  }
  return spin;
}

/** Draw the whole table from ctx (see README.md for ctx). */
export function render(root, ctx) {
  ensureStyles("civilization.css");
  if (!memories.has(root)) memories.set(root, { spin: new Set() });
  const memory = memories.get(root);
  memory.spin = spinsFrom(ctx.events);
  memory.last = lastCard(ctx.lastEvents || []);
  const tr = translator(ctx);
  const view = ctx.view;
  const me = mySide(ctx);
  replaceKeepingFocus(root, h("div", { class: "civ", "data-testid": "civ-table" },
    statusLine(view, ctx, tr),
    playerPanel(view, ctx, tr, 1 - me),
    decisionPanel(view, ctx, tr),
    rowPanel(view, ctx, tr, memory),
    playerPanel(view, ctx, tr, me)));
}

/** Forget this table's state. */
export function dispose(root) {
  memories.delete(root);
}
