// Reverse Curse table parts that only draw the view: sides, stairs track, field, hands, piles,
// set history. view shape: docs/protocol.md "Reverse Curse view".

import { h } from "/static/js/dom.js";
import { cardBack, cardFace, signed } from "./rc_cards.js";
import { markLastMove, seatName } from "./kit.js";

const SIDES = ["UP", "DOWN"];

/** "UP" / "DOWN" side label with its arrow, e.g. "▲ UP". */
export function sideText(side, t) {
  return t(`rc.side.${side}`);
}

/** Whether `seat` of a team may play the side's card now (rulings "Formats": any member of the
 * side to play who still holds cards). */
function mayPlay(view, side, seat) {
  return view.phase === "deployment" && view.side_to_act === side && ((view.hand_sizes || {})[seat] ?? 0) > 0;
}

function sideCard(view, ctx, side) {
  const seats = (view.sides && view.sides[side]) || [];
  const mine = view.my_side === side;
  const energy = view.monsters && view.energy ? view.energy[side] : null;
  const held = view.monsters && view.held ? view.held[side] : null;
  return h("div", { class: ["side-card", `side-${side}`, mine && "side-mine"], "data-side": side },
    h("p", { class: "side-title" }, h("strong", { text: sideText(side, ctx.t) }),
      mine ? h("span", { class: "you-tag", text: ctx.t("room.you") }) : null,
      view.side_to_act === side && view.phase === "deployment"
        ? h("span", { class: "turn-tag", text: ctx.t("rc.to_play") }) : null),
    h("ul", { class: "side-members" }, seats.map((seat) => h("li", { "data-seat": seat },
      h("span", { text: seatName(ctx, seat) }),
      h("span", { class: "muted small",
        text: ctx.t("rc.cards_in_hand", { n: (view.hand_sizes || {})[seat] ?? 0 }) }),
      seats.length > 1 && mayPlay(view, side, seat)
        ? h("span", { class: "turn-tag", "data-testid": "member-to-play", text: ctx.t("rc.may_play") }) : null))),
    energy !== null ? h("p", { class: "small", text: ctx.t("rc.energy", { n: energy }) }) : null,
    view.monsters ? h("p", { class: "small", text: held
      ? ctx.t("rc.holds", { monster: ctx.t(`rc.monster.${held}`) }) : ctx.t("rc.holds_none") }) : null);
}

/** The two sides with their members, hand sizes and (with monsters) energy and held monster. */
export function sidesPanel(view, ctx) {
  return h("div", { class: "rc-sides" }, SIDES.map((side) => sideCard(view, ctx, side)));
}

function leadText(view, t) {
  if (view.position === 0) return t("rc.level");
  const side = view.position > 0 ? "UP" : "DOWN";
  return t("rc.leads", { side: sideText(side, t), n: Math.abs(view.position) });
}

/** The cell of the track that shows `position`: a K.O. past the goal (−15 with K.O. at 12)
 * sits on the goal cell (rulings "Match flow" 8: the match ends once |position| ≥ K.O.). */
export function markerStep(position, ko) {
  return Math.max(-ko, Math.min(ko, position));
}

/** The stairs track −KO … +KO with the position marker (its real number, on the goal cell for
 * a K.O. past the goal), KO marks at both ends, and 0. */
export function stairs(view, ctx) {
  const { t } = ctx;
  const cells = [];
  const marker = markerStep(view.position, view.ko);
  for (let step = -view.ko; step <= view.ko; step += 1) {
    const here = step === marker;
    cells.push(h("span", {
      class: ["stair", step === 0 && "stair-zero", Math.abs(step) === view.ko && "stair-ko",
        here && "stair-here", step < 0 && "stair-down", step > 0 && "stair-up"],
      "aria-current": here ? "step" : null, "data-step": step,
    }, here ? h("span", { class: "stair-marker", "data-testid": "stair-marker",
      text: signed(view.position) }) : null));
  }
  const goal = (side) => (view.my_side === side ? ` · ${t("rc.your_goal")}` : "");
  return h("section", { class: "rc-stairs", "aria-label": t("rc.stairs") },
    h("p", { class: "rc-stairs-head" },
      h("strong", { "data-testid": "rc-position", text: t("rc.position", { n: signed(view.position) }) }),
      h("span", { class: "muted", text: leadText(view, t) })),
    h("div", { class: "stair-track", role: "img",
      "aria-label": t("rc.stairs_aria", { n: signed(view.position), ko: view.ko }) }, cells),
    h("p", { class: "stair-ends small" },
      h("span", { class: "ko-down", text: `${t("rc.ko_mark", { side: sideText("DOWN", t), n: `−${view.ko}` })}${goal("DOWN")}` }),
      h("span", { class: "ko-up", text: `${t("rc.ko_mark", { side: sideText("UP", t), n: `+${view.ko}` })}${goal("UP")}` })));
}

