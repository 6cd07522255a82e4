// The table page of one seat (issue 15). The token comes from the invite link's fragment (/t/TABLE#TOKEN) and is
// kept in this browser so a reopened tab finds its seat; every state comes from the server, over the WebSocket.
import { Client, esc, submissionId } from "./api.js";
import { drawBoard, drawLine, drawPlaces, provokes, squaresOf, targetsOf } from "./board.js";
import { combatantCards, logPanel, witchhammerPanel } from "./panels.js";
import { verifyLog } from "./verify.js";
import { envelope } from "./view.js";
import { gmPanel, linksPanel, loadSeats, wireGm } from "./gm.js";

const tableId = document.body.dataset.table;
const $ = (id) => document.getElementById(id);
const fromLink = decodeURIComponent(location.hash.slice(1));
if (fromLink) localStorage.setItem(`affray.token.${tableId}`, fromLink);
const token = fromLink || localStorage.getItem(`affray.token.${tableId}`);
const client = new Client(tableId, token);
const page = { msg: null, log: new Map(), selected: null, target: null, confirm: null, verdict: null, busy: null };
window.affray = page; // for people debugging at the table (and the browser tests)
page.envelope = envelope;

function showError(text) {
  const box = $("error");
  box.textContent = text; box.hidden = !text;
  if (text) setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 6000);
}

function receive(msg) {
  if (msg.since === 0) page.log = new Map();
  for (const entry of msg.log || []) page.log.set(entry.seq, entry);
  page.msg = msg;
  if (msg.role === "gm" && !page.seatsAsked) { page.seatsAsked = true; loadSeats(page, client, render); }
  render();
}

function dueSpecs(msg) {
  const out = [];
  for (const [actor, specs] of Object.entries(msg.legal || {})) specs.forEach((spec, i) => out.push({ actor, spec, key: `${actor}:${i}` }));
  return out;
}

export async function act(s) {
  if (page.busy === page.msg.version) return; // one submission per version (a double click acts once)
  const action = { ...s.spec.action };
  for (const field of freeFields(s.spec)) {
    const input = document.querySelector(`[data-free="${CSS.escape(s.key)}:${CSS.escape(field)}"]`);
    if (input) action[field] = input.value;
  }
  page.busy = page.msg.version;
  page.selected = null; page.target = null; // the choice is made: the board shows every option again
  try {
    await client.call("POST", "/actions", { actor: s.actor, action, version: page.msg.version, id: submissionId() });
  } catch (err) { showError(err.message); } finally { page.busy = null; render(); }
}

// The fields a person fills in: the spec's declared free fields, or its text when it declares none (a post).
const freeFields = (spec) => spec.free || (typeof spec.action?.text === "string" ? ["text"] : []);

function button(s) {
  const warn = provokes(s) ? " warn" : "";
  const notes = (s.spec.notes || []).map((n) => `<span class="note${/provokes an attack/i.test(n) ? " warn" : ""}">${esc(n)}</span>`).join("");
  const hint = s.spec.hint ? `<span class="hint">${esc(s.spec.hint)}</span>` : "";
  // A free text (a Free Form post, a ruling) is typed in; other free fields keep the valid choice the server gave.
  const free = freeFields(s.spec).filter((f) => typeof s.spec.action[f] === "string").map((f) =>
    `<label class="small">${esc(f)} <input data-free="${esc(s.key)}:${esc(f)}" value="${esc(s.spec.action[f])}"></label>`).join("");
  return `${free}<button type="button" class="act${warn}" data-act="${esc(s.key)}" data-type="${esc(s.spec.action?.type)}">${esc(s.spec.label)}${hint}${notes}</button>`;
}

