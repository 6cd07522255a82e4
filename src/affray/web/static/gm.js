// The GM's page: every seat's link (kept in this browser from the table's creation, from the GM link's fragment, or
// from a new link: the server keeps only hashes) with a copy button, a QR code for phones, a code to join in-world
// (docs/secondlife.md) and whether the seat is connected now; the GM's tools (take back after a confirmation, pause and resume, the Drama Timer where the table
// has it, a new link for a seat, end the fight); and rulings: click a combatant (its card or its token) to change
// its bars, statuses, position or take it out, with a reason every seat reads; drag a token to move it.
import { esc, plain, submissionId } from "./api.js";

// The QR library is loaded on the GM's page only, the first time a QR code is asked for (a player's page never
// fetches it). The links carry the server's address for the people at the table when it gave one (a server started
// with --lan: its LAN address, so a phone can open them even when the GM's browser opened 127.0.0.1), else this page's.
let qrcode = null;
const qrLibrary = async () => { qrcode ||= (await import("./vendor/qrcode.js")).default; };
const publicBase = () => document.querySelector('meta[name="affray-public-url"]')?.content || location.origin;

const linksKey = (tableId) => `affray.created.${tableId}`;

export function storeCreated(answer) {
  localStorage.setItem(linksKey(answer.table), JSON.stringify(answer));
  localStorage.setItem(`affray.token.${answer.table}`, answer.gm.token);
}

// A GM link made by `affray table new` carries every seat's token after the GM's: "#GM&seat=TOKEN&...". They are kept
// in this browser (as the lobby keeps them) and the address bar is left with the GM's own token only.
export function keepFragmentLinks(tableId, fragment) {
  const [own, ...pairs] = fragment.split("&");
  if (!pairs.length) return own;
  const data = created(tableId) || { table: tableId, seats: {} };
  for (const pair of pairs) {
    const [seat, token] = pair.split("=");
    if (seat && token) data.seats[seat] = { ...(data.seats[seat] || {}), token, link: `/t/${tableId}#${token}` };
  }
  localStorage.setItem(linksKey(tableId), JSON.stringify(data));
  history.replaceState(null, "", `${location.pathname}#${own}`);
  return own;
}

function created(tableId) {
  try { return JSON.parse(localStorage.getItem(linksKey(tableId)) || "null"); } catch { return null; }
}

// The seats that have a link (people's seats and the spectators'), from the server's list when it has come, else
// from what this browser kept.
function linkedSeats(page) {
  if (page.seats) return page.seats.filter((s) => s.link && s.role !== "gm");
  const data = created(page.msg.table);
  return Object.entries(data?.seats || {}).map(([seat, s]) => ({ seat, actors: s.actors || [], role: s.role || "" }));
}

const drawnQr = new Map(); // link -> its SVG: the GM's page draws each link's code once, not on every message

function qrSvg(text) {
  if (!drawnQr.has(text)) drawnQr.set(text, drawQr(text));
  return drawnQr.get(text);
}

function drawQr(text) {
  // The link as a QR code (error correction M), drawn as one SVG path of dark modules with a quiet zone of 4.
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount(), size = n + 8;
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  return `<svg class="qr" viewBox="0 0 ${size} ${size}" role="img" aria-label="QR code of the link"><rect class="qr-bg" width="${size}" height="${size}"/><path class="qr-fg" d="${d}"/></svg>`;
}

// The seats whose link the GM has copied or shown as a QR code, kept per table in this browser: once every seat's has
// been, the links fold away (a <details> the GM can open again).
const seenKey = (tableId) => `affray.linksSeen.${tableId}`;
function seenLinks(tableId) {
  try { return new Set(JSON.parse(localStorage.getItem(seenKey(tableId)) || "[]")); } catch { return new Set(); }
}
function markSeen(page, seat) {
  const seen = seenLinks(page.msg.table);
  seen.add(seat);
  localStorage.setItem(seenKey(page.msg.table), JSON.stringify([...seen]));
  const all = linkedSeats(page).every((s) => seen.has(s.seat));
  if (all && page.opened) page.opened.delete("seat-links");
}