function fieldSlot(entry, turn, ctx, highlightTurn, lastTurn) {
  const { t } = ctx;
  let face;
  if (!entry) face = h("div", { class: "card card-empty card-small", role: "img", "aria-label": t("rc.empty_slot") });
  else if (entry.card === null || entry.card === undefined) face = cardBack(t, true);
  else face = cardFace(entry.card, t, { small: true, hidden: !entry.face_up, highlight: highlightTurn === turn });
  if (entry && lastTurn === turn) markLastMove(face, ctx, (ctx.events || []).length > 0);
  return h("li", { class: ["slot", entry && `slot-${entry.side}`, highlightTurn === turn && "slot-active"],
    "data-turn": turn },
  h("span", { class: "slot-turn", text: `T${turn}` }), face,
  entry ? h("span", { class: "slot-who small",
    text: `${entry.side === "UP" ? "▲" : "▼"} ${entry.holder || seatName(ctx, entry.seat)}` }) : null);
}

/**
 * The field T1..T12 (T1 = bottom). entries: [{turn, seat, side, card|null, face_up, holder?}]
 * (`holder`: who played the card, rc_owners.js; without it, the seat's holder now);
 * highlightTurn: the T# being resolved during playback (or null); lastTurn: the T# of the card
 * played last (marked as the last move), or null.
 */
export function fieldPanel(entries, ctx, highlightTurn = null, title = null, lastTurn = null) {
  const byTurn = new Map(entries.map((entry) => [entry.turn, entry]));
  const slots = [];
  for (let turn = 1; turn <= 12; turn += 1) slots.push(fieldSlot(byTurn.get(turn), turn, ctx, highlightTurn, lastTurn));
  return h("section", { class: "rc-field", "aria-label": ctx.t("rc.field") },
    h("h3", { text: title || ctx.t("rc.field") }),
    h("p", { class: "muted small", text: ctx.t("rc.field_help") }),
    h("ol", { class: "slots", "data-testid": "rc-field" }, slots));
}

/** Graveyard (face-up cards) and deck size. */
export function pilesPanel(view, ctx) {
  const { t } = ctx;
  const grave = view.graveyard || [];
  return h("section", { class: "rc-piles" },
    h("div", { class: "pile" },
      h("h3", { text: t("rc.graveyard", { n: grave.length }) }),
      grave.length
        ? h("ul", { class: "card-row", "data-testid": "rc-graveyard" },
          grave.map((code) => h("li", {}, cardFace(code, t, { small: true }))))
        : h("p", { class: "muted small", text: t("rc.graveyard_empty") })),
    h("div", { class: "pile" },
      h("h3", { text: t("rc.deck") }),
      h("div", { class: "deck" }, cardBack(t, true),
        h("span", { "data-testid": "rc-deck", text: t("rc.deck_size", { n: view.deck_size ?? 0 }) }))));
}

/** Previous sets: number, first side, result and position after. */
export function historyPanel(view, ctx) {
  const { t } = ctx;
  const sets = view.history || [];
  if (!sets.length) return null;
  return h("section", { class: "rc-history" },
    h("h3", { text: t("rc.history") }),
    h("table", { class: "table-plain" },
      h("thead", {}, h("tr", {}, [t("rc.col_set"), t("rc.col_first"), t("rc.col_result"), t("rc.col_after")]
        .map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, sets.map((entry) => h("tr", {},
        h("td", { text: String(entry.set) }),
        h("td", { text: sideText(entry.first_side, t) }),
        h("td", { text: signed(entry.result) }),
        h("td", { text: signed(entry.position_after) }))))));
}
