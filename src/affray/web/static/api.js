// The page's client of the table server's API: HTTP with the seat's bearer token, and a WebSocket that reconnects
// by itself (bounded backoff) and hands every message to the page. The socket speaks protocol 2 (docs/table.md,
// "Live updates"): after the whole first message, each push is a JSON Patch of the one before, which the client
// applies, and the seat's actions go over the socket, each answered there. Helpers every part of the page shares:
// escaping, submission ids, and plain words (rule IDs out of the text, kept as help).
export const UNREACHABLE = "The server cannot be reached; nothing was sent. Check the connection and try again.";
export const DROPPED = "The connection dropped before the server answered; if your move does not show, choose it again.";
export const SILENT = "The server has not answered for 15 seconds; if your move does not show, choose it again.";
const ANSWER_WAIT = 15000; // ms: a socket that answers nothing for this long is taken as dead, and opened again
const RETRY_FIRST = 1000, RETRY_MOST = 30000; // ms: the waits before opening a closed socket again (Client.retry)
// The refusals that stop the page: a token the server says is wrong (none, unknown, or replaced by the GM).
const FINAL = new Set(["no_token", "bad_token", "token_replaced"]);

// What a page that lost its socket waits for, in words: the refusal the server sent, or the server out of reach.
function waitingFor(refused) {
  if (!refused) return navigator.onLine === false ? "This device is offline" : "The server cannot be reached";
  if (refused.code === "store_unavailable") return "The table's database is not answering";
  return plain(refused.message).words.replace(/[.;:\s]+$/, "") || "The server refused for now";
}

const DESYNC = "a patch that does not fit the message it was sent for";

// An RFC 6901 pointer's tokens ("/view/combatants/1" -> ["view", "combatants", "1"]).
const tokens = (path) => path.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));

// `msg` with the patch's operations applied (replace, add, remove; the server writes replace). A new object along
// each changed path, the rest shared: the page may keep the message it had. A path that is not there throws: the
// page's message is not the one the server patched, and only the whole message again can mend it.
export function applyPatch(msg, patch) {
  let out = msg;
  for (const op of patch) {
    const path = tokens(op.path);
    if (!path.length) { out = op.value; continue; }
    out = Array.isArray(out) ? out.slice() : { ...out };
    let parent = out;
    for (const key of path.slice(0, -1)) {
      const child = parent[key];
      if (child === null || typeof child !== "object") throw new Error(DESYNC);
      parent = parent[key] = Array.isArray(child) ? child.slice() : { ...child };
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent)) {
      const i = Number(last);
      if (op.op === "remove") parent.splice(i, 1);
      else if (op.op === "add") parent.splice(i, 0, op.value);
      else parent[i] = op.value;
    } else if (op.op === "remove") delete parent[last];
    else parent[last] = op.value;
  }
  return out;
}

export class Client {
  constructor(tableId, token) {
    this.tableId = tableId; this.token = token; this.ws = null; this.closed = false;
    this.msg = null; this.refs = 0; this.waiting = new Map(); // ref -> {resolve, reject} of an action sent
  }

  // Open, and the browser is online: an offline browser may keep a dead socket open for a while (until its pings
  // fail), and a move sent into it would wait for an answer that cannot come.
  get live() { return navigator.onLine !== false && Boolean(this.ws && this.ws.readyState === WebSocket.OPEN); }