export function linksPanel(page, names) {
  const kept = created(page.msg.table)?.seats || {};
  const listed = linkedSeats(page);
  if (page.opened && !page.linksFolded && listed.length) { // opened at first unless every link was seen here already
    page.linksFolded = true;
    const seen = seenLinks(page.msg.table);
    if (!listed.every((s) => seen.has(s.seat))) page.opened.add("seat-links");
  }
  const connected = page.msg.connected || {};
  const rows = linkedSeats(page).map((s) => {
    const link = kept[s.seat]?.link;
    const url = link ? `${publicBase()}${link}` : "";
    const who = (s.actors || []).map((a) => names[a] || a).join(", ") || (s.role === "spectator" ? "Spectator (watches only)" : "");
    const online = connected[s.seat] ? `<span class="online">connected</span>` : `<span class="offline">not connected</span>`;
    const cell = link
      ? `<input readonly class="mono" aria-label="link for ${esc(s.seat)}" value="${esc(url)}" data-link="${esc(s.seat)}">`
      : `<span class="small muted" data-no-link="${esc(s.seat)}">made in another browser: make a new one to share it (the old link stops working)</span>`;
    const buttons = (link ? `<button type="button" class="secondary" data-gm="copy" data-seat="${esc(s.seat)}">copy</button>` +
      `<button type="button" class="secondary" data-gm="qr" data-seat="${esc(s.seat)}" aria-expanded="${page.qr === s.seat}">QR</button>` : "") +
      `<button type="button" class="secondary" data-gm="replace" data-seat="${esc(s.seat)}">new link</button>` +
      (s.role === "player" ? `<button type="button" class="secondary" data-gm="code" data-seat="${esc(s.seat)}" title="A code to type in-world (/5 join CODE): once, for 15 minutes; claiming it retires the seat's link">in-world code</button>` : "");
    const code = page.codes?.[s.seat];
    const inworld = code ? `<p class="small" data-code="${esc(s.seat)}">In-world: <b class="mono">/5 join ${esc(code.code)}</b> (once, until ${esc(new Date(code.expires_at * 1000).toLocaleTimeString())})</p>` : "";
    const qr = link && page.qr === s.seat ? `<div class="qr-box" data-qr="${esc(s.seat)}">${qrSvg(url)}<p class="small">Scan with the player's phone.</p></div>` : "";
    return `<li class="seat-link" data-seat-row="${esc(s.seat)}"><div><b>${esc(who || s.seat)}</b> ${online}</div>` +
      `<div class="link-row">${cell}${buttons}</div>${inworld}${qr}</li>`;
  });
  const copied = page.copied ? `<p class="small ok" role="status">${esc(page.copied)}</p>` : "";
  if (!rows.length) return `<h2>Seat links</h2><p class="muted">No seat has a link: the server's policies play every combatant.</p>`;
  const open = page.opened?.has("seat-links") ? " open" : "";
  return `<h2>Seat links</h2><details class="seat-links" data-open="seat-links"${open}><summary>Every seat's link (${rows.length})</summary>` +
    `<p class="small">Send each player their link; whoever opens it plays that seat.</p><ul class="links">${rows.join("")}</ul></details>${copied}`;
}

// The server's list of seats, asked once per page (and after each new link).
export async function loadSeats(page, client, render) {
  try { page.seats = await client.call("GET", "/gm/seats"); render(); } catch { page.seats = null; }
}

function takeBackOptions(page, names) {
  // Each earlier point of the fight, named by the move that came after it (as the story tells it).
  const entries = [...page.log.values()].sort((a, b) => a.seq - b.seq);
  return entries.map((e) => {
    const said = e.text || (e.events || []).map((x) => x.text).find(Boolean) || `${names[e.actor] || "someone"} acts`;
    const short = plain(said).words.slice(0, 70);
    return `<option value="${e.seq}">before move ${e.seq + 1}: ${esc(short)}</option>`;
  }).reverse().join("");
}

// Every GM tool asks for a reason every seat reads: the box, and the reason read from it (a tool refuses to go on
// without one).
const reasons = {}; // what the GM has typed in each reason box, kept across renders
const reasonBox = (id) => `<p><label>Reason (every seat reads it) <input id="${id}" data-reason maxlength="300" required autocomplete="off" value="${esc(reasons[id] || "")}"></label></p>`;
const reasonIn = (id) => (document.getElementById(id)?.value || "").trim();

