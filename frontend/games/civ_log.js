// Reversed Civilizations move log (games/README.md "logLines", "logMemo"): one line per action
// or decision, naming the slot used. Every event of this game is public. A line names slots from
// the row as it was when its events arrived (the memo the shell keeps with them: `logMemo`), so
// a card turned round later does not change what the log says. Events: docs/protocol.md
// "Reversed Civilizations view".

import { lastOf, linesFrom, seatName } from "./kit.js";

/** What the log keeps of the view that came with a batch: each row card's number and slots
 * ([{n, slots: [[slot key, faces seat], …]}]). */
export function logMemo(view) {
  return (view.row || []).map((card) => ({ n: card.card, slots: card.slots.map((s) => [s.slot, s.faces]) }));
}

function res(ctx, code) {
  return ctx.t(`civ.res.${code}`);
}

function cardNo(ctx, index) {
  const card = (ctx.memo || [])[index];
  if (!card) return ctx.t("civ.log.position", { n: index + 1 });
  return card.n === 0 ? ctx.t("civ.start_card") : ctx.t("civ.card_no", { n: card.n });
}

/** The slot of row card `index` that faces `seat` (or slot number `slot`), as its name. */
function slotName(ctx, index, { faces = null, slot = null }) {
  const card = (ctx.memo || [])[index];
  const entry = card && (slot !== null ? card.slots[slot] : card.slots.find((s) => s[1] === faces));
  return entry ? ctx.t(`civ.slot.${entry[0]}`) : cardNo(ctx, index);
}

function mainLine(d, ctx) {
  const name = seatName(ctx, d.seat);
  const a = d.action;
  if (a.type === "pass") return ctx.t("civ.log.pass", { name });
  if (a.type === "leader") return ctx.t("civ.log.leader", { name, card: cardNo(ctx, a.card) });
  const slot = slotName(ctx, a.card, { faces: d.seat });
  return ctx.t(a.resolve ? "civ.log.use" : "civ.log.place_only", { name, slot });
}

const ANSWERS = {
  take: (a, ctx, p) => ctx.t("civ.log.take", { ...p, res: res(ctx, a.resource) }),
  pay: (a, ctx, p, step) => ctx.t(step === "pay_same" ? "civ.log.pay_same" : "civ.log.pay", { ...p, res: res(ctx, a.resource) }),
  steal: (a, ctx, p) => ctx.t("civ.log.steal", { ...p, res: res(ctx, a.resource) }),
  exchange: (a, ctx, p) => ctx.t("civ.log.exchange", { ...p, give: res(ctx, a.give), get: res(ctx, a.get) }),
  declare: (a, ctx, p) => ctx.t("civ.log.declare", { ...p, res: res(ctx, a.resource) }),
  match: (a, ctx, p) => ctx.t("civ.log.match", { ...p, set: res(ctx, a.set), to: res(ctx, a.to) }),
  rotate: (a, ctx, p) => ctx.t("civ.log.rotate", { ...p, card: cardNo(ctx, a.card) }),
  remove: (a, ctx, p) => ctx.t("civ.log.remove", { ...p, slot: slotName(ctx, a.card, { slot: a.slot }) }),
  place_neutral: (a, ctx, p, step, seat) => ctx.t("civ.log.neutral",
    { ...p, slot: slotName(ctx, a.card, { faces: step === "learn" ? 1 - seat : seat }) }),
  resolve: (a, ctx, p, step, seat) => ctx.t("civ.log.resolve", { ...p, slot: slotName(ctx, a.card, { faces: seat }) }),
  leader: (a, ctx, p) => ctx.t("civ.log.leader", { ...p, card: cardNo(ctx, a.card) }),
  orient: (a, ctx, p) => ctx.t("civ.log.orient", p),
  skip: (a, ctx, p) => ctx.t("civ.log.skip", p),
  stop: (a, ctx, p) => ctx.t("civ.log.stop", p),
  unlock: (a, ctx, p) => ctx.t("civ.log.unlock", p),
  decline: (a, ctx, p) => ctx.t("civ.log.decline", p),
};

function decisionLine(d, ctx) {
  const answer = ANSWERS[d.action.type];
  return answer ? answer(d.action, ctx, { name: seatName(ctx, d.seat) }, d.step, d.seat) : null;
}

const LINES = {
  main_action: mainLine,
  decision: decisionLine,
  forced: decisionLine,
  round_started: (d, ctx) => ctx.t("civ.log.round", { n: d.round, name: seatName(ctx, d.start_player) }),
  card_revealed: (d, ctx) => ctx.t("civ.log.revealed", { n: d.card }),
  cleanup: (d, ctx) => (d.rotated.length ? ctx.t("civ.log.cleanup", { n: d.rotated.length }) : null),
};

/** The move-log lines of one batch of events this viewer received (README.md "logLines"). */
export function logLines(events, ctx) {
  return linesFrom(LINES, events, ctx);
}

/** The row index of the card the last action of `events` used (a worker or leader placed, a
 * card turned or a slot resolved), or null. */
export function lastCard(events) {
  const last = lastOf(events, ["main_action", "decision", "forced"]);
  if (!last || !last.data.action || !("card" in last.data.action)) return null;
  return last.data.action.card;
}