  async call(method, path, body) {
    const headers = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res;
    try {
      res = await fetch(`/api/tables/${this.tableId}${path}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw Object.assign(new Error(UNREACHABLE), { code: "unreachable" });
    }
    let data = null;
    try { data = await res.json(); } catch { data = { code: "bad_answer", message: `The server answered ${res.status}.` }; }
    if (!res.ok) throw Object.assign(new Error(data.message || `HTTP ${res.status}`), { code: data.code, reason: data.reason, data });
    return data;
  }

  // An action over the socket: resolves with the server's answer, rejects as `call` does (a code and a sentence).
  // An answer that does not come within ANSWER_WAIT rejects, and a new socket is opened at once (the whole state
  // comes with it). Choosing the move again is safe: a move already taken is refused as stale, its actor having
  // acted since.
  act(body) {
    if (!this.live) return this.call("POST", "/actions", body);
    const ref = ++this.refs;
    const ws = this.ws;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.waiting.has(ref)) return;
        this.waiting.get(ref).reject(Object.assign(new Error(SILENT), { code: "no_answer" }));
        this.waiting.delete(ref);
        if (this.ws === ws) this.reopen(ws);
      }, ANSWER_WAIT);
      const done = (fn) => (value) => { clearTimeout(timer); fn(value); };
      this.waiting.set(ref, { resolve: done(resolve), reject: done(reject) });
      ws.send(JSON.stringify({ act: body, ref }));
    });
  }

  // Give up on `ws` (it answers nothing, or sent what does not fit): its pending actions are told, and a new socket
  // opens now rather than after the old one's closing handshake, which a dead link may make wait.
  reopen(ws) {
    ws.onclose = ws.onmessage = null;
    ws.close();
    this.dropped();
    this.onStatus("connecting again…", true);
    this.open();
  }

  dropped() {
    for (const { reject } of this.waiting.values()) reject(Object.assign(new Error(DROPPED), { code: "dropped" }));
    this.waiting.clear();
  }

  // Keep the seat's socket open: every closed socket is opened again after a wait (RETRY_FIRST doubling to
  // RETRY_MOST, each drawn between half and all of it so that a server's pages do not all come back at one
  // instant), and the page says what it waits for and how long: a server out of reach, a refusal (the table's
  // database not answering, too many wrong tokens, too many requests). Only a token the server says is wrong
  // (FINAL) stops the page: no wait would mend it. The browser coming online, or the page being shown again, tries
  // at once.
  connect(onMessage, onStatus) {
    this.onStatus = onStatus;
    this.tries = 0;
    const open = (this.open = () => {
      if (this.closed) return;
      clearTimeout(this.retryTimer); clearInterval(this.ticker); this.retryAt = null;
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = (this.ws = new WebSocket(`${proto}//${location.host}/api/tables/${this.tableId}/ws`));
      let refused = null, greeted = false;
      ws.onopen = () => { ws.send(JSON.stringify({ token: this.token, protocol: 2 })); };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.reply !== undefined) { this.answered(msg); return; }
        if (msg.code) {
          refused = msg;
          if (FINAL.has(msg.code)) { this.closed = true; onStatus(msg.message, true); }
          return; // the server closes the socket after a refusal: onclose waits, then tries again
        }
        try {
          this.msg = msg.patch ? applyPatch(this.msg, msg.patch) : msg;
        } catch { this.reopen(ws); return; } // out of step with the server: the whole message again
        if (!greeted) { greeted = true; this.tries = 0; onStatus("connected"); } // the seat is served again
        onMessage(this.msg);
      };
      ws.onclose = () => {
        this.dropped();
        if (this.closed || this.ws !== ws) return;
        this.retry(refused);
      };
    });
    const now = () => { if (this.retryAt !== null && this.retryAt !== undefined) open(); };
    addEventListener("online", now);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") now(); });
    open();
  }

  // Wait, then open a new socket; the status counts the seconds down (`refused`: the refusal the last socket got).
  retry(refused) {
    const most = Math.min(RETRY_MOST, RETRY_FIRST * 2 ** this.tries++);
    const wait = most / 2 + Math.random() * most / 2;
    const why = waitingFor(refused);
    this.retryAt = Date.now() + wait;
    const say = () => this.onStatus(`${why}; trying again`, true, Math.max(1, Math.ceil((this.retryAt - Date.now()) / 1000)));
    say();
    this.ticker = setInterval(say, 1000);
    this.retryTimer = setTimeout(() => { this.onStatus(`${why}; trying again…`, true); this.open(); }, wait);
  }

  answered(msg) {
    const waiting = this.waiting.get(msg.reply);
    if (!waiting) return;
    this.waiting.delete(msg.reply);
    if (msg.answer) waiting.resolve(msg.answer);
    else waiting.reject(Object.assign(new Error(msg.refused.message), { code: msg.refused.code, reason: msg.refused.reason,
                                                                        data: msg.refused }));
  }
}

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function submissionId() {
  return `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

// A rule ID in a server's sentence ("(SC-21)", "(WH-03, WH-B18)"): shown as help text, not in the words.
const RULES = /\s*\(((?:[A-Z]{1,3}-[A-Z]?\d+[a-z]?)(?:[,;]\s*[A-Z]{1,3}-[A-Z]?\d+[a-z]?)*)\)/g;

// Plain words for a sentence from the server: rule IDs moved out (returned as `rules`), "[3, 4]" squares as (3, 4).
export function plain(text) {
  const rules = [];
  const words = String(text ?? "").replace(RULES, (_, ids) => { rules.push(ids); return ""; })
    .replace(/\[(-?\d+), (-?\d+)\]/g, "($1, $2)").trim();
  return { words, rules: rules.join(", ") };
}

// `text` in plain words as HTML, its rule IDs as the element's help (a title) where there are any.
export function plainHtml(text, tag = "span", cls = "") {
  const { words, rules } = plain(text);
  const title = rules ? ` title="rules ${esc(rules)}"` : "";
  return `<${tag}${cls ? ` class="${cls}"` : ""}${title}>${esc(words)}</${tag}>`;
}

// A phase as a person says it: "attack_of_opportunity" -> "Attack of opportunity".
export function words(name) {
  const s = String(name ?? "").replace(/_/g, " ");
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}