function dragBox(page) {
  // A token dropped on a square: the move waits for its reason.
  const d = page.drag;
  if (!d) return "";
  return `<div class="warnbox" id="gm-drag" role="group" aria-label="move by the GM"><p>Move ${esc(d.name)} to (${esc(d.square.join(", "))})?</p>${reasonBox("drag-reason")}` +
    `<p><button type="button" data-gm="drag-apply">Move it</button><button type="button" class="secondary" data-gm="drag-cancel">Cancel</button></p></div>`;
}

export function gmPanel(page, names) {
  const msg = page.msg;
  const confirm = page.confirm
    ? `<div class="warnbox" id="gm-confirm" role="group" aria-label="confirm"><p>${esc(page.confirm.text)}</p>${reasonBox("gm-reason")}` +
      `<p><button type="button" class="danger" data-gm="confirm">Yes, ${esc(page.confirm.verb)}</button>` +
      `<button type="button" class="secondary" data-gm="cancel">Cancel</button></p></div>` : "";
  const options = takeBackOptions(page, names);
  // The countdown the ruleset declares, on tables where it is on (the server names it: msg.countdown).
  const countdown = msg.countdown;
  const timer = countdown ? `<p><label>${esc(countdown.name)} seconds <input id="gm-seconds" type="number" min="1" max="3600" value="${esc(countdown.seconds || 60)}"></label>` +
    `<button type="button" data-gm="timer">Start the ${esc(countdown.name)}</button><button type="button" class="secondary" data-gm="timer-stop">Stop</button></p>` : "";
  return `<h2>GM tools</h2>${confirm}${dragBox(page)}<p class="small">Click a combatant (its card or its token) to rule on it; drag a token to move it.</p>` +
    `<p><label>Take back to <select id="gm-to">${options}</select></label><button type="button" data-gm="rewind"${options ? "" : " disabled"}>Take back…</button></p>` +
    `<p>${msg.paused ? '<button type="button" data-gm="resume">Resume</button>' : '<button type="button" data-gm="pause">Pause</button>'}` +
    `<button type="button" class="danger" data-gm="end">End the fight…</button></p>${timer}${mapUploadBlock(page)}${hiddenBlock(page)}${addBlock(page)}`;
}

// -- reinforcements: "Add a combatant" (docs/table.md, "Reinforcements") --------------------------------------------
// A library entry found by a search (GET /api/content/RULESET?q=), an id and a name, a side and a square clicked on
// the board; sent as a ruling's change {add, side, place}. The server resolves the entry (the record holds its
// stats) and refuses in its own words (an id in use, a taken square), which are shown at the form.
const adding = { id: "", name: "", use: "", side: "", square: null, metres: "", place: "0", places: [], written: "", reason: "", found: [], note: "", placing: false };

// The places a newcomer may take where the fight has places (joins "place"): the GM's tools' own list (GET /gm/adjust,
// any combatant's form), each named by who stands there, never by its number; none where the mode takes no place.
function joinPlaces(page, forms) {
  const first = Object.values(forms || {})[0] || {};
  const labels = first.place_labels || [], people = page.view?.combatants || [];
  return (first.places || []).map((p, i) => {
    const here = people.filter((c) => String(c.position?.x) === String(p)).map((c) => c.name);
    return { value: p, label: typeof p === "number" && here.length ? `with ${here.join(" and ")}` : labels[i] || String(p) };
  });
}

