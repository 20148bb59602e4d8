// Reverse Curse stairs chart (SVG): the position after each set (each point labelled with it),
// the two KO lines, which side went first, and each set's result in the point's tooltip. Used live in the room (view.history) and on the match page
// (GET /api/matches/{id}/ladder). Rule source: rulings "Match flow" 7–8 (a result moves the
// position; |position| reaching the KO value ends the match).

import { signed } from "/static/js/numbers.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 360;
const HEIGHT = 220;
const PAD = { left: 40, right: 16, top: 18, bottom: 34 };

/** An SVG element with attributes (text via `text`) and children (null skipped). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (name === "text") el.textContent = String(value);
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}


/**
 * The regulation's KO value and maximum sets from room options (rulings "Options"):
 * full → {ko: 24, maxSets: 6}, half → {ko: 12, maxSets: 3}.
 */
export function regulationLimits(options) {
  return (options && options.regulation) === "half" ? { ko: 12, maxSets: 3 } : { ko: 24, maxSets: 6 };
}

/**
 * The chart's scales: x(set) for set 0 … maxSets, y(position) for −ko … +ko (a position past
 * the KO value — a KO that overshoots — is drawn on the KO line).
 */
export function scales(ko, maxSets) {
  const span = Math.max(ko, 1);
  const x = (set) => PAD.left + (set / Math.max(maxSets, 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (pos) => PAD.top + ((span - Math.max(-span, Math.min(span, pos))) / (2 * span))
    * (HEIGHT - PAD.top - PAD.bottom);
  return { x, y };
}

function levelLines({ x, y }, ko, maxSets, t) {
  return [ko, 0, -ko].map((level) => s("g", { class: level ? "stairs-ko" : "stairs-zero",
    "data-testid": level ? "stairs-ko-line" : null },
  s("line", { x1: x(0), x2: x(maxSets), y1: y(level), y2: y(level),
    "stroke-dasharray": level ? "5 4" : null }),
  s("text", { x: PAD.left - 4, y: y(level) + 4, "text-anchor": "end",
    text: level ? `${level > 0 ? "▲" : "▼"}${signed(level)}` : "0" }),
  level ? s("title", { text: t("rc.chart_ko_line",
    { side: t(`rc.side.${level > 0 ? "UP" : "DOWN"}`), n: signed(level) }) }) : null));
}

function setAxis({ x }, maxSets, sets) {
  const firsts = new Map(sets.map((entry) => [entry.set, entry.first_side]));
  const ticks = [];
  for (let set = 1; set <= maxSets; set += 1) {
    const first = firsts.get(set);
    ticks.push(s("text", { class: "stairs-tick", x: x(set), y: HEIGHT - PAD.bottom + 14,
      "text-anchor": "middle", text: `S${set}` }));
    if (first) {
      ticks.push(s("text", { class: `stairs-first side-${first}`, x: x(set), y: HEIGHT - PAD.bottom + 28,
        "text-anchor": "middle", "data-testid": "stairs-first", text: first === "UP" ? "▲" : "▼" }));
    }
  }
  return ticks;
}

function point({ x, y }, entry, t) {
  const px = x(entry.set);
  const py = y(entry.position_after);
  const lead = entry.position_after > 0 ? "up" : entry.position_after < 0 ? "down" : "even";
  return s("g", { class: `stairs-point ${lead}`, "data-testid": "stairs-point", "data-set": entry.set,
    "data-result": entry.result, "data-position": entry.position_after, "data-first": entry.first_side },
  s("title", { text: t("rc.chart_point", { set: entry.set, result: signed(entry.result),
    n: signed(entry.position_after), side: t(`rc.side.${entry.first_side}`) }) }),
  s("circle", { cx: px, cy: py, r: 4 }),
  s("text", { x: px, y: py - 8, "text-anchor": "middle", class: "stairs-position",
    "data-testid": "stairs-label", text: signed(entry.position_after) }));
}

/**
 * Return an <svg> stairs chart of `sets` ([{set, first_side: "UP"|"DOWN", result,
 * position_after}], set order) for a match with KO value `ko` and at most `maxSets` sets.
 * The line starts at position 0 before set 1; each point is labelled with the position after
 * its set (the chart's title), the set's result is in the point's tooltip; `t` translates labels.
 */
export function stairsChart(sets, { ko, maxSets, t }) {
  const sc = scales(ko, maxSets);
  const path = [[0, 0], ...sets.map((entry) => [entry.set, entry.position_after])]
    .map(([set, pos], i) => `${i ? "L" : "M"}${sc.x(set).toFixed(1)},${sc.y(pos).toFixed(1)}`).join(" ");
  const summary = sets.length
    ? t("rc.chart_aria", { sets: sets.length, n: signed(sets[sets.length - 1].position_after), ko })
    : t("rc.chart_empty");
  return s("svg", { class: "stairs-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "aria-label": summary, "data-testid": "stairs-chart", "data-ko": ko },
  s("title", { text: summary }),
  levelLines(sc, ko, maxSets, t),
  setAxis(sc, maxSets, sets),
  s("path", { class: "stairs-line", d: path, fill: "none" }),
  sets.map((entry) => point(sc, entry, t)));
}
