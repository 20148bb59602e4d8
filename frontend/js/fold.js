// Text that the page's CSS may cut to a few lines (a phone's -webkit-line-clamp), with a button
// that unfolds it and folds it again. The button shows only while the folded text is cut: not
// where the CSS cuts nothing (a wide screen) nor when the whole text fits.

import { t } from "./i18n.js";

/** Make `button` unfold and fold the element `text` (cut by its CSS unless it has the class
 * `unfolded`): `aria-expanded` and the label ("More" / "Less") follow the state, `aria-controls`
 * names `text`. Returns `refresh()`, which shows the button while the folded text is cut and
 * hides it (folding the text) otherwise: call it after changing the text; a resize of `text`
 * (the window's width, a scrollbar, the button itself) calls it before the next frame. */
export function foldable(text, button) {
  let open = false;
  const paint = () => {
    text.classList.toggle("unfolded", open);
    button.setAttribute("aria-expanded", String(open));
    button.textContent = t(open ? "common.fold" : "common.unfold");
  };
  const refresh = () => {
    text.classList.remove("unfolded");  // measured folded, in the same task: nothing is drawn
    const cut = text.scrollHeight > text.clientHeight + 1;
    button.hidden = !cut;
    if (!cut) open = false;
    paint();
  };
  button.setAttribute("aria-controls", text.id);
  button.addEventListener("click", () => {
    open = !open;
    paint();
  });
  // Not inside the observer's callback: a change of layout there ("More" appears, the text
  // narrows) would be a "ResizeObserver loop" error.
  new ResizeObserver(() => requestAnimationFrame(refresh)).observe(text);
  refresh();
  return refresh;
}