function addBlock(page) {
  // What place a newcomer takes is the server's word (GET /gm/adjust "joins"), asked when the GM opens the form.
  if (page.joins === undefined) return `<p><button type="button" class="secondary" data-add-do="open">Add a combatant…</button></p>`;
  if (!page.joins) return `<p class="small">This fight takes no reinforcements.</p>`;
  const sides = [...new Set((page.view?.combatants || []).map((c) => c.side))];
  const side = adding.side || sides[0] || "";
  const options = sides.map((s) => `<option${s === side ? " selected" : ""}>${esc(s)}</option>`).join("");
  const found = adding.found.map((e) => `<option value="${esc(e.id)}">${esc(e.summary || e.name)}</option>`).join("");
  const square = adding.square ? `(${adding.square.join(", ")})` : "none yet";
  const place = page.joins === "place"
    ? (adding.places.length ? `<p><label>Place <select id="add-place" data-add="place">${adding.places.map((p, i) =>
        `<option value="${i}"${String(i) === adding.place ? " selected" : ""}>${esc(p.label)}</option>`).join("")}</select></label></p>` : "")
    : page.joins === "line"
    ? `<p><label>Metres on the line <input id="add-metres" type="number" step="0.5" value="${esc(adding.metres)}" data-add="metres"></label></p>`
    : `<p>Square: ${esc(square)} <button type="button" class="secondary" data-add-do="place"${adding.placing ? ' aria-pressed="true"' : ""}>` +
      `${adding.placing ? "Click a square on the board…" : "Choose the square"}</button></p>`;
  return `<div class="add-combatant" role="group" aria-labelledby="gm-add-label"><p id="gm-add-label"><strong>Add a combatant</strong></p>` +
    `<p><label>Library <input id="add-use" list="add-found" value="${esc(adding.use)}" data-add="use"></label>` +
    `<datalist id="add-found">${found}</datalist><button type="button" class="secondary" data-add-do="search">Search</button></p>` +
    `<p><label>Id <input id="add-id" value="${esc(adding.id)}" data-add="id"></label> ` +
    `<label>Name <input id="add-name" value="${esc(adding.name)}" data-add="name"></label> ` +
    `<label>Side <select id="add-side" data-add="side">${options}</select></label></p>` +
    `<p><label>Or written in place (YAML, as a scenario writes one combatant) <textarea id="add-written" rows="3" ` +
    `data-add="written" placeholder="id: gate_guard&#10;name: Gate Guard&#10;use: ...">${esc(adding.written)}</textarea></label></p>` +
    place + `<p><label>Reason <input id="add-reason" value="${esc(adding.reason)}" data-add="reason"></label>` +
    `<button type="button" data-add-do="add">Add it</button></p>` +
    `<p class="small" role="status" id="add-note">${esc(adding.note)}</p></div>`;
}

function wireAdd(page, client, render) {
  document.addEventListener("input", (ev) => { const k = ev.target.dataset?.add; if (k) adding[k] = ev.target.value; });
  document.addEventListener("change", (ev) => { const k = ev.target.dataset?.add; if (k) adding[k] = ev.target.value; });
  // While placing, a square clicked is the newcomer's: taken before the page's own handler sees it.
  document.addEventListener("click", (ev) => {
    const sq = adding.placing && page.msg?.role === "gm" ? ev.target.closest?.("[data-xy]") : null;
    if (!sq) return;
    ev.stopPropagation(); ev.preventDefault();
    adding.square = sq.dataset.xy.split(",").map(Number); adding.placing = false; render();
  }, true);
  document.addEventListener("click", async (ev) => {
    const t = ev.target.closest?.("[data-add-do]");
    if (!t || page.msg?.role !== "gm") return;
    const what = t.dataset.addDo;
    if (what === "place") { adding.placing = !adding.placing; render(); return; }
    if (what === "open") {
      try {
        const answer = await client.call("GET", "/gm/adjust");
        page.joins = answer.joins || null;
        adding.places = joinPlaces(page, answer.combatants);
      } catch (err) { adding.note = err.message; }
      render(); return;
    }
    if (what === "search") {
      try {
        const ruleset = page.view?.ruleset || page.msg?.ruleset;
        const answer = await fetch(`/api/content/${encodeURIComponent(ruleset)}?q=${encodeURIComponent(adding.use)}`).then((r) => r.json());
        adding.found = answer.entries || [];
        adding.note = `${adding.found.length} found.`;
      } catch (err) { adding.note = err.message; }
      render(); return;
    }
    const sides = [...new Set((page.view?.combatants || []).map((c) => c.side))];
    // written in place: the GM's YAML text as it is (the server reads it safely); else the library entry
    const combatant = adding.written.trim() ? adding.written : { id: adding.id.trim(), use: adding.use.trim() };
    if (typeof combatant === "object" && adding.name.trim()) combatant.name = adding.name.trim();
    try {
      const place = page.joins === "place" ? (adding.places[Number(adding.place)]?.value ?? null)
        : page.joins === "line" ? (adding.metres === "" ? null : Number(adding.metres)) : adding.square;
      await rule(page, client, [{ add: combatant, side: adding.side || sides[0], place }], adding.reason);
      const who = typeof combatant === "object" ? combatant.name || combatant.id : "The combatant";
      Object.assign(adding, { id: "", name: "", written: "", square: null, metres: "", reason: "", note: `${who} joins the fight.` });
    } catch (err) { adding.note = err.message; }
    render();
  });
}

