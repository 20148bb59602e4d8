// Reversed Civilizations texts. Strings go through ctx.t with keys "civ.*" (frontend/i18n/<lang>.json,
// en/zh/ja; tests/e2e/test_i18n_static.py checks every key exists in every language).
// View and action shapes: docs/protocol.md "Reversed Civilizations view".

/** The translator of the "civ.*" keys: ctx.t itself (kept as a function for the callers). */
export function translator(ctx) {
  return (key, params = {}) => ctx.t(key, params);
}