function actionsPanel(v, due, grid) {
  const msg = page.msg;
  if (msg.outcome) return `<h2>Actions</h2><p>The fight is over.</p>`;
  if (msg.paused) return `<h2>Actions</h2><p class="warnbox">The GM has paused the table.</p>`;
  if (!due.length) {
    const waiting = (v.prompt?.actors || []).map((a) => v.combatants.find((c) => c.id === a)?.name || a).join(", ");
    return `<h2>Actions</h2><p class="muted">Waiting for ${esc(waiting || "the others")}.</p>`;
  }
  let shown = due, head = "";
  if (page.selected) {
    shown = squaresOf(due).get(page.selected) || [];
    head = `<p class="preview">To square ${esc(page.selected)}:${shown.some(provokes) ? ' <span class="warnbox">this path provokes an attack of opportunity</span>' : ""} <button type="button" class="secondary" data-clear>all actions</button></p>`;
  } else if (page.target) {
    shown = targetsOf(due).get(page.target) || [];
    head = `<p class="preview">Against ${esc(v.combatants.find((c) => c.id === page.target)?.name || page.target)}: <button type="button" class="secondary" data-clear>all actions</button></p>`;
  } else {
    // Card placements are on the cards of the hand, moves to a square on the board (each square a button).
    const onBoard = grid ? due.filter((s) => Array.isArray(s.spec.action?.to)) : [];
    shown = due.filter((s) => !onBoard.includes(s) &&
      !(s.spec.action?.card && document.querySelector(`[data-hand="${CSS.escape(s.actor)}"]`)));
    if (onBoard.length) head = `<p class="small">${onBoard.length} moves: choose a square on the board (Tab, then Enter).</p>`;
  }
  const byActor = new Map();
  for (const s of shown) { if (!byActor.has(s.actor)) byActor.set(s.actor, []); byActor.get(s.actor).push(s); }
  const groups = [...byActor.entries()].map(([actor, specs]) => `<h3>${esc(v.combatants.find((c) => c.id === actor)?.name || actor)}</h3><div class="actions-list">${specs.map(button).join("")}</div>`);
  return `<h2>Actions</h2><p class="prompt">${esc(v.prompt?.text || "")}</p>${head}${groups.join("")}`;
}

function statusPanel(v) {
  const msg = page.msg;
  const names = Object.fromEntries(v.combatants.map((c) => [c.id, c.name]));
  const order = (v.order || []).map((a) => `<span class="${a === v.turn ? "turn" : ""}">${esc(names[a] || a)}</span>`).join("");
  const timer = msg.timer ? `<p>Drama Timer: <span class="timer" id="countdown" data-ends="${esc(msg.timer.ends_at)}"></span></p>` : "";
  const you = msg.role === "gm" ? "GM" : msg.role === "spectator" ? "spectator" : (msg.actors || []).map((a) => names[a] || a).join(", ");
  return `<h2>${esc(msg.title)} <span class="small muted">${esc(msg.ruleset)}</span></h2>` +
    `<p>You: <b>${esc(you)}</b> · round ${esc(v.round)} · ${esc(v.phase)} · version ${esc(msg.version)}${msg.paused ? ' · <span class="tag">paused</span>' : ""}</p>` +
    (order ? `<p class="order">Order: ${order}</p>` : "") + `<p class="prompt">${esc(v.prompt?.text || "")}</p>${timer}`;
}

function seedPanel() {
  const msg = page.msg;
  return `<h2>Dice</h2><p class="small">Commitment (SHA-256 of the secret seed), shown from the start:</p><p class="mono" id="commitment">${esc(msg.commitment)}</p>` +
    (msg.seed ? `<p class="small">Seed, revealed at the end:</p><p class="mono" id="revealed-seed">${esc(msg.seed)}</p>` : `<p class="small muted">The seed is revealed when the fight ends.</p>`);
}

async function runVerify() {
  page.verdict = { ok: null, message: "checking every die…" };
  renderEnd();
  try {
    const data = await client.call("GET", "/log");
    page.verdict = await verifyLog(data);
  } catch (err) { page.verdict = { ok: false, message: `not verified: ${err.message}` }; }
  renderEnd();
}

