// The page's client of the table server's API (issue 14): HTTP with the seat's bearer token, and a WebSocket that
// reconnects by itself (bounded backoff) and hands every message to the page.
export class Client {
  constructor(tableId, token) { this.tableId = tableId; this.token = token; this.ws = null; this.closed = false; }

  async call(method, path, body) {
    const headers = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`/api/tables/${this.tableId}${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch { data = { code: "bad_answer", message: `The server answered ${res.status}.` }; }
    if (!res.ok) throw Object.assign(new Error(data.message || `HTTP ${res.status}`), { code: data.code, data });
    return data;
  }

  connect(onMessage, onStatus) {
    let delay = 250;
    const open = () => {
      if (this.closed) return;
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = (this.ws = new WebSocket(`${proto}//${location.host}/api/tables/${this.tableId}/ws`));
      ws.onopen = () => { delay = 250; ws.send(JSON.stringify({ token: this.token })); onStatus("live"); };
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
