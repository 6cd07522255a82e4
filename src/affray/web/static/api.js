// The page's client of the table server's API: HTTP with the seat's bearer token, and a WebSocket that reconnects
// by itself (bounded backoff) and hands every message to the page. Helpers every part of the page shares: escaping,
// submission ids, and plain words (rule IDs out of the text, kept as help).
export const UNREACHABLE = "The server cannot be reached; nothing was sent. Check the connection and try again.";

export class Client {
  constructor(tableId, token) { this.tableId = tableId; this.token = token; this.ws = null; this.closed = false; }

  get live() { return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN); }

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

  connect(onMessage, onStatus) {
    let delay = 250;
    const open = () => {
      if (this.closed) return;
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = (this.ws = new WebSocket(`${proto}//${location.host}/api/tables/${this.tableId}/ws`));
      ws.onopen = () => { delay = 250; ws.send(JSON.stringify({ token: this.token })); onStatus("connected"); };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.code) { this.closed = true; onStatus(msg.message, true); return; }
        onMessage(msg);
      };
      ws.onclose = () => {
        if (this.closed) return;
        onStatus("reconnecting…", true);
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      };
    };
    open();
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