// -- hidden foes: a Reveal button per combatant only the GM sees (docs/table.md, "Hidden foes") ---------------------
// The server marks them in the GM's view with the status "Hidden"; a reveal is a ruling ({combatant, reveal: true}),
// in the log and the chain like any other, and taken back like one.
function hiddenBlock(page) {
  const hidden = (page.view?.combatants || []).filter((c) => (c.statuses || []).some((s) => s.name === "Hidden"));
  if (!hidden.length) return "";
  const buttons = hidden.map((c) => `<button type="button" data-reveal="${esc(c.id)}">Reveal ${esc(c.name)}</button>`).join("");
  return `<div class="hidden-foes" role="group" aria-label="hidden foes"><p class="small">Hidden from the players: ` +
    `${esc(hidden.map((c) => c.name).join(", "))}.</p><p>${buttons}</p></div>`;
}

function wireHidden(page, client, render, showError) {
  document.addEventListener("click", (ev) => {
    const t = ev.target.closest?.("[data-reveal]");
    if (!t || page.msg?.role !== "gm") return;
    rule(page, client, [{ combatant: t.dataset.reveal, reveal: true }], "").then(render, (err) => showError(err.message));
  });
}

// -- the map image: uploaded or replaced mid-table (docs/table.md, "The map image") --------------------------------
// A file input and "Upload map"; the file chosen is kept here (a push that redraws the panel empties a file input),
// and the server's answer is shown at the field: the new version, or its refusal in its own words (an SVG, a file
// too large, not a picture). Every seat's page then fetches the new picture (board.js, mapPicture).
const mapUpload = { file: null, note: "", bad: false, busy: false };

function mapUploadBlock(page) {
  const map = page.msg.map;
  const now = map ? `The map image: version ${map.version}, ${Math.max(1, Math.round(map.bytes / 1024))} KB.` : "No map image yet.";
  const chosen = mapUpload.file ? ` Chosen: ${mapUpload.file.name}.` : "";
  const note = mapUpload.note || `${now}${chosen}`;
  const bad = mapUpload.bad ? ' aria-invalid="true"' : "";
  return `<div class="map-upload" role="group" aria-labelledby="gm-map-label"><label id="gm-map-label">Map image (PNG, JPEG or WebP, at most 4 MB) ` +
    `<input type="file" id="gm-map-file" accept="image/png,image/jpeg,image/webp" aria-describedby="gm-map-note"${bad}></label>` +
    `<button type="button" data-map-upload${mapUpload.busy ? " disabled" : ""}>Upload map</button>` +
    `<p id="gm-map-note" class="small map-note${mapUpload.bad ? " warnbox" : ""}" role="${mapUpload.bad ? "alert" : "status"}">${esc(note)}</p></div>`;
}

