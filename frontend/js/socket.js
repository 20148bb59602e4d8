// Websocket client for one room (docs/protocol.md, "Websocket").
//
// new RoomSocket(path, {getToken, onFrame, onStatus})
//   path: "/ws/rooms/{code}" (resolved against the page's host, ws: or wss:).
//   getToken(): the player's token or null; sent in `hello` on every (re)connect.
//   onFrame(frame): every server frame (a parsed JSON object with a `type`).
//   onStatus(status): "connecting" (first attempt), "connected" (welcome received),
//                     "reconnecting" (lost; retrying with backoff), "closed" (stopped for good).
// Reconnects after any close with exponential backoff (0.5 s doubling up to 10 s, ±25 % jitter),
// except after close() or a close code 4400–4499 (the server refused the room for good).

const PING_MS = 25000;
const MAX_DELAY_MS = 10000;

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
  }

  /** Open the connection (idempotent while one is open or pending). */
  start() {
    this.stopped = false;
    if (this.ws) return;
    this.setStatus(this.everConnected ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.getToken() }));
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
    }
    this.onFrame(frame);
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
