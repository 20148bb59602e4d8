// NumGR table (game id "numgr"); interface: frontend/games/README.md; view: docs/protocol.md
// "NumGR view"; rules for players: docs/rules/numgr.md.
// Draws both play areas (opponent on top) with their stacks, live attack/defense totals and HP,
// the step being played, the viewer's hand with the stack builder (ng_builder.js), the piles,
// the last HP check, and slides reflected stacks across when a `stack_reflected` event arrives.

import { h, replaceKeepingFocus } from "/static/js/dom.js";
import { icon } from "/static/js/icons.js";
import { builderPanel, playableMains } from "./ng_builder.js";
import { cardEl, stackEl } from "./ng_cards.js";
import { cardText } from "./ng_text.js";
import { bottomSeat, busy, endReasonOf, ensureStyles, keptDetails, memoryOf, seatLabel, tr } from "./kit.js";
import { checkLine, lastCheck, lastStack } from "./ng_log.js";

export { logLines } from "./ng_log.js";

/** Where the half-built stack of a decision is kept, so a reload keeps it (per prompt id). */
const CHOICE_KEY = "arena.ng.choice";

const memories = new WeakMap();

function memoryFor(root) {
  return memoryOf(memories, root, () => ({ choice: { main: null, base: undefined }, prompt: null, kept: new Map() }));
}

/** The half-built stack kept for decision `prompt` ({main, base}; base undefined = not chosen). */
function keptChoice(prompt) {
  const kept = prompt ? JSON.parse(sessionStorage.getItem(CHOICE_KEY) || "null") : null;
  if (!kept || kept.prompt !== prompt) return { main: null, base: undefined };
  return { main: kept.main, base: kept.base === "unset" ? undefined : kept.base };
}

function keepChoice(prompt, choice) {
  if (!prompt) return;
  sessionStorage.setItem(CHOICE_KEY, JSON.stringify({ prompt, main: choice.main,
    base: choice.base === undefined ? "unset" : choice.base }));
}

function statusText(view, ctx) {
  if (view.step === "over") return tr(ctx, "ng.status.over");
  if (view.current === ctx.seat) return tr(ctx, `ng.status.mine.${view.step}`);
  return tr(ctx, "ng.status.other", { name: seatLabel(ctx, view.current), step: tr(ctx, `ng.step.${view.step}`) });
}

function outcomeText(view, ctx) {
  const outcome = view.outcome;
  if (!outcome) return null;
  const reason = endReasonOf(ctx, outcome);
  if (outcome.draw) return tr(ctx, "ng.outcome.draw", { reason });
  return tr(ctx, "ng.outcome.win", { name: seatLabel(ctx, outcome.winners[0]), reason });
}

function statusBar(view, ctx) {
  const clock = view.step !== "over" && ctx.deadline && ctx.legal.length ? ctx.deadline
    : Math.min(...Object.values(ctx.clocks || {}), Infinity);
  return h("div", { class: "ng-status", "data-testid": "ng-status", "data-step": view.step,
    "data-current": view.current },
  h("span", { class: "ng-turn", text: tr(ctx, "ng.turn", { turn: view.turn }) }),
  h("span", { class: "ng-step", text: tr(ctx, `ng.step.${view.step}`) }),
  h("strong", { class: "ng-phase", text: outcomeText(view, ctx) || statusText(view, ctx) }),
  Number.isFinite(clock) && view.step !== "over" ? ctx.countdown(clock) : null);
}

function totalsText(totals, ctx) {
  return tr(ctx, "ng.totals", totals)
    + (totals.unstoppable ? tr(ctx, "ng.unstoppable", { n: totals.unstoppable }) : "")
    + (totals.defense_circle ? tr(ctx, "ng.circle", { n: totals.defense_circle }) : "");
}