async function uploadMap(client) {
  const file = mapUpload.file;
  if (!file) return { note: "Choose a picture first: a PNG, JPEG or WebP file.", bad: true };
  let res;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(client.tableId)}/gm/map`, { method: "POST", body: file,
      headers: { Authorization: `Bearer ${client.token}`, "Content-Type": file.type || "application/octet-stream" } });
  } catch {
    return { note: "The server cannot be reached; the map was not sent. Try again.", bad: true };
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) return { note: data.message || `The server answered ${res.status}; the map was not kept.`, bad: true };
  mapUpload.file = null;
  return { note: `Uploaded ${file.name}: every seat now sees map version ${data.map?.version}.`, bad: false };
}

function wireMapUpload(page, client, render) {
  document.addEventListener("change", (ev) => {
    if (ev.target.id !== "gm-map-file") return;
    mapUpload.file = ev.target.files?.[0] || null;
    mapUpload.note = ""; mapUpload.bad = false;
    render();
    document.getElementById("gm-map-file")?.focus(); // the redrawn panel's input, where the GM was
  });
  document.addEventListener("click", async (ev) => {
    if (!ev.target.closest?.("[data-map-upload]") || page.msg?.role !== "gm" || mapUpload.busy) return;
    mapUpload.busy = true; render();
    const said = await uploadMap(client);
    Object.assign(mapUpload, said, { busy: false });
    render();
    if (said.bad) document.getElementById("gm-map-file")?.focus();
  });
}

// -- rulings -------------------------------------------------------------------------------------------------------

export function editorPanel(page, v) {
  const id = page.editing, forms = page.forms?.[id];
  if (!id) return "";
  const c = v.combatants.find((x) => x.id === id);
  if (!c) return "";
  if (!forms) return `<h2>Rule on ${esc(c.name)}</h2><p class="muted">Loading what can be changed…</p>`;
  const bars = (forms.bars || []).map((b) => {
    const now = (c.bars || []).find((x) => x.name === b.name)?.value ?? "";
    return `<label>${esc(b.name)} <input type="number" data-edit-bar="${esc(b.name)}" min="${esc(b.min)}" max="${esc(b.max)}" value="${esc(now)}"></label>`;
  }).join("");
  const has = (c.statuses || []).map((s) => `<span class="status">${esc(s.name)} <button type="button" class="linkish" data-edit-remove="${esc(s.name)}" aria-label="remove ${esc(s.name)}">remove</button></span>`).join(" ");
  const given = (forms.statuses || []).includes(page.editStatus) ? page.editStatus : (forms.statuses || [])[0];
  const statusChoices = (forms.statuses || []).map((s) => `<option${s === given ? " selected" : ""}>${esc(s)}</option>`).join("");
  // How long it lasts, only where this ruleset's status takes rounds, in the ruleset's own words (forms.rounds).
  const lasts = (forms.rounds || {})[given] || [];
  const rounds = lasts.length ? ` <label>Lasts <select id="edit-rounds">${lasts.map((r, i) => `<option value="${i}">${esc(r.label)}</option>`).join("")}</select></label>` : "";
  const status = statusChoices ? `<p><label>Give <select id="edit-status">${statusChoices}</select></label>${rounds}` +
    `<button type="button" class="secondary" data-edit="status">give</button></p>` : "";
  let where = "";
  if (forms.position === "square") where = `<p class="small">Position: click a square on the board, or drag the token there.${page.editSquare ? ` Chosen: (${esc(page.editSquare)})` : ""}</p>`;
  else if (forms.position === "line") where = `<label>Position (m) <input type="number" id="edit-line" step="1" value="${esc(c.position?.x ?? "")}"></label>`;
  else if (forms.position === "place") { // chosen by who stands there; the value sent is the place itself (a number)
    const labels = forms.place_labels || [];
    where = `<label>Place <select id="edit-place">${(forms.places || []).map((p, i) => `<option value="${i}"${String(p) === String(c.position?.x) ? " selected" : ""}>${esc(labels[i] || p)}</option>`).join("")}</select></label>`;
  }
  const out = `<label><input type="checkbox" id="edit-out"${forms.out ? " checked" : ""}> out of the fight</label>`;
  return `<h2>Rule on ${esc(c.name)}</h2><div class="editor" data-editor="${esc(id)}">${bars}${has ? `<p>${has}</p>` : ""}${status}${where}${out}` +
    `<label>Reason (every seat reads it) <input id="edit-reason" maxlength="300" value="${esc(page.editReason || "")}"></label>` +
    `<p><button type="button" data-edit="apply">Apply the ruling</button><button type="button" class="secondary" data-edit="close">Close</button></p></div>`;
}

function editorChanges(page, v) {
  // The changes the editor asks for, against the combatant as the GM sees it now.
  const id = page.editing, c = v.combatants.find((x) => x.id === id), forms = page.forms?.[id] || {};
  const changes = [];
  for (const input of document.querySelectorAll("[data-edit-bar]")) {
    const name = input.dataset.editBar, value = Number.parseInt(input.value, 10);
    const now = (c.bars || []).find((b) => b.name === name)?.value;
    if (Number.isInteger(value) && value !== now) changes.push({ combatant: id, bar: name, value });
  }
  if (forms.position === "square" && page.editSquare) changes.push({ combatant: id, position: page.editSquare.split(",").map(Number) });
  const line = document.getElementById("edit-line");
  if (line && line.value !== "" && Number(line.value) !== c.position?.x) changes.push({ combatant: id, position: Number(line.value) });
  const place = document.getElementById("edit-place");
  const chosen = place ? (forms.places || [])[Number(place.value)] : undefined;
  if (chosen !== undefined && String(chosen) !== String(c.position?.x)) changes.push({ combatant: id, position: chosen });
  const out = document.getElementById("edit-out");
  if (out && out.checked !== Boolean(forms.out)) changes.push({ combatant: id, out: out.checked });
  return changes;
}

export async function rule(page, client, changes, reason) {
  return client.call("POST", "/gm/adjust", { version: page.msg.version, id: submissionId(), reason, changes });
}

async function openEditor(page, client, render, id) {
  page.editing = id; page.editSquare = null; render();
  try { page.forms = (await client.call("GET", "/gm/adjust")).combatants; } catch (err) { page.forms = {}; throw err; }
  render();
}

async function copy(page, seat, render) {
  const input = document.querySelector(`[data-link="${CSS.escape(seat)}"]`);
  if (!input) return;
  input.select();
  try { await navigator.clipboard.writeText(input.value); page.copied = "Link copied."; }
  catch { page.copied = "Select the link and copy it (this browser keeps the clipboard closed)."; }
  render();
}

export function wireGm(page, client, render, showError) {
  wireHidden(page, client, render, showError);
  wireAdd(page, client, render);
  const run = async (fn) => { try { await fn(); } catch (err) { showError(err.message); } };
  const replace = (seat) => run(async () => {
    const answer = await client.call("POST", `/gm/seats/${encodeURIComponent(seat)}/token`);
    const data = created(page.msg.table) || { table: page.msg.table, seats: {} };
    data.seats[seat] = { ...(data.seats[seat] || {}), token: answer.token, link: answer.link };
    localStorage.setItem(linksKey(page.msg.table), JSON.stringify(data));
    loadSeats(page, client, render);
  });
  const v = () => page.view;
  // A square clicked while the editor places a combatant is the ruling's square: taken here, before the page's own
  // handler could make it the GM's own move (a square the GM's combatant may move to is one of its choices too).
  const placing = () => page.msg?.role === "gm" && page.editing && page.forms?.[page.editing]?.position === "square";
  const squareOf = (ev) => (placing() ? ev.target.closest?.("[data-xy]") : null);
  document.addEventListener("click", (ev) => {
    const sq = squareOf(ev);
    if (!sq) return;
    ev.stopPropagation(); ev.preventDefault();
    page.editSquare = sq.dataset.xy; render();
  }, true);
  document.addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && squareOf(ev)) { ev.stopPropagation(); ev.preventDefault(); page.editSquare = squareOf(ev).dataset.xy; render(); }
  }, true);
  document.addEventListener("input", (ev) => { if (ev.target.dataset?.reason !== undefined) reasons[ev.target.id] = ev.target.value; });
  document.addEventListener("change", (ev) => { if (ev.target.id === "edit-status") { page.editStatus = ev.target.value; render(); } });
  document.addEventListener("click", (ev) => {
    if (!page.msg || page.msg.role !== "gm") return;
    const t = ev.target.closest("[data-gm], [data-edit], [data-edit-remove], [data-combatant], [data-xy]");
    if (!t) return;
    if (t.dataset.combatant && !ev.target.closest("button, input, select, summary")) { run(() => openEditor(page, client, render, t.dataset.combatant)); return; }
    if (t.dataset.xy) return; // a square: taken in the capture phase below while a ruling places someone
    if (t.dataset.editRemove) { run(() => rule(page, client, [{ combatant: page.editing, remove_status: t.dataset.editRemove }], document.getElementById("edit-reason")?.value || "")); return; }
    const edit = t.dataset.edit;
    if (edit === "close") { page.editing = null; page.editSquare = null; render(); return; }
    if (edit === "status") {
      const name = document.getElementById("edit-status").value, box = document.getElementById("edit-rounds");
      const lasts = (page.forms?.[page.editing]?.rounds || {})[name] || [];
      const rounds = box ? lasts[Number(box.value)]?.value ?? null : null;
      run(() => rule(page, client, [{ combatant: page.editing, status: name, rounds }], document.getElementById("edit-reason")?.value || ""));
      return;
    }
    if (edit === "apply") {
      const changes = editorChanges(page, v());
      if (!changes.length) { showError("Nothing to change: edit a value first."); return; }
      const reason = document.getElementById("edit-reason")?.value || "";
      run(async () => { await rule(page, client, changes, reason); page.editSquare = null; page.editReason = ""; page.forms = (await client.call("GET", "/gm/adjust")).combatants; render(); });
      return;
    }
    const what = t.dataset.gm;
    if (what === "copy") { markSeen(page, t.dataset.seat); copy(page, t.dataset.seat, render); }
    else if (what === "qr") { const seat = t.dataset.seat; markSeen(page, seat); run(async () => { await qrLibrary(); page.qr = page.qr === seat ? null : seat; render(); }); }
    else if (what === "replace") replace(t.dataset.seat);
    else if (what === "code") {  // a seat's claim code for an in-world display (docs/secondlife.md)
      const seat = t.dataset.seat;
      run(async () => { page.codes = { ...(page.codes || {}), [seat]: await client.call("POST", `/gm/seats/${encodeURIComponent(seat)}/code`) }; render(); });
    }
    else if (what === "rule") run(() => openEditor(page, client, render, t.dataset.who));
    else if (what === "pause" || what === "resume") {
      page.confirm = { verb: what, text: what === "pause" ? "Pause the fight? Nobody can act until you resume it." : "Resume the fight?",
                       call: () => client.call("POST", `/gm/${what}`), said: what === "pause" ? "The GM pauses the fight" : "The GM resumes the fight" };
      render();
    }
    else if (what === "timer") run(() => client.call("POST", "/gm/timer", { seconds: Number(document.getElementById("gm-seconds").value) }));
    else if (what === "timer-stop") run(() => client.call("POST", "/gm/timer", { seconds: null }));
    else if (what === "rewind") {
      const select = document.getElementById("gm-to"), to = Number(select.value);
      const point = select.selectedOptions[0]?.textContent || "that point";
      page.confirm = { verb: "take back", text: `Take the fight back to ${point}? Every seat follows.`,
                       call: () => client.call("POST", "/gm/take_back", { to, version: page.msg.version, confirm: true }),
                       said: `The GM takes the fight back to before move ${to + 1}` };
      render();
    } else if (what === "end") {
      page.confirm = { verb: "end it", text: "End the fight now? The seed is revealed.", call: () => client.call("POST", "/gm/end"), said: "The GM ends the fight" };
      render();
    } else if (what === "confirm") {
      const reason = reasonIn("gm-reason");
      if (!reason) { showError("Give a reason: every seat reads it."); document.getElementById("gm-reason")?.focus(); return; }
      const { call, said } = page.confirm || {};
      page.confirm = null; delete reasons["gm-reason"]; render();
      if (call) run(async () => { await call(); await client.call("POST", "/chat", { text: `${said}: ${reason}`, to: null }); });
    } else if (what === "cancel") { page.confirm = null; render(); }
    else if (what === "drag-apply") {
      const reason = reasonIn("drag-reason"), d = page.drag;
      if (!reason) { showError("Give a reason: every seat reads it."); document.getElementById("drag-reason")?.focus(); return; }
      page.drag = null; delete reasons["drag-reason"]; render();
      if (d) rule(page, client, [{ combatant: d.id, position: d.square }], reason).catch((err) => showError(`${d.name}: ${err.message}`));
    } else if (what === "drag-cancel") { page.drag = null; render(); }
  });
  wireDrag(page, client, render, showError);
  wireMapUpload(page, client, render);
}

function wireDrag(page, client, render, showError) {
  // The GM drags a token (pointer events, so a finger works too) and drops it on a square: a position ruling.
  let dragging = null;
  document.addEventListener("pointerdown", (ev) => {
    const g = ev.target.closest?.("[data-drag]");
    if (!g || page.msg?.role !== "gm") return;
    dragging = { id: g.dataset.drag, x: ev.clientX, y: ev.clientY };
  });
  document.addEventListener("pointerup", (ev) => {
    if (!dragging) return;
    const { id, x, y } = dragging;
    dragging = null;
    if (Math.hypot(ev.clientX - x, ev.clientY - y) < 6) return; // a click, not a drag: the editor opens
    const under = document.elementsFromPoint(ev.clientX, ev.clientY).find((el) => el.dataset?.xy);
    if (!under) return;
    const square = under.dataset.xy.split(",").map(Number);
    const name = page.view.combatants.find((c) => c.id === id)?.name || id;
    page.drag = { id, name, square }; // the move waits for its reason (dragBox)
    render();
    document.getElementById("drag-reason")?.focus();
  });
}
