// Numbers as every page and game table shows them: a negative number has the typographic minus
// sign (U+2212 "−"), never the hyphen "-", so scores, positions and ratings read alike in every
// game and language.

/** A number with a typographic minus: 3 -> "3", -2 -> "−2", -0.5 -> "−0.5". `text` is the
 * number already formatted ("-2.5" from toFixed), when it is not `n`'s own String. */
export function minus(n, text = String(n)) {
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}

/** A signed number, as a score change or a position reads: 3 -> "+3", -2 -> "−2", 0 -> "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : minus(n);
}
