// The GM's page: the seat links (kept in this browser from the table's creation: the server keeps only hashes),
// and the GM tools of the table server: take back (after a confirmation), pause and resume, the Drama Timer with
// its countdown, a new link for a seat, end the fight.
import { esc } from "./api.js";

const linksKey = (tableId) => `affray.created.${tableId}`;

export function storeCreated(answer) {
  localStorage.setItem(linksKey(answer.table), JSON.stringify(answer));
  localStorage.setItem(`affray.token.${answer.table}`, answer.gm.token);
}

function created(tableId) {
  try { return JSON.parse(localStorage.getItem(linksKey(tableId)) || "null"); } catch { return null; }
}

export function linksPanel(tableId) {
  const data = created(tableId);
  const seats = data ? Object.entries(data.seats || {}) : [];
  const rows = seats.map(([seat, s]) => {
    const url = `${location.origin}${s.link}`;
    return `<tr data-seat-row="${esc(seat)}"><td><b>${esc(seat)}</b><br><span class="small muted">${esc((s.actors || []).join(", ") || s.role || "")}</span></td>` +
      `<td><input readonly class="mono" size="40" aria-label="link for ${esc(seat)}" value="${esc(url)}" data-link="${esc(seat)}"></td>` +
      `<td><button type="button" class="secondary" data-gm="copy" data-seat="${esc(seat)}">copy</button>` +
      `<button type="button" class="secondary" data-gm="replace" data-seat="${esc(seat)}">new link</button></td></tr>`;
  });
  return `<h2>Seat links</h2>` + (rows.length ? `<table class="links">${rows.join("")}</table>`
    : `<p class="muted">The links were shown when the table was created, in another browser. Make a new link for a seat with the GM tools.</p>`);
}

export function gmPanel(page, names) {
  const msg = page.msg;
  const entries = [...page.log.values()].sort((a, b) => a.seq - b.seq);
  const options = entries.map((e) => `<option value="${e.seq}">before #${e.seq} (${esc(names[e.actor] || e.actor || e.seat)}: ${esc(e.action?.type || e.kind)})</option>`).reverse().join("");
  const confirm = page.confirm
    ? `<p class="warnbox" id="gm-confirm">${esc(page.confirm.text)} <button type="button" class="danger" data-gm="confirm">Yes, ${esc(page.confirm.verb)}</button>` +
      `<button type="button" class="secondary" data-gm="cancel">Cancel</button></p>` : "";
  const seats = Object.keys(created(msg.table)?.seats || {});
  const seatOptions = seats.map((s) => `<option>${esc(s)}</option>`).join("");
  return `<h2>GM tools</h2>${confirm}` +
    `<p><label>Take back to <select id="gm-to">${options}</select></label><button type="button" data-gm="take-back"${options ? "" : " disabled"}>Take back…</button></p>` +
    `<p>${msg.paused ? '<button type="button" data-gm="resume">Resume</button>' : '<button type="button" data-gm="pause">Pause</button>'}</p>` +
    `<p><label>Drama Timer seconds <input id="gm-seconds" type="number" min="1" max="3600" value="60"></label>` +
    `<button type="button" data-gm="timer">Start the timer</button><button type="button" class="secondary" data-gm="timer-stop">Stop</button></p>` +
    (seatOptions ? `<p><label>Seat <select id="gm-seat">${seatOptions}</select></label><button type="button" class="secondary" data-gm="replace-selected">New link for this seat</button></p>` : "") +
    `<p><button type="button" class="danger" data-gm="end">End the fight…</button></p>`;
}

async function copy(seat) {
  const input = document.querySelector(`[data-link="${CSS.escape(seat)}"]`);
  if (!input) return;
  input.select();
  try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand?.("copy"); }
}

export function wireGm(page, client, render, showError) {
  const run = async (fn) => { try { await fn(); } catch (err) { showError(err.message); } };
  const replace = (seat) => run(async () => {
    const answer = await client.call("POST", `/gm/seats/${encodeURIComponent(seat)}/token`);
    const data = JSON.parse(localStorage.getItem(linksKey(page.msg.table)) || "null") || { table: page.msg.table, seats: {} };
    data.seats[seat] = { ...(data.seats[seat] || {}), token: answer.token, link: answer.link };
    localStorage.setItem(linksKey(page.msg.table), JSON.stringify(data));
    render();
  });
  document.addEventListener("click", (ev) => {
    const t = ev.target.closest("[data-gm]");
    if (!t || !page.msg) return;
    const what = t.dataset.gm;
    if (what === "copy") copy(t.dataset.seat);
    else if (what === "replace") replace(t.dataset.seat);
    else if (what === "replace-selected") replace(document.getElementById("gm-seat").value);
    else if (what === "pause" || what === "resume") run(() => client.call("POST", `/gm/${what}`));
    else if (what === "timer") run(() => client.call("POST", "/gm/timer", { seconds: Number(document.getElementById("gm-seconds").value) }));
    else if (what === "timer-stop") run(() => client.call("POST", "/gm/timer", { seconds: null }));
    else if (what === "take-back") {
      const to = Number(document.getElementById("gm-to").value);
      page.confirm = { verb: "take back", text: `Take the fight back to version ${to}? Every seat follows.`,
                       call: () => client.call("POST", "/gm/take_back", { to, version: page.msg.version, confirm: true }) };
      render();
    } else if (what === "end") {
      page.confirm = { verb: "end it", text: "End the fight now? The seed is revealed.", call: () => client.call("POST", "/gm/end") };
      render();
    } else if (what === "confirm") {
      const call = page.confirm?.call; page.confirm = null; render();
      if (call) run(call);
    } else if (what === "cancel") { page.confirm = null; render(); }
  });
}
