// Small inline SVG icons (drawn for this site, 24 × 24 units, in the text's colour), so that no
// picture depends on an emoji font: a system without one showed boxes for 🐟 🥩 🌾 👑 🔥 💥.
// icon(name) -> <svg class="icon icon-<name>"> built with createElementNS (no markup strings).

const SVG = "http://www.w3.org/2000/svg";

/** Each icon: a list of [tag, attributes] drawn with currentColor. */
const ICONS = {
  fish: [["path", { d: "M3 12C6 7 12 6 16 9L21 5V19L16 15C12 18 6 17 3 12ZM8.5 10.4A1.1 1.1 0 1 0 8.5 12.6A1.1 1.1 0 1 0 8.5 10.4Z",
    "fill-rule": "evenodd" }]],
  meat: [["path", { d: "M13.5 3A7.5 7.5 0 0 1 13.5 18C12.3 18 11.2 17.7 10.3 17.2L7.6 19.9A2.2 2.2 0 1 1 4.1 19.9A2.2 2.2 0 1 1 4.1 16.4L6.8 13.7C6.3 12.8 6 11.7 6 10.5A7.5 7.5 0 0 1 13.5 3Z" }]],
  wheat: [["path", { d: "M11.2 9H12.8V22H11.2Z" }],
    ...[[6, 0], [10, 0], [14, 0]].flatMap(([y]) => [
      ["ellipse", { cx: "9.3", cy: String(y + 1), rx: "1.7", ry: "3", transform: `rotate(-35 9.3 ${y + 1})` }],
      ["ellipse", { cx: "14.7", cy: String(y + 1), rx: "1.7", ry: "3", transform: `rotate(35 14.7 ${y + 1})` }]]),
    ["ellipse", { cx: "12", cy: "3.4", rx: "1.6", ry: "2.8" }]],
  crown: [["path", { d: "M3 7L7.5 11L12 4L16.5 11L21 7L19 16H5ZM5 18H19V20.5H5Z" }]],
  flag: [["path", { d: "M5 3H7V21H5ZM7.8 4H19L16 8.2L19 12.4H7.8Z" }]],
  link: [["rect", { x: "2", y: "8", width: "11", height: "8", rx: "4", fill: "none", stroke: "currentColor", "stroke-width": "2.2" }],
    ["rect", { x: "11", y: "8", width: "11", height: "8", rx: "4", fill: "none", stroke: "currentColor", "stroke-width": "2.2" }]],
  fire: [["path", { d: "M12.5 2C13.5 6 18.5 8 18.5 14A6.5 6.5 0 0 1 5.5 14C5.5 11 7.3 9 8.4 7C8.9 9 9.9 10.2 11.4 10.4C10.6 7.5 11.6 4.5 12.5 2Z" }]],
  burst: [["path", { d: "M12 1.5L14.1 8L20.5 5L17.3 11L23 13.2L16.8 14.6L18.5 21L12.6 17.2L7 21.5L8 15L1.5 13.4L7.2 10.7L3.8 4.8L10.2 7.6Z" }]],
  heart: [["path", { d: "M12 20.5L3.6 12A4.9 4.9 0 0 1 12 5.7A4.9 4.9 0 0 1 20.4 12Z" }]],
  heart_empty: [["path", { d: "M12 20.5L3.6 12A4.9 4.9 0 0 1 12 5.7A4.9 4.9 0 0 1 20.4 12Z", fill: "none",
    stroke: "currentColor", "stroke-width": "1.8", "stroke-linejoin": "round" }]],
  speaker: [["path", { d: "M3 9H7L12 5V19L7 15H3Z" }],
    ["path", { d: "M15 9.2A4 4 0 0 1 15 14.8M17.6 6.6A7.6 7.6 0 0 1 17.6 17.4", fill: "none", stroke: "currentColor",
      "stroke-width": "1.9", "stroke-linecap": "round" }]],
  speaker_off: [["path", { d: "M3 9H7L12 5V19L7 15H3Z" }],
    ["path", { d: "M15.5 9.5L21 15M21 9.5L15.5 15", fill: "none", stroke: "currentColor", "stroke-width": "1.9",
      "stroke-linecap": "round" }]],
};

/** The names of the icons this module draws. */
export const ICON_NAMES = Object.keys(ICONS);

/** An inline SVG icon, hidden from screen readers (the text next to it says what it means);
 * throws on an unknown name (a page bug). */
export function icon(name) {
  const shapes = ICONS[name];
  if (!shapes) throw new Error(`no icon ${name}`);
  const svg = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({ viewBox: "0 0 24 24", width: "1em", height: "1em",
    fill: "currentColor", "aria-hidden": "true", focusable: "false", class: `icon icon-${name}` })) {
    svg.setAttribute(key, value);
  }
  for (const [tag, attrs] of shapes) {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, value);
    svg.append(shape);
  }
  return svg;
}
