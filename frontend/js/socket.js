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
// view, and on the kept legal list for `legal_patch`); a full one (with `view`) always does. A
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

/** Return a deep copy of a JSON value. */
const copied = (value) => (value === null || typeof value !== "object" ? value : structuredClone(value));

/**
 * Return `doc` with the compact ops of a patched update applied (docs/protocol.md "Patched
 * updates": `["=", path, value]` replace, `["+", path, value]` add, `["-", path]` remove,
 * `["&", path, i]` add a copy of `events[i]`'s data, `events` as the frame carries them:
 * `[kind, data]`; paths relative to `doc`, never `doc` itself). `doc` and everything in it is
 * left unchanged: each container an op changes is copied once (shallow), the rest is shared.
 * Throws on an op that does not apply (another op, a missing path, an index out of range).
 */
export function applyPatch(doc, ops, events = []) {
  const copies = new Set();
  const own = (value) => {
    if (value === null || typeof value !== "object") throw new Error("not a container");
    if (copies.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copies.add(copy);
    return copy;
  };
  const root = own(doc);
  for (const op of ops) {
    if (!Array.isArray(op)) throw new Error("not an op");
    let [kind, path, value] = op;
    if (kind === "&") {
      const event = events[value];
      if (!Array.isArray(event)) throw new Error(`no event ${value}`);
      [kind, value] = ["+", copied(event[1])];
    } else if ((kind === "-") !== (op.length === 2) || op.length > 3) {
      throw new Error(`bad op ${kind}`);
    }
    const path_ = tokens(path);
    let parent = root;
    for (const token of path_.slice(0, -1)) {
      const key = Array.isArray(parent) ? index(parent, token, false) : token;
      if (!Object.hasOwn(parent, key)) throw new Error(`no ${path}`);
      parent = parent[key] = own(parent[key]);
    }
    const last = path_[path_.length - 1];
    if (Array.isArray(parent)) {
      const at = index(parent, last, kind === "+");
      if (kind === "+") parent.splice(at, 0, value);
      else if (kind === "-") parent.splice(at, 1);
      else if (kind === "=") parent[at] = value;
      else throw new Error(`unknown op ${kind}`);
    } else if (kind === "+") {
      parent[last] = value;
    } else if (!Object.hasOwn(parent, last)) {
      throw new Error(`no ${path}`);
    } else if (kind === "-") {
      delete parent[last];
    } else if (kind === "=") {
      parent[last] = value;
    } else {
      throw new Error(`unknown op ${kind}`);
    }
  }
  return root;
}

/** Return a patched frame's whole milliseconds as unix seconds (null stays null). */
const seconds = (millis) => (millis === null ? null : millis / 1000);

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
    const events = Array.isArray(frame.events) ? frame.events : [];
    if (frame.seq === this.seq + 1 && this.doc !== null) {
      try {
        doc = { ...this.doc };
        if (frame.patch) doc.view = applyPatch(doc.view, frame.patch, events);
        if ("legal" in frame) doc.legal = frame.legal;
        else if (frame.legal_patch) doc.legal = applyPatch(doc.legal, frame.legal_patch);
        if (!events.every((event) => Array.isArray(event) && event.length === 2)) throw new Error("bad events");
      } catch {
        doc = null;
      }
    }
    if (doc === null) {
      this.syncing = this.send({ type: "sync" });
      return null;
    }
    if ("prompt" in frame) doc.prompt = frame.prompt;
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
             events: events.map(([kind, data]) => ({ kind, data })), room: this.room };
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
