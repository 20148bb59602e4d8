// Safe DOM building: every text goes through textContent, never innerHTML.
//
// h(tag, attrs, ...children) -> HTMLElement
//   attrs: {class, text, dataset-like "data-x": v, "aria-x": v, on<event>: fn, any attribute}
//          boolean true sets an empty attribute, false/null/undefined omits it.
//   children: Node | string | number | null | false | array of those (strings become text nodes).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (name === "text") el.textContent = String(value);
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "value" && "value" in el) el.value = value;
    else if (name === "checked" || name === "disabled" || name === "selected") el[name] = Boolean(value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nested arrays, strings, nodes; null/false skipped) to `parent`. */
export function append(parent, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replace every child of `parent` with `children`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** document.getElementById shortcut that throws when the element is missing (a page bug). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

/**
 * Replace the children of `root` and, if the focus was inside `root`, give it back to the
 * element with the same `data-key` (so redraws do not lose keyboard users' place). When that
 * element is gone or disabled (the control just used, disabled while its action is on its
 * way), the focus stays on `root` itself (made focusable with tabindex -1; Tab goes on into the
 * table) and the key is kept in `root.dataset.focusKey`: a later redraw that finds the focus
 * still there gives it to that key's element once it is back and enabled.
 */
export function replaceKeepingFocus(root, ...children) {
  const active = document.activeElement;
  const inside = Boolean(active) && root.contains(active);
  const key = active === root ? root.dataset.focusKey : inside ? active.dataset.key : null;
  replace(root, ...children);
  if (!inside) return;
  const again = key && root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) {
    delete root.dataset.focusKey;
    again.focus();
    return;
  }
  if (key) root.dataset.focusKey = key;
  root.tabIndex = -1;
  root.focus({ preventScroll: true });
}

/**
 * Make the element `old` (in the document) show what `fresh` (a new tree) shows, keeping every
 * node of `old` equal to its counterpart (`isEqualNode`: tag, attributes, text, children; not
 * listeners): a node whose tag, attributes or number of children differ is replaced whole, one
 * that differs only below is patched child by child. For redraws on a timer: Chromium drops a
 * click whose button left the document between press and release, even to come back.
 */
export function morph(old, fresh) {
  if (old.isEqualNode(fresh)) return;
  if (old.nodeType !== Node.ELEMENT_NODE || old.tagName !== fresh.tagName
      || old.childNodes.length !== fresh.childNodes.length || !sameAttributes(old, fresh)) {
    old.replaceWith(fresh);
    return;
  }
  const olds = [...old.childNodes];
  const freshes = [...fresh.childNodes];
  olds.forEach((child, index) => morph(child, freshes[index]));
}

/** The key `patchChildren` matches old and fresh children by when given none: their place. */
const place = (node, index) => index;

/**
 * Make the children of `parent` (in the document) show `children` (as `replace` would) while
 * keeping the ones that stay: an old child whose key (`keyOf(node, index)`, by default its
 * place; null: never matched) is a fresh child's is patched with `morph`, a fresh child without
 * one is inserted, an old child without one is removed. A kept child moves only when the keys
 * changed order. For lists redrawn on a timer or by frames that left most of them as they were.
 */
export function patchChildren(parent, children, keyOf = place) {
  const freshes = [...append(document.createDocumentFragment(), children).childNodes];
  const keys = freshes.map(keyOf);
  const olds = new Map();
  [...parent.childNodes].forEach((node, index) => {
    const key = keyOf(node, index);
    if (key === null || key === undefined || olds.has(key) || !keys.includes(key)) node.remove();
    else olds.set(key, node);
  });
  let at = parent.firstChild;
  freshes.forEach((fresh, index) => {
    const old = olds.get(keys[index]);
    olds.delete(keys[index]);
    if (old === undefined) parent.insertBefore(fresh, at);
    else if (old !== at) parent.insertBefore(old, at);
    else at = at.nextSibling;
    if (old !== undefined) morph(old, fresh);
  });
}

/** A `patchChildren` key: an element's attribute `data-<name>` (null for other nodes or
 * without it), e.g. `dataKey("code")` matches a list's rows by their room codes. */
export function dataKey(name) {
  return (node) => (node.nodeType === Node.ELEMENT_NODE ? node.getAttribute(`data-${name}`) : null);
}

function sameAttributes(a, b) {
  if (a.attributes.length !== b.attributes.length) return false;
  for (const { name, value } of a.attributes) if (b.getAttribute(name) !== value) return false;
  return true;
}

/**
 * Redraw `root` with `fresh` on a timer: patch its one child in place (`morph`) when it has
 * exactly one, else replace its children (`replaceKeepingFocus`).
 */
export function patchInto(root, fresh) {
  const shown = root.firstElementChild;
  if (shown && root.childElementCount === 1) morph(shown, fresh);
  else replaceKeepingFocus(root, fresh);
}
