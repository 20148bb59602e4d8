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
// a frame with a `patch` applies when its `seq` is the last one + 1 (`applyPatch`); a full one
// (no `patch`) always does. A gap or a patch that does not apply drops the frame and sends
// `sync` once; frames are dropped until the full update that answers it. An `error` frame
// meanwhile (the sync may be the refused frame, e.g. `rate_limited`) lets the next dropped
// patch send `sync` again, so a refused sync does not freeze the board until a reconnect.

const PING_MS = 25000;
const MAX_DELAY_MS = 10000;
//: The document a patch addresses (`version` comes at the top of every update).
const DOC = ["view", "prompt", "legal", "deadline", "clocks"];
//: The fields a patched update carries whole at its top when they changed.
const TOP = DOC.slice(1);

/** Return the RFC 6901 reference tokens of a JSON Pointer ("" → []). */
function tokens(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`bad pointer ${path}`);
  return path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Return the array index a token names (`-`: the end, for `add`), or throw. */
function index(list, token, adding) {
  if (adding && token === "-") return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad index ${token}`);
  const at = Number(token);
  if (at > list.length || (!adding && at === list.length)) throw new Error(`no index ${at}`);
  return at;
}

/**
 * Return `doc` with the JSON Patch `ops` (RFC 6902 add/remove/replace) applied, `doc` and
 * everything in it left unchanged: each container an op changes is copied once (shallow),
 * the rest is shared. Throws on an op that does not apply (another op, a missing path).
 */
export function applyPatch(doc, ops) {
  const copies = new Set();
  const own = (value) => {
    if (value === null || typeof value !== "object") throw new Error("not a container");
    if (copies.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copies.add(copy);
    return copy;
  };
  let root = doc;
  for (const op of ops) {
    const path = tokens(op.path);
    if (path.length === 0) {
      if (op.op !== "replace") throw new Error(`cannot ${op.op} the whole document`);
      root = op.value;
      continue;
    }
    root = own(root);
    let parent = root;
    for (const token of path.slice(0, -1)) {
      const key = Array.isArray(parent) ? index(parent, token, false) : token;
      if (!Object.hasOwn(parent, key)) throw new Error(`no ${op.path}`);
      parent = parent[key] = own(parent[key]);
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent)) {
      const at = index(parent, last, op.op === "add");
      if (op.op === "add") parent.splice(at, 0, op.value);
      else if (op.op === "remove") parent.splice(at, 1);
      else if (op.op === "replace") parent[at] = op.value;
      else throw new Error(`unknown op ${op.op}`);
    } else if (op.op === "add") {
      parent[last] = op.value;
    } else if (!Object.hasOwn(parent, last)) {
      throw new Error(`no ${op.path}`);
    } else if (op.op === "remove") {
      delete parent[last];
    } else if (op.op === "replace") {
      parent[last] = op.value;
    } else {
      throw new Error(`unknown op ${op.op}`);
    }
  }
  return root;
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
    this.doc = null; // its document ({view, prompt, legal, deadline, clocks})
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

  /** Keep a whole welcome/update's seq, document and room (and hand it on without seq). */
  take(frame) {
    this.seq = frame.seq;
    delete frame.seq;
    this.doc = Object.fromEntries(DOC.map((key) => [key, frame[key]]));
    this.room = frame.room;
    this.syncing = false;
  }

  /** Return the whole update a received one stands for, or null (dropped; sync sent). */
  rebuild(frame) {
    if (!("patch" in frame)) {
      this.take(frame);
      return frame;
    }
    if (this.syncing) return null;
    let doc = null;
    if (frame.seq === this.seq + 1 && this.doc !== null) {
      try {
        doc = applyPatch(this.doc, frame.patch);
      } catch {
        doc = null;
      }
    }
    if (doc === null) {
      this.syncing = this.send({ type: "sync" });
      return null;
    }
    for (const key of TOP) if (key in frame) doc[key] = frame[key];
    this.seq = frame.seq;
    this.doc = doc;
    if (frame.room) this.room = frame.room;
    return { type: "update", version: frame.version, ...doc, events: frame.events, room: this.room };
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