function threatLine(view, ctx) {
  if (view.step !== "defense" || view.current !== ctx.seat) return null;
  const attack = view.totals[1 - ctx.seat];
  const defense = view.totals[ctx.seat];
  const extra = attack.unstoppable ? tr(ctx, "ng.unstoppable", { n: attack.unstoppable }) : "";
  return h("p", { class: "ng-threat", "data-testid": "ng-threat",
    text: tr(ctx, "ng.threat", { attack: attack.attack, extra, defense: defense.defense }) });
}

/** The HP as hearts, full then empty (the text next to them says the numbers). */
function hearts(hp, max) {
  const full = Array.from({ length: Math.max(hp, 0) }, () => icon("heart"));
  const empty = Array.from({ length: Math.max(max - hp, 0) }, () => icon("heart_empty"));
  return h("span", { class: "ng-hearts", "aria-hidden": "true" }, full, empty);
}

function movingDirection(stack, seat, top, reflectedNow) {
  if (!reflectedNow.has(stack.id)) return null;
  return top ? "down" : "up";
}

function areaPanel(view, ctx, seat, top, reflectedNow, last) {
  const stacks = view.areas[seat];
  const pending = view.pending[seat];
  return h("section", { class: ["ng-area", top ? "ng-area-top" : "ng-area-bottom",
    view.current === seat && "ng-area-current"], "data-testid": `ng-area-${seat}`, "data-seat": seat },
  h("header", { class: "ng-area-head" },
    h("strong", { text: seatLabel(ctx, seat) }),
    h("span", { class: "ng-hp", "data-testid": `ng-hp-${seat}`, "data-hp": view.hp[seat],
      title: tr(ctx, "ng.hp", { hp: view.hp[seat], max: view.hp_max }),
    }, hearts(view.hp[seat], view.hp_max), " ", tr(ctx, "ng.hp", { hp: view.hp[seat], max: view.hp_max })),
    h("span", { class: "muted", text: tr(ctx, "ng.hand_size", { n: view.hand_sizes[seat] }) }),
    h("span", { class: "ng-totals", "data-testid": `ng-totals-${seat}`, text: totalsText(view.totals[seat], ctx) })),
  stacks.length
    ? h("ol", { class: "ng-stacks" }, stacks.map((stack) => stackEl(stack, view, ctx,
      { moving: movingDirection(stack, seat, top, reflectedNow), last: last === stack.id })))
    : h("p", { class: "muted", text: tr(ctx, "ng.area_empty") }),
  pending.length ? h("div", { class: "ng-pending" },
    h("span", { text: tr(ctx, "ng.pending") }),
    pending.map((code) => cardEl(code, { small: true }))) : null);
}

function stepButtons(view, ctx) {
  const mine = ctx.legal.length > 0;
  if (!mine) return null;
  if (view.step === "discard") {
    return h("div", { class: "ng-actions" },
      h("span", { class: "muted", text: tr(ctx, "ng.discard_help") }),
      h("button", { type: "button", class: "button button-primary", "data-testid": "ng-keep",
        "data-key": "keep", disabled: busy(ctx), text: tr(ctx, "ng.keep"),
        onclick: () => ctx.act({ type: "discard", card: null }) }));
  }
  return h("div", { class: "ng-actions" }, h("button", {
    type: "button", class: "button button-primary", "data-testid": "ng-end-step",
    "data-step": view.step, "data-key": "end-step", disabled: busy(ctx),
    text: tr(ctx, `ng.end.${view.step}`), onclick: () => ctx.act({ type: "end_step" }) }));
}

function handCardAction(code, view, ctx, memory, redraw) {
  if (view.step === "discard") {
    const legal = ctx.legal.some((a) => a.type === "discard" && a.card === code);
    return { enabled: legal, onclick: () => ctx.act({ type: "discard", card: code }) };
  }
  const playable = playableMains(ctx).has(code);
  return { enabled: playable, onclick: () => {
    memory.choice.main = memory.choice.main === code ? null : code;
    memory.choice.base = undefined;
    redraw();
  } };
}