function renderEnd() {
  const msg = page.msg, box = $("end");
  if (!msg?.outcome) { box.hidden = true; return; }
  box.hidden = false;
  const o = msg.outcome, verdict = page.verdict;
  const cls = verdict?.ok === true ? "ok" : verdict?.ok === false ? "bad" : "";
  box.innerHTML = `<h2>The fight is over</h2><p>${o.winner ? `Winner: <b>${esc(o.winner)}</b>` : "No winner"} (${esc(o.reason)})</p>` +
    `<p>Dice check: <span id="verdict" class="verdict ${cls}">${esc(verdict?.message || "waiting for the seed")}</span></p>` +
    `<button type="button" class="secondary" data-verify>check again</button>`;
}

function render() {
  const msg = page.msg, v = envelope(msg.view), due = dueSpecs(msg);
  // A square or a foe chosen earlier that no longer has a legal action is forgotten.
  if (page.selected && !squaresOf(due).has(page.selected)) page.selected = null;
  if (page.target && !targetsOf(due).has(page.target)) page.target = null;
  const names = Object.fromEntries(v.combatants.map((c) => [c.id, c.name]));
  const focused = document.activeElement?.dataset?.act || document.activeElement?.dataset?.square || document.activeElement?.dataset?.target;
  $("title").textContent = msg.title;
  $("status").innerHTML = statusPanel(v);
  $("combatants").innerHTML = combatantCards(v);
  const grid = drawBoard(v, due, page.selected), board = grid || drawLine(v) || drawPlaces(v);
  $("board").hidden = !board; $("board").innerHTML = !board ? "" : !grid || !due.length ? board : `${board}<p class="small muted">Green squares: where you may move (orange: every way there provokes an attack of opportunity); red-edged: squares your foes threaten. Click a square or a dashed foe, or use Tab and Enter.</p>`;
  const detail = v.ruleset === "witchhammer" ? witchhammerPanel(v, due, button) : "";
  $("detail").hidden = !detail; $("detail").innerHTML = detail;
  $("actions").innerHTML = actionsPanel(v, due, Boolean(grid));
  $("log").innerHTML = logPanel([...page.log.values()].sort((a, b) => a.seq - b.seq), names);
  $("seed").innerHTML = seedPanel();
  const gm = msg.role === "gm";
  $("gm").hidden = !gm; $("links").hidden = !gm;
  if (gm) { $("gm").innerHTML = gmPanel(page, names); $("links").innerHTML = linksPanel(page); }
  if (msg.outcome && msg.seed && !page.verdict) runVerify(); else renderEnd();
  if (focused) document.querySelector(`[data-act="${CSS.escape(focused)}"], [data-square="${CSS.escape(focused)}"], [data-target="${CSS.escape(focused)}"]`)?.focus();
  tick();
}

function tick() {
  const el = $("countdown");
  if (!el) return;
  const left = Math.max(0, Number(el.dataset.ends) - Date.now() / 1000);
  el.textContent = `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
}
setInterval(tick, 250);

function onClick(ev) {
  const t = ev.target.closest("[data-act], [data-square], [data-target], [data-clear], [data-verify]");
  if (!t || !page.msg) return;
  const due = dueSpecs(page.msg);
  if (t.dataset.act) { const s = due.find((x) => x.key === t.dataset.act); if (s) act(s); return; }
  if (t.dataset.square) { page.selected = t.dataset.square; page.target = null; }
  else if (t.dataset.target) { page.target = t.dataset.target; page.selected = null; }
  else if ("clear" in t.dataset) { page.selected = null; page.target = null; }
  else if ("verify" in t.dataset) { runVerify(); return; }
  render();
}
document.addEventListener("click", onClick);
document.addEventListener("keydown", (ev) => {
  // Squares and tokens are SVG elements with role=button: Enter and Space press them.
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest?.("[data-square], [data-target]")) { ev.preventDefault(); onClick(ev); }
  if (ev.key === "Escape" && (page.selected || page.target)) { page.selected = null; page.target = null; render(); }
});
wireGm(page, client, render, showError);

if (!token) {
  $("status").innerHTML = "<h2>No seat</h2><p>Open this table with your invite link (it ends with #…).</p>";
} else {
  client.connect(receive, (text, bad) => { $("conn").textContent = text; $("conn").classList.toggle("bad", Boolean(bad)); });
}
