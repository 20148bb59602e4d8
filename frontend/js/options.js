// Room options: render a game's option schema (GET /api/games -> options) as form controls,
// read the chosen values back, and describe options in one line.
// Schema entry: {name, kind: "choice"|"int"|"bool", default, label, choices?, minimum?, maximum?,
// when?}; `when` {option: value} marks an option that only matters while another option has that
// value (mahjong's `rounds` with rules "mcr"): the form hides it otherwise and summaries skip it.

import { h } from "./dom.js";
import { has, labelText, t } from "./i18n.js";

/** The translated label of an option: the game's own `option.<game>.<name>` when it has one
 * (two games may mean different things by one option name), else `option.<name>`, else the
 * catalog's English label. */
export function optionLabel(option, game = null) {
  const own = `option.${game}.${option.name}`;
  if (game && has(own)) return t(own);
  const key = `option.${option.name}`;
  return has(key) ? t(key) : option.label || option.name;
}

/** The translated text of one option value. */
export function optionValueText(name, value) {
  if (typeof value === "boolean") return t(value ? "common.on" : "common.off");
  const key = `option.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

function choiceControl(option, id) {
  const select = h("select", { id, name: option.name, "data-option": option.name });
  option.choices.forEach((choice, index) => select.append(h("option", {
    value: String(index), selected: choice === option.default,
    text: optionValueText(option.name, choice) })));
  return select;
}

function intControl(option, id) {
  return h("input", { id, name: option.name, type: "number", step: 1, inputmode: "numeric",
    min: option.minimum, max: option.maximum, value: option.default, required: true,
    "data-option": option.name });
}

function boolControl(option, id) {
  return h("input", { id, name: option.name, type: "checkbox", checked: option.default === true,
    "data-option": option.name });
}

const CONTROLS = { choice: choiceControl, int: intControl, bool: boolControl };

/** Return form rows (label + control) for every option in `schema` of `game` (its id). */
export function optionFields(schema, game = null) {
  return schema.filter((option) => CONTROLS[option.kind]).map((option) => {
    const id = `opt-${option.name}`;
    const control = CONTROLS[option.kind](option, id);
    const label = h("label", { for: id, text: optionLabel(option, game) });
    return h("div", { class: ["option-row", `option-${option.kind}`] },
      option.kind === "bool" ? [control, label] : [label, control]);
  });
}

/** Whether `option` matters with these option `values` ({name: value}): always without `when`,
 * else only while every option it names holds the named value. */
export function optionApplies(option, values) {
  return Object.entries(option.when || {}).every(([name, value]) => values[name] === value);
}

/** Read {name: value} from the controls rendered by optionFields inside `root`; a disabled
 * control (an option that does not apply) is left out, so the server gives it its default. */
export function readOptions(root, schema) {
  const values = {};
  for (const option of schema) {
    const control = root.querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!control || control.disabled) continue;
    if (option.kind === "choice") values[option.name] = option.choices[Number(control.value)];
    else if (option.kind === "int") values[option.name] = Number.parseInt(control.value, 10);
    else if (option.kind === "bool") values[option.name] = control.checked;
  }
  return values;
}

/** Show the rows of optionFields inside `root` whose option applies to the values chosen there
 * (optionApplies); hide and disable the others. Call it after rendering and on every change. */
export function showApplicable(root, schema) {
  const values = readOptions(root, schema);
  for (const option of schema) {
    const control = root.querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!control) continue;
    const applies = optionApplies(option, values);
    control.disabled = !applies;
    control.closest(".option-row").hidden = !applies;
  }
}

/** One-line summary of a room's options, e.g. "Regulation: Half · Format: 1v1"; the clocks
 * (`*_seconds`) only with `clocks` (the match page: every option set; the room's line stays short);
 * `game` (its id) picks the game's own option labels. Options that do not apply to the others'
 * values (optionApplies: a Hebei room's competition `rounds`) are left out. */
export function optionsSummary(options, schema = [], { clocks = false, game = null } = {}) {
  const byName = Object.fromEntries(schema.map((option) => [option.name, option]));
  return Object.entries(options || {})
    .filter(([name]) => clocks || !name.endsWith("_seconds"))
    .filter(([name]) => !byName[name] || optionApplies(byName[name], options))
    .map(([name, value]) => labelText(optionLabel(byName[name] || { name }, game), optionValueText(name, value)))
    .join(" · ");
}