function handPanel(view, ctx, memory, redraw) {
  if (!view.hand) return null;
  const pending = ctx.seat !== null ? view.pending[ctx.seat] : [];
  const cards = [...view.hand, ...pending.filter((c) => playableMains(ctx).has(c))];
  return h("section", { class: "ng-hand", "data-testid": "hand" },
    h("h3", { text: tr(ctx, "ng.your_hand") }),
    h("ul", { class: "card-row" }, cards.map((code) => {
      const { enabled, onclick } = handCardAction(code, view, ctx, memory, redraw);
      const explain = enabled ? tr(ctx, view.step === "discard" ? "ng.explain.discard" : "ng.explain.build",
        { card: cardText(code) }) : null;
      return h("li", {}, cardEl(code, { tag: "button", key: `hand-${code}`, testid: "hand-card", title: explain,
        disabled: !enabled || busy(ctx), selected: memory.choice.main === code, onclick,
        action: view.step === "discard" ? "discard" : "select" }));
    })),
    ctx.legal.some((a) => a.type === "play") ? builderPanel(memory.choice, view, ctx, redraw) : null,
    stepButtons(view, ctx));
}

function pilesPanel(view, ctx, kept) {
  return h("section", { class: "ng-piles" },
    h("span", { "data-testid": "ng-deck", text: tr(ctx, "ng.deck", { n: view.deck_size }) }),
    keptDetails(kept, "discard", false, {}, h("summary", { text: tr(ctx, "ng.discard_pile", { n: view.discard.length }) }),
      h("div", { class: "card-row" }, view.discard.map((code) => cardEl(code, { small: true })))));
}

/** The last HP check of the match, from every event this viewer received (kept across a
 * reload by the shell: ctx.history). */
function lastCheckLine(ctx) {
  const check = lastCheck(ctx.history || ctx.lastEvents || []);
  if (!check) return null;
  return h("p", { class: "ng-last-check", "data-testid": "ng-last-check", text: checkLine(check, ctx, "ng.last_check") });
}

function draw(root, memory) {
  const ctx = memory.ctx;
  const view = ctx.view;
  const me = bottomSeat(ctx);
  const redraw = () => draw(root, memory);
  const reflectedNow = memory.reflectedNow || new Set();
  const last = lastStack(ctx.lastEvents || []);
  keepChoice(ctx.prompt, memory.choice);
  replaceKeepingFocus(root, h("div", { class: "ng", "data-step": view.step },
    statusBar(view, ctx),
    areaPanel(view, ctx, 1 - me, true, reflectedNow, last),
    threatLine(view, ctx),
    areaPanel(view, ctx, me, false, reflectedNow, last),
    lastCheckLine(ctx),
    handPanel(view, ctx, memory, redraw),
    pilesPanel(view, ctx, memory.kept)));
}

function remember(memory, ctx) {
  if (ctx.prompt !== memory.prompt || !ctx.legal.length) {
    memory.choice = ctx.legal.length ? keptChoice(ctx.prompt) : { main: null, base: undefined };
    memory.prompt = ctx.prompt;
  }
  if (memory.choice.main && !playableMains(ctx).has(memory.choice.main)) {
    memory.choice = { main: null, base: undefined };
  }
  memory.reflectedNow = new Set(ctx.events.filter((e) => e.kind === "stack_reflected").map((e) => e.data.id));
}

/**
 * Draw the NumGR table into `root` for ctx = {view, legal, seat, prompt, deadline, clocks,
 * events, room, players, connected, pending, act, t, countdown} (README.md).
 */
export function render(root, ctx) {
  ensureStyles("numgr.css");
  const memory = memoryFor(root);
  memory.ctx = ctx;
  remember(memory, ctx);
  draw(root, memory);
}

/** Forget this table's selection when the shell drops it. */
export function dispose(root) {
  memories.delete(root);
}
