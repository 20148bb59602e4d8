// Websocket client for one room (docs/protocol.md, "Websocket").
//
// new RoomSocket(path, {getToken, onFrame, onStatus})
//   path: "/ws/rooms/{code}" (resolved against the page's host, ws: or wss:).
//   getToken(): the player's token or null; sent in `hello` on every (re)connect.
//   onFrame(frame): every server frame (a parsed JSON object with a `type`); `update` frames
//                   are always whole ({type, version, view, prompt, legal, deadline, clocks,
//                   events, room}), without `seq`.
//   onStatus(status): "connecting" (first attempt), "connected" (welcome received),
//                     "reconnecting" (lost; retrying with backoff), "closed" (stopped for good).
// Reconnects after any close with exponential backoff (0.5 s doubling up to 10 s, ±25 % jitter),
// except after close() or a close code 4400–4499 (the server refused the room for good).
//
// The socket asks for patched updates (`hello` with `patches: true`; docs/protocol.md
// "Patched updates") and rebuilds each whole `update` from the document of the frame before:
// a patch update (no `view`) applies when its `seq` is the last one + 1 (`applyPatch` on the
// view and the kept legal list, with the socket's key `Templates`); a full one (with `view`)
// always does. A
// gap or a patch that does not apply drops the frame and sends `sync` once; frames are dropped
// until the full update that answers it. An `error` frame meanwhile (the sync may be the
// refused frame, e.g. `rate_limited`) lets the next dropped patch send `sync` again, so a
// refused sync does not freeze the board until a reconnect.

const PING_MS = 25000;
const MAX_DELAY_MS = 10000;
//: A whole frame's document (`version` aside): what a patched update changes.
const DOC = ["view", "prompt", "legal", "deadline", "clocks"];

