// The GM's page: the seats (listed by the server, GET /gm/seats, in any browser) with their links where this browser
// holds them (kept from the table's creation or a new link: the server keeps only hashes, so in another browser a
// seat's link is made anew), and the GM tools of the table server: take back (after a confirmation), pause and
// resume, the Drama Timer with its countdown, a new link for a seat, end the fight.
import { esc } from "./api.js";

const linksKey = (tableId) => `affray.created.${tableId}`;

export function storeCreated(answer) {
  localStorage.setItem(linksKey(answer.table), JSON.stringify(answer));
  localStorage.setItem(`affray.token.${answer.table}`, answer.gm.token);
}

function created(tableId) {
  try { return JSON.parse(localStorage.getItem(linksKey(tableId)) || "null"); } catch { return null; }
}

// The seats that have a link (people's seats and the spectators'), from the server's list when it has come, else
// from what this browser kept at the table's creation.
function linkedSeats(page) {
  if (page.seats) return page.seats.filter((s) => s.link && s.role !== "gm");
  const data = created(page.msg.table);
  return Object.entries(data?.seats || {}).map(([seat, s]) => ({ seat, actors: s.actors || [], role: s.role || "" }));
}

export function linksPanel(page) {
  const kept = created(page.msg.table)?.seats || {};
  const rows = linkedSeats(page).map((s) => {
    const link = kept[s.seat]?.link;
    const cell = link
      ? `<input readonly class="mono" size="40" aria-label="link for ${esc(s.seat)}" value="${esc(`${location.origin}${link}`)}" data-link="${esc(s.seat)}">`
      : `<span class="small muted" data-no-link="${esc(s.seat)}">made in another browser: make a new one to share it (the old link stops working)</span>`;
    const copy = link ? `<button type="button" class="secondary" data-gm="copy" data-seat="${esc(s.seat)}">copy</button>` : "";
    return `<tr data-seat-row="${esc(s.seat)}"><td><b>${esc(s.seat)}</b><br><span class="small muted">${esc((s.actors || []).join(", ") || s.role || "")}</span></td>` +
      `<td>${cell}</td><td>${copy}<button type="button" class="secondary" data-gm="replace" data-seat="${esc(s.seat)}">new link</button></td></tr>`;
  });
  return `<h2>Seat links</h2>` + (rows.length ? `<table class="links">${rows.join("")}</table>`
    : `<p class="muted">No seat has a link: the server's policies play every combatant.</p>`);
}

// The server's list of seats, asked once per page (and after each new link).
export async function loadSeats(page, client, render) {
  try { page.seats = await client.call("GET", "/gm/seats"); render(); } catch { page.seats = null; }
}

export function gmPanel(page, names) {
  const msg = page.msg;
  const entries = [...page.log.values()].sort((a, b) => a.seq - b.seq);
  const options = entries.map((e) => `<option value="${e.seq}">before #${e.seq} (${esc(names[e.actor] || e.actor || e.seat)}: ${esc(e.action?.type || e.kind)})</option>`).reverse().join("");
  const confirm = page.confirm
    ? `<p class="warnbox" id="gm-confirm">${esc(page.confirm.text)} <button type="button" class="danger" data-gm="confirm">Yes, ${esc(page.confirm.verb)}</button>` +
      `<button type="button" class="secondary" data-gm="cancel">Cancel</button></p>` : "";
  const seatOptions = linkedSeats(page).map((s) => `<option>${esc(s.seat)}</option>`).join("");
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
    loadSeats(page, client, render);
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