/** Return the RFC 6901 reference tokens of a relative path ("field/1" → ["field", "1"]). */
function tokens(path) {
  if (typeof path !== "string") throw new Error(`bad path ${path}`);
  return path.split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Return the array index a token names, or throw (`adding`: the length is allowed). */
function index(list, token, adding) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad index ${token}`);
  const at = Number(token);
  if (at > list.length || (!adding && at === list.length)) throw new Error(`no index ${at}`);
  return at;
}

/** Return whole milliseconds of unix seconds as the server counts them (Python's `round`: a
 * tie goes to the even number, where `Math.round` goes up), so a patch's times count from the
 * same base. */
export function millis(seconds) {
  const x = seconds * 1000;
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Return a deep copy of a JSON value. */
const copied = (value) => (value === null || typeof value !== "object" ? value : structuredClone(value));

//: The most key templates a socket is given (docs/protocol.md "Patched updates").
export const MAX_TEMPLATES = 256;

const isDict = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A socket's key templates since its last full update (docs/protocol.md "Patched updates"):
 * a dict sent plain in a templated place makes the next one of its key list (an event's
 * data: of its kind and key list); a dict sent as `[id, ...values]` is read back by it.
 */
export class Templates {
  constructor() {
    this.made = []; // [{kind, keys}] by id (kind null but for an event's data)
    this.ids = new Map(); // JSON of [kind, keys] → id
  }

  /** Learn a dict sent plain (`kind`: the event's, for an event's data). */
  learn(value, kind = null) {
    if (!isDict(value) || this.made.length >= MAX_TEMPLATES) return;
    const keys = Object.keys(value);
    if ((keys.length === 0 && kind === null) || keys.some((key) => /^[0-9]+$/.test(key))) return;
    const name = JSON.stringify([kind, keys]);
    if (this.ids.has(name)) return;
    this.ids.set(name, this.made.length);
    this.made.push({ kind, keys });
  }

  /** Return the dict template `at` (an event's when `event`) and `values` stand for. */
  dict(at, values, event = false) {
    const made = Number.isInteger(at) ? this.made[at] : undefined;
    if (!made || (made.kind !== null) !== event || made.keys.length !== values.length) {
      throw new Error(`bad template ${at}`);
    }
    return Object.fromEntries(made.keys.map((key, i) => [key, values[i]]));
  }

  /** Return an event {kind, data} from `[kind, data]` (learnt) or `[id, ...values]`. */
  event(sent) {
    if (!Array.isArray(sent)) throw new Error("bad event");
    if (typeof sent[0] === "string" && sent.length === 2) {
      this.learn(sent[1], sent[0]);
      return { kind: sent[0], data: sent[1] };
    }
    const data = this.dict(sent[0], sent.slice(1), true);
    return { kind: this.made[sent[0]].kind, data };
  }

  /** Return a list entry that must be a dict from `[id, ...values]` or itself (learnt). */
  entry(entry) {
    if (Array.isArray(entry)) return this.dict(entry[0], entry.slice(1));
    this.learn(entry);
    return entry;
  }
}

/**
 * Return `{view, legal}` with the ops of a patched update applied (docs/protocol.md "Patched
 * updates"): `["=", path, value]` replace, `["+", path, value]` add, `["-", path]` remove,
 * `["&", path, i]` add a copy of `events[i]` (the decoded data), `{path: value}` or a
 * template's `[id, ...values]` replaces, `[op, path, id, ...values]` a dict value by its
 * template; paths relative to the view, or with `~l/` first to the kept legal list, never
 * either itself. Plain dicts are learnt by `templates` in the order they come. The given
 * `view` and `legal` and everything in them are left unchanged: each container an op changes
 * is copied once (shallow), the rest is shared. Throws on an op that does not apply (another
 * op, a missing path, an index out of range, a bad template).
 */
export function applyPatch(view, legal, ops, events = [], templates = new Templates()) {
  const copies = new Set();
  const own = (value) => {
    if (value === null || typeof value !== "object") throw new Error("not a container");
    if (copies.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copies.add(copy);
    return copy;
  };
  const roots = { view, legal };
  const apply = (kind, path, value) => {
    if (typeof path !== "string") throw new Error(`bad path ${path}`);
    const root = path.startsWith("~l/") ? "legal" : "view";
    const parts = tokens(root === "legal" ? path.slice(3) : path);
    let parent = (roots[root] = own(roots[root]));
    for (const token of parts.slice(0, -1)) {
      const key = Array.isArray(parent) ? index(parent, token, false) : token;
      if (!Object.hasOwn(parent, key)) throw new Error(`no ${path}`);
      parent = parent[key] = own(parent[key]);
    }
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      const at = index(parent, last, kind === "+");
      if (kind === "+") parent.splice(at, 0, value);
      else if (kind === "-") parent.splice(at, 1);
      else parent[at] = value;
    } else if (kind === "+") {
      parent[last] = value;
    } else if (!Object.hasOwn(parent, last)) {
      throw new Error(`no ${path}`);
    } else if (kind === "-") {
      delete parent[last];
    } else {
      parent[last] = value;
    }
  };
  for (const op of ops) {
    if (isDict(op)) {
      templates.learn(op);
      for (const [path, value] of Object.entries(op)) apply("=", path, value);
      continue;
    }
    if (!Array.isArray(op)) throw new Error("not an op");
    const [kind, path] = op;
    if (Number.isInteger(kind)) {
      for (const [key, value] of Object.entries(templates.dict(kind, op.slice(1)))) apply("=", key, value);
    } else if (kind === "&" && op.length === 3) {
      if (!(op[2] in events)) throw new Error(`no event ${op[2]}`);
      apply("+", path, copied(events[op[2]]));
    } else if (kind === "-" && op.length === 2) {
      apply("-", path);
    } else if ((kind === "=" || kind === "+") && op.length >= 3) {
      let value = op[2];
      if (op.length === 3) templates.learn(value);
      else value = templates.dict(op[2], op.slice(3));
      apply(kind, path, value);
    } else {
      throw new Error(`bad op ${kind}`);
    }
  }
  return roots;
}

export class RoomSocket {
  constructor(path, { getToken, onFrame, onStatus }) {
    this.url = new URL(path, window.location.href);
    this.url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
    this.getToken = getToken;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.everConnected = false;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
    this.status = null;
    this.seq = -1; // the seq of the last welcome/update taken
    this.version = 0; // its version
    this.doc = null; // its document ({view, prompt, legal, deadline, clocks}; legal: the kept list)
    this.templates = new Templates(); // its key templates
    this.room = null; // the last Room JSON received
    this.syncing = false; // a sync was sent: patches are dropped until a full update
  }

  /** Open the connection (idempotent while one is open or pending). */
  start() {
    this.stopped = false;
    if (this.ws) return;
    this.setStatus(this.everConnected ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.getToken(), patches: true }));
    });
    ws.addEventListener("message", (message) => this.receive(ws, message));
    ws.addEventListener("close", (event) => this.closed(ws, event));
  }

  receive(ws, message) {
    if (ws !== this.ws) return;
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    if (frame.type === "welcome") {
      this.attempt = 0;
      this.everConnected = true;
      this.setStatus("connected");
      this.startPing();
      this.take(frame);
    } else if (frame.type === "room") {
      this.room = frame.room;
    } else if (frame.type === "error") {
      this.syncing = false;
    } else if (frame.type === "update") {
      frame = this.rebuild(frame);
      if (frame === null) return;
    }
    this.onFrame(frame);
  }

  /** Keep a whole welcome/update's seq, version, document and room (and hand it on
   * without seq). */
  take(frame) {
    this.seq = frame.seq;
    delete frame.seq;
    this.version = frame.version;
    this.doc = Object.fromEntries(DOC.map((key) => [key, frame[key]]));
    this.templates = new Templates();
    this.room = frame.room;
    this.syncing = false;
  }

  /** Return the whole update a received one stands for, or null (dropped; sync sent). */
  rebuild(frame) {
    if ("view" in frame) {
      this.take(frame);
      return frame;
    }
    if (this.syncing) return null;
    let doc = null;
    let events = [];
    if (frame.seq === this.seq + 1 && this.doc !== null) {
      try {
        const templates = this.templates;
        events = frame.events.map((sent) => templates.event(sent));
        doc = { ...this.doc };
        if ("legal" in frame) doc.legal = frame.legal.map((entry) => templates.entry(entry));
        const { view, legal } = applyPatch(doc.view, doc.legal, frame.patch || [],
                                           events.map((event) => event.data), templates);
        doc.view = view;
        doc.legal = legal;
      } catch {
        doc = null;
      }
    }
    if (doc === null) {
      this.syncing = this.send({ type: "sync" });
      return null;
    }
    if ("prompt" in frame) doc.prompt = frame.prompt;
    // sent times are whole ms after the last deadline (0 when it was null)
    const base = this.doc.deadline === null ? 0 : millis(this.doc.deadline);
    const seconds = (millis) => (millis === null ? null : (base + millis) / 1000);
    if ("clocks" in frame) {
      doc.clocks = Object.fromEntries(Object.entries(frame.clocks).map(([seat, at]) => [seat, seconds(at)]));
    }
    const clocks = Object.values(doc.clocks);
    doc.deadline = "deadline" in frame ? seconds(frame.deadline) : clocks.length === 1 ? clocks[0] : null;
    this.seq = frame.seq;
    this.version = "version" in frame ? frame.version : this.version + 1;
    this.doc = doc;
    if (frame.room) this.room = frame.room;
    return { type: "update", version: this.version, ...doc, legal: doc.prompt === null ? [] : doc.legal,
             events, room: this.room };
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.ws = null;
    clearInterval(this.pinger);
    if (this.stopped || (event.code >= 4400 && event.code < 4500)) {
      this.setStatus("closed");
      return;
    }
    this.setStatus(this.everConnected ? "reconnecting" : "connecting");
    const base = Math.min(MAX_DELAY_MS, 500 * 2 ** this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.start(), base * (0.75 + Math.random() * 0.5));
  }

  startPing() {
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status);
  }

  /** Send a frame; returns false (and sends nothing) when not connected. */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.status !== "connected") return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Drop the connection and open a new one at once (e.g. after taking a seat: new hello). */
  restart() {
    clearTimeout(this.timer);
    const old = this.ws;
    this.ws = null;
    clearInterval(this.pinger);
    if (old) old.close(1000);
    this.attempt = 0;
    this.status = null;
    this.start();
  }

  /** Close for good (no reconnect). */
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
    this.setStatus("closed");
  }
}
