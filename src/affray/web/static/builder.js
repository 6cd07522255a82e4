// The Build-a-fight page (docs/table.md, "Building a fight"): a GM puts a fight together from the content library,
// players' character sheets and combatants written in place; numbers them ("Ash Jackal 1..3"); places them as the
// ruleset places (a square on a map painted square by square, metres along a line, or a range band); sets rule options and who plays whom; and reads the odds before the fight. The page writes an
// ordinary scenario (the YAML the CLI, `affray sim` and `affray odds` read) and holds no rules: every change is checked
// by the server (POST /api/scenarios/check), its problems shown at the combatant or field they name, and the odds come
// from POST /api/scenarios/odds. Create opens the table as the lobby does, keeps it on the owner's list and uploads
// the map image. A fight can be saved for its owner (POST /api/fights) and opened again from the lobby (?fight=ID).
//
// The owner is the holder of the server's creation key, or else of a secret this browser makes and keeps
// (localStorage, header X-Owner-Key): nobody else lists or opens what it keeps.
import { esc } from "./api.js";
import { storeCreated } from "./gm.js";

const $ = (id) => document.getElementById(id);
const KEY = "affray.create-key", OWNER = "affray.owner-key";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const CHECK_WAIT = 400, ODDS_FIGHTS = 300; // ms after the last change before the server checks; fights simulated
const MOST_SIDE = 40, MOST_COUNT = 20;
const ODDS_TRIES = 3, ODDS_RETRY = 2000; // a busy server's odds asked again, after 2, 4, 6 s

// How a ruleset places its combatants comes from the server (GET /api/rulesets, `building`: a grid field with the
// map's terrain, a line in metres, or range bands; its modes); the page knows no ruleset by name.
const SIDES = ["party", "foes"];
const words = (name) => String(name).replace(/_/g, " ");

let rulesets = {}, fight = null, nextKey = 1, brush = "move", chosen = null, focusCell = [0, 0];
let checkTimer = null, checkSeq = 0, oddsSeq = 0, lastText = "", checked = null, index = [], lineOwner = [];
const oddsKey = `b${Math.random().toString(36).slice(2, 12)}`;

// ---- who may create, and who owns ---------------------------------------------------------------------------------

function creationKey() { return $("b-key").value.trim() || localStorage.getItem(KEY) || ""; }

function ownerKey() {
  let key = localStorage.getItem(OWNER);
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem(OWNER, key);
  }
  return key;
}

function headers() {
  const key = creationKey();
  return { "Content-Type": "application/json", "X-Owner-Key": ownerKey(), ...(key ? { "X-Create-Key": key } : {}) };
}

// A request to the server: {ok, status, data}; a server out of reach answers a sentence, never throws.
async function ask(method, path, body) {
  let res;
  try {
    res = await fetch(path, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, data: { message: "The server cannot be reached; check the connection." } };
  }
  const data = await res.json().catch(() => ({ message: `The server answered ${res.status}.` }));
  if (data?.code === "bad_create_key") {
    localStorage.removeItem(KEY);
    $("b-key-box").hidden = false;
  } else if (res.ok && $("b-key").value.trim()) {
    localStorage.setItem(KEY, $("b-key").value.trim());
    $("b-key-box").hidden = true;
  }
  return { ok: res.ok, status: res.status, data };
}

// ---- the fight as the page holds it ---------------------------------------------------------------------------------

function fresh(ruleset, title = "A new fight") {
  const b = rulesets[ruleset]?.building || {}, [w, h] = b.size || [12, 10];
  return {
    id: null, title, ruleset, mode: b.mode || null, sides: [...SIDES],
    width: w, height: h, terrain: Array.from({ length: h }, () => ".".repeat(w)), entries: [], options: {}, cast: {},
  };
}

// The ruleset's way of placing: {grid, line, bands, modes, terrain} (empty ones left out).
function kind() {
  const b = rulesets[fight.ruleset]?.building || {};
  return {
    grid: b.grid || null, line: b.line || null, bands: b.bands?.length ? b.bands.map((v) => [v, words(v)]) : null,
    modes: b.modes?.length ? b.modes.map((v) => [v, words(v)]) : null, terrain: b.terrain || [],
  };
}

function slug(text) {
  let s = String(text || "").toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  if (!/^[a-z]/.test(s)) s = `c_${s}`;
  return s.slice(0, 24).replace(/_+$/, "");
}

// Every combatant of the fight: an entry of count n is n combatants, "Name 1..n" with ids name_1..n.
function combatants() {
  const out = [], used = new Set();
  for (const e of fight.entries) {
    const base = slug(e.name || e.use);
    for (let i = 0; i < e.count; i++) {
      let id = e.count > 1 ? `${base}_${i + 1}` : base;
      for (let n = 2; used.has(id); n++) id = `${base}_${e.count > 1 ? `${i + 1}_` : ""}${n}`;
      used.add(id);
      out.push({ id, name: e.count > 1 ? `${e.name} ${i + 1}` : e.name, entry: e, copy: i, side: e.side });
    }
  }
  return out;
}

function taken(except) {
  const squares = new Set();
  for (const e of fight.entries) e.places.forEach((p, i) => { if (Array.isArray(p) && !(e === except.e && i === except.i)) squares.add(`${p[0]},${p[1]}`); });
  return squares;
}

// A free square for a new token: its side's edge of the map first (the first side left, the next right, ...).
function freeSquare(e, i) {
  const used = taken({ e, i }), w = fight.width, h = fight.height;
  const columns = [...Array(w).keys()];
  if (e.side % 2 === 1) columns.reverse();
  for (const x of columns) for (let y = 0; y < h; y++) {
    if (!used.has(`${x},${y}`) && fight.terrain[y][x] !== "#") return [x, y];
  }
  return [0, 0];
}

// Give each copy of an entry a place as the ruleset places (kept when the count grows or shrinks).
function placeAll() {
  for (const e of fight.entries) {
    e.places = e.places.slice(0, e.count);
    for (let i = 0; i < e.count; i++) {
      const p = e.places[i];
      if (kind().grid) {
        if (!Array.isArray(p) || p[0] >= fight.width || p[1] >= fight.height) e.places[i] = freeSquare(e, i);
      } else if (kind().line) {
        if (typeof p !== "number") e.places[i] = e.side === 0 ? i : 5 + i;
      } else if (kind().bands) {
        if (typeof p !== "string") e.places[i] = kind().bands[0][0];
      }
    }
  }
}

// ---- the scenario the page writes ---------------------------------------------------------------------------------

const q = (text) => JSON.stringify(String(text));

// A YAML text the user gave (a sheet, a combatant written in place): its lines, without document markers.
function blockLines(text) {
  const lines = String(text || "").replace(/\t/g, "  ").split(/\r?\n/).filter((l) => !/^(---|\.\.\.)\s*$/.test(l));
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  return lines;
}

function optionValues() {
  const out = {}, info = rulesets[fight.ruleset]?.options || [];
  for (const o of info) {
    if (!(o.name in fight.options)) continue;
    let value = fight.options[o.name];
    if (o.type === "int") value = Number.parseInt(value, 10);
    else if (o.type === "float") value = Number(value);
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}

// The scenario YAML; `index[side][j]` is the combatant at sides[side].combatants[j], `lineOwner[n]` the entry that
// wrote line n + 1 (the server's problems name either).
function scenarioText() {
  const k = kind(), list = combatants(), lines = ["# Built on the affray Build-a-fight page.", `ruleset: ${fight.ruleset}`,
    `name: ${q(fight.title)}`];
  lineOwner = [null, null, null];
  const push = (line, owner = null) => { lines.push(line); lineOwner.push(owner); };
  if (fight.mode) push(`mode: ${fight.mode}`);
  const options = optionValues();
  if (Object.keys(options).length) push(`options: ${JSON.stringify(options)}`);
  if (k.grid) { push("map: |"); for (const row of fight.terrain) push(`  ${row}`); }
  push("sides:");
  index = fight.sides.map(() => []);
  fight.sides.forEach((side, s) => {
    const members = list.filter((c) => c.side === s);
    push(`  - name: ${q(side)}`);
    push(`    combatants:${members.length ? "" : " []"}`);
    for (const c of members) {
      const e = c.entry, own = e.source === "own" ? blockLines(e.text).filter((l) => !/^id\s*:/.test(l)) : [];
      index[s].push(c);
      push(`      - id: ${c.id}`, e);
      push(`        name: ${q(c.name)}`, e); // a name in the combatant's own YAML comes later, and wins
      if (e.source === "library") push(`        use: ${q(e.use)}`, e);
      if (e.hidden) push("        hidden: true", e);
      const p = e.places[c.copy];
      if (k.grid) push(`        ${k.grid}: [${p[0]}, ${p[1]}]`, e);
      else if (k.line) push(`        position: ${Number(p) || 0}`, e);
      else if (k.bands && p !== k.bands[0][0]) push(`        band: ${p}`, e);
      if (e.source === "sheet") { push("        sheet:", e); for (const l of blockLines(e.text)) push(`          ${l}`, e); }
      for (const l of own) push(`        ${l}`, e);
    }
  });
  return `${lines.join("\n")}\n`;
}

// ---- checking as the GM builds ------------------------------------------------------------------------------------

function changed() {
  placeAll();
  renderBoard();
  renderCast();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, CHECK_WAIT);
}

async function check() {
  const text = scenarioText();
  if (text === lastText && checked) return;
  lastText = text;
  const seq = ++checkSeq;
  clearProblems();
  if (!fight.entries.length) { $("b-check").textContent = ""; checked = null; renderCast(); return; }
  $("b-check").textContent = "Checking…";
  const { ok, data } = await ask("POST", "/api/scenarios/check", { scenario: text });
  if (seq !== checkSeq) return; // a newer change is being checked
  if (!ok) {
    checked = null;
    $("b-check").textContent = "The fight is not ready yet: see the problems marked below.";
    showProblems(data);
    $("b-odds").innerHTML = '<p class="muted">The odds come once the fight checks out.</p>';
    renderCast();
    return;
  }
  checked = data;
  $("b-check").textContent = "The server checked this fight: it can be played.";
  renderCast();
  odds(text);
}

function clearProblems() {
  for (const el of document.querySelectorAll(".field-problem")) if (!["b-sheet-problem", "b-own-problem"].includes(el.id)) el.textContent = "";
  $("b-problems").innerHTML = "";
}

// What a part of a combatant is called on the page (the scenario's field names, as the server's problems give them).
const PART_WORDS = { use: "library entry", sheet: "character sheet", stats: "stats", position: "place", at: "place",
  band: "range band", hidden: "hidden", name: "name", hp: "hit points" };

// Each problem shown at what it names, from the place the server gives it (`side` and `combatant` indices, a `line` of
// the text, or a top-level `part`): a combatant (or the entry whose lines it is), a side, the map, the options, the
// fight's title or mode; the rest under the buttons. Always a sentence, never the server's whole answer.
function showProblems(data) {
  const loose = [];
  const problems = data?.problems?.length ? data.problems : [{ expected: data?.message || "The server refused the fight." }];
  for (const p of problems) {
    const expected = p.expected;
    const c = p.combatant !== undefined ? index[Number(p.side)]?.[Number(p.combatant)] : null;
    if (c) {
      const what = p.part ? PART_WORDS[p.part] || words(p.part) : "";
      say(`[data-entry-problem="${c.entry.key}"]`, `${c.name}${what ? `, ${what}` : ""}: ${expected}`);
    } else if (p.line !== undefined && lineOwner[Number(p.line) - 1]) {
      say(`[data-entry-problem="${lineOwner[Number(p.line) - 1].key}"]`, `Its YAML, line ${p.line}: ${expected}`);
    } else if (p.side !== undefined && fight.sides[Number(p.side)] !== undefined) {
      say(`[data-side-problem="${Number(p.side)}"]`, `Side ${fight.sides[Number(p.side)]}: ${expected}`);
    } else if (p.part && document.querySelector(`[data-field~="${CSS.escape(p.part)}"]`)) {
      say(`[data-field~="${CSS.escape(p.part)}"]`, `${words(p.field || p.part)}: ${expected}`);
    } else loose.push(p.field && p.part ? `${words(p.field)}: ${expected}` : expected);
  }
  $("b-problems").innerHTML = loose.length ? `<ul>${loose.map((t) => `<li>${esc(t)}</li>`).join("")}</ul>` : "";
}

function say(selector, text) {
  const el = document.querySelector(selector);
  if (!el) { $("b-problems").insertAdjacentHTML("beforeend", `<p>${esc(text)}</p>`); return; }
  el.textContent = el.textContent ? `${el.textContent} ${text}` : text;
}

// ---- the odds -----------------------------------------------------------------------------------------------------

const pct = (p) => `${Math.round(p * 100)}%`;

async function odds(text, tries = 0) {
  const seq = tries ? oddsSeq : ++oddsSeq;
  if (!tries) $("b-odds").innerHTML = '<p class="muted">Simulating the fight…</p>';
  const { ok, status, data } = await ask("POST", "/api/scenarios/odds", { scenario: text, fights: ODDS_FIGHTS, key: oddsKey });
  if (seq !== oddsSeq) return;
  if (!ok) {
    if (status === 409) return; // cancelled by a newer change, whose answer comes
    if (status === 503 && data?.code === "busy" && tries < ODDS_TRIES) { // the server's odds workers are all taken
      setTimeout(() => { if (seq === oddsSeq) odds(text, tries + 1); }, ODDS_RETRY * (tries + 1));
      return;
    }
    $("b-odds").innerHTML = `<p class="problems">${esc(data?.message || "The odds could not be computed.")}</p>`;
    return;
  }
  $("b-odds").innerHTML = oddsHtml(data);
}

function oddsHtml(data) {
  const names = new Map(combatants().map((c) => [c.id, c.name]));
  const sides = Object.entries(data.sides || {});
  const sentences = sides.map(([side, s], i) => {
    const range = data.exact ? "" : ` (${Math.round(s.low * 100)}–${pct(s.high)})`;
    return `The ${side} win${i === 0 || !side.endsWith("s") ? "s" : ""} ${pct(s.win)}${range}`;
  });
  const rounds = Number(data.rounds);
  const risk = (data.at_risk || []).filter((r) => r.down > 0).slice(0, 3)
    .map((r) => `${names.get(r.combatant) || r.name || r.combatant} (down ${pct(r.down)})`);
  const first = `${sentences[0] || "No side wins"}${Number.isFinite(rounds) ? `, ${Math.round(rounds * 10) / 10} rounds` : ""}` +
    `${risk.length ? `; most at risk: ${risk.join(", ")}` : ""}.`;
  const byPolicy = new Map();
  for (const [id, policy] of Object.entries(data.policies || {})) {
    if (!byPolicy.has(policy)) byPolicy.set(policy, []);
    byPolicy.get(policy).push(names.get(id) || id);
  }
  const assumed = data.exact ? `Exact: the duel solver (${esc(data.assumes || "")}).`
    : `From ${data.fights} simulated fights; assumed: ${[...byPolicy.entries()].map(([p, who]) => `${esc(p)} plays ${esc(who.join(", "))}`).join("; ") || esc(data.assumes || "")}.`;
  return `<p class="b-odds-line" id="b-odds-line">${esc(first)}</p>` +
    (sentences.length > 1 ? `<p class="small">${esc(sentences.slice(1).join("; "))}.</p>` : "") +
    `<p class="small muted">${assumed}</p>`;
}

// ---- drawing the page ---------------------------------------------------------------------------------------------

function renderTop() {
  $("b-title").value = fight.title;
  $("b-ruleset").value = fight.ruleset;
  const modes = kind().modes;
  $("b-mode-box").hidden = !modes;
  $("b-mode").innerHTML = (modes || []).map(([v, label]) => `<option value="${v}"${v === fight.mode ? " selected" : ""}>${esc(label)}</option>`).join("");
  $("b-map-box").hidden = !kind().grid;
  $("b-width").value = fight.width;
  $("b-height").value = fight.height;
  renderSides();
  renderOptions();
  renderBrushes();
  renderEntries();
  search();
}

function renderSides() {
  $("b-sides").innerHTML = fight.sides.map((name, i) => `<div class="b-row"><label>Side ${i + 1}
    <input data-side-name="${i}" value="${esc(name)}" maxlength="${MOST_SIDE}"></label>
    ${fight.sides.length > 2 ? `<button type="button" data-remove-side="${i}">Remove side ${i + 1}</button>` : ""}
    <p class="field-problem" data-side-problem="${i}" role="alert"></p></div>`).join("");
}

function renderOptions() {
  const rs = rulesets[fight.ruleset] || { options: [] };
  $("b-options").innerHTML = rs.options.map((o) => {
    const id = `b-opt-${o.name}`, value = o.name in fight.options ? fight.options[o.name] : o.default;
    const help = `<span class="small muted" id="${id}-help">${esc(o.doc)} <span class="rule">(${esc(o.rule)})</span></span>`;
    let input;
    if (o.type === "bool") input = `<input type="checkbox" id="${id}" data-option="${esc(o.name)}"${value ? " checked" : ""} aria-describedby="${id}-help">`;
    else if (o.choices.length) input = `<select id="${id}" data-option="${esc(o.name)}" aria-describedby="${id}-help">${o.choices.map((c) => `<option${c === value ? " selected" : ""}>${esc(c)}</option>`).join("")}</select>`;
    else input = `<input id="${id}" data-option="${esc(o.name)}" value="${esc(value)}" aria-describedby="${id}-help">`;
    return `<label for="${id}">${esc(o.name.replace(/_/g, " "))} ${input}</label>${help}`;
  }).join("") || '<p class="muted">This ruleset has no rule options.</p>';
}

function sideOptions(selected) {
  return fight.sides.map((s, i) => `<option value="${i}"${i === selected ? " selected" : ""}>${esc(s)}</option>`).join("");
}

let rendering = false;
function renderEntries() {
  if (rendering) return;
  const active = document.activeElement, focusKey = active?.closest?.("[data-key]")?.dataset.key, focusField = active?.dataset?.f;
  // A focused field about to be replaced is let go first: its blur may fire a change, which must not draw over this.
  rendering = true;
  if (focusKey) active.blur();
  rendering = false;
  $("b-empty").hidden = fight.entries.length > 0;
  const list = combatants();
  $("b-entries").innerHTML = fight.entries.map((e) => {
    const copies = list.filter((c) => c.entry === e);
    const where = copies.map((c) => placeHtml(e, c)).join("");
    const from = e.source === "library" ? `library: ${esc(e.use)}` : e.source === "sheet" ? "a character sheet" : "written in place";
    return `<div class="b-entry" data-key="${e.key}"><h3>${esc(e.name)} <span class="small muted">(${from})</span></h3>
      ${e.summary ? `<p class="small muted">${esc(e.summary)}</p>` : ""}
      <div class="b-row"><label>Name <input data-f="name" value="${esc(e.name)}" maxlength="60"></label>
      <label>How many <input data-f="count" type="number" min="1" max="${MOST_COUNT}" value="${e.count}" inputmode="numeric"></label>
      <label>Side <select data-f="side">${sideOptions(e.side)}</select></label>
      <label class="b-check"><input type="checkbox" data-f="hidden"${e.hidden ? " checked" : ""}> Hidden from the players</label></div>
      <div class="b-places">${where}</div>
      <button type="button" data-f="remove">Remove ${esc(e.name)}</button>
      <p class="field-problem" data-entry-problem="${e.key}" role="alert"></p></div>`;
  }).join("");
  if (focusKey && focusField) document.querySelector(`[data-key="${focusKey}"] [data-f="${focusField}"]`)?.focus();
}

function placeHtml(e, c) {
  const k = kind(), p = e.places[c.copy];
  if (k.grid) {
    const on = Boolean(chosen && chosen.e === e && chosen.i === c.copy);
    return `<button type="button" data-place-copy="${c.copy}" aria-pressed="${on}">Place ${esc(c.name)} <span class="small">(${p[0]}, ${p[1]})</span></button>`;
  }
  if (k.line) return `<label>${esc(c.name)} stands at <input type="number" step="0.5" min="-10000" max="10000" data-metres="${c.copy}" value="${p}" inputmode="decimal"> m</label>`;
  return `<label>${esc(c.name)} starts <select data-band="${c.copy}">${k.bands.map(([v, label]) => `<option value="${v}"${v === p ? " selected" : ""}>${esc(label)}</option>`).join("")}</select></label>`;
}

function renderBrushes() {
  const k = kind();
  if (!k.grid) return;
  const all = [["move", "place and move tokens"], ...k.terrain.map(([ch, label]) => [ch, `paint: ${label} (${ch})`])];
  $("b-brushes").innerHTML = all.map(([v, label]) => `<label class="b-brush"><input type="radio" name="b-brush" value="${esc(v)}"${v === brush ? " checked" : ""}>
    <span class="b-swatch t${terrainClass(v)}" aria-hidden="true"></span> ${esc(label)}</label>`).join("");
}

const terrainClass = (ch) => ({ ".": "open", "#": "wall", "~": "water", "^": "rough", "%": "deep" })[ch] || "move";

function tokenAt(x, y) {
  for (const c of combatants()) {
    const p = c.entry.places[c.copy];
    if (Array.isArray(p) && p[0] === x && p[1] === y) return c;
  }
  return null;
}

function initials(c) {
  const words = c.entry.name.split(/\s+/).filter(Boolean);
  const letters = (words.length > 1 ? words.map((w) => w[0]).join("") : c.entry.name.slice(0, 2)).slice(0, 2).toUpperCase();
  return c.entry.count > 1 ? `${letters}${c.copy + 1}` : letters;
}

function renderBoard() {
  const k = kind();
  if (!k.grid) return;
  const names = Object.fromEntries(k.terrain);
  const cells = [];
  for (let y = 0; y < fight.height; y++) for (let x = 0; x < fight.width; x++) {
    const ch = fight.terrain[y][x], c = tokenAt(x, y);
    const on = c && chosen && chosen.e === c.entry && chosen.i === c.copy;
    const focus = focusCell[0] === x && focusCell[1] === y;
    // The token's letters end its name (what the square shows is what a voice command says).
    const label = `column ${x}, row ${y}: ${names[ch] || ch}${c ? `, ${c.name}${c.entry.hidden ? ", hidden" : ""}, token ${initials(c)}` : ""}`;
    cells.push(`<button type="button" class="b-cell t${terrainClass(ch)}${c ? ` b-token s${c.side % 4}` : ""}${on ? " chosen" : ""}"
      data-x="${x}" data-y="${y}" tabindex="${focus ? 0 : -1}" aria-label="${esc(label)}">${c ? esc(initials(c)) : ""}</button>`);
  }
  $("b-board").style.gridTemplateColumns = `repeat(${fight.width}, minmax(0, 1fr))`;
  $("b-board").innerHTML = cells.join("");
}

// Who plays whom: a choice per combatant as the lobby offers it (a player's letter, the GM, a policy).
function renderCast() {
  const list = combatants(), policies = rulesets[fight.ruleset]?.policies || [];
  $("b-cast-box").hidden = !list.length;
  const letters = LETTERS.slice(0, Math.max(list.length, 1)).split("");
  const usual = policies.includes("heuristic") ? "policy:heuristic" : policies.length ? `policy:${policies[0]}` : "gm";
  let n = 0;
  for (const c of list) {
    if (!fight.cast[c.id]) fight.cast[c.id] = c.side === 0 ? `player:${letters[Math.min(n++, letters.length - 1)]}` : usual;
    else if (c.side === 0) n++;
  }
  $("b-cast").innerHTML = fight.sides.map((side, s) => {
    const members = list.filter((c) => c.side === s);
    if (!members.length) return "";
    return `<fieldset class="side"><legend>${esc(side)}</legend>${members.map((c) => {
      const options = [...letters.map((l) => [`player:${l}`, `Player ${l}`]), ["gm", "the GM"], ...policies.map((p) => [`policy:${p}`, `AI: ${p}`])];
      return `<label class="cast-row"><span>${esc(c.name)}</span> <select data-cast="${esc(c.id)}" aria-label="who plays ${esc(c.name)}">${
        options.map(([v, label]) => `<option value="${esc(v)}"${v === fight.cast[c.id] ? " selected" : ""}>${esc(label)}</option>`).join("")}</select></label>`;
    }).join("")}</fieldset>`;
  }).join("");
}

function castBody() {
  const controllers = {}, seats = {}, people = new Map();
  for (const c of combatants()) {
    const [kindOf, name] = (fight.cast[c.id] || "gm").split(":");
    if (kindOf === "player") {
      controllers[c.id] = "human";
      if (!people.has(name)) people.set(name, []);
      people.get(name).push(c.id);
    } else controllers[c.id] = kindOf === "gm" ? "gm" : name;
  }
  for (const ids of people.values()) for (const id of ids) seats[id] = ids[0].slice(0, 32);
  return { controllers, seats };
}

// ---- adding combatants --------------------------------------------------------------------------------------------

function add(entry) {
  const e = { key: nextKey++, count: 1, hidden: false, places: [], summary: "", ...entry };
  e.count = Math.max(1, Math.min(MOST_COUNT, Number(e.count) || 1));
  fight.entries.push(e);
  placeAll();
  renderEntries();
  changed();
}

let searchTimer = null;
function search() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(async () => {
    const query = $("b-search").value.trim();
    const res = await fetch(`/api/content/${encodeURIComponent(fight.ruleset)}${query ? `?q=${encodeURIComponent(query)}` : ""}`).catch(() => null);
    const data = res?.ok ? await res.json().catch(() => null) : null;
    if (!data) { $("b-results").innerHTML = "<li>The library cannot be read now.</li>"; return; }
    const found = (data.entries || []).filter((e) => e.kind === "character" || e.kind === "monster").slice(0, 30);
    $("b-results").innerHTML = found.map((e) => `<li class="b-result"><b>${esc(e.name)}</b> <span class="small muted">${esc(e.kind)}</span>
      <p class="small">${esc(e.summary)}</p>
      <button type="button" data-use="${esc(e.id)}" data-kind="${esc(e.kind)}" data-name="${esc(e.name)}" data-summary="${esc(e.summary)}">Add ${esc(e.name)}</button></li>`).join("")
      || `<li class="muted">Nothing in the ${esc(rulesets[fight.ruleset]?.title || fight.ruleset)} library is called that.</li>`;
  }, 200);
}

function sheetField(text, name) {
  const m = String(text).match(new RegExp(`^${name}:\\s*(.+?)\\s*$`, "m"));
  return m ? m[1].replace(/^(["'])(.*)\1$/, "$2") : null;
}

function addSheet() {
  const text = $("b-sheet-text").value, problem = $("b-sheet-problem");
  problem.textContent = "";
  if (!text.trim()) { problem.textContent = "Paste a character sheet or choose its file first."; return; }
  if (sheetField(text, "format") !== "affray-sheet/1") { problem.textContent = "This is not a character sheet: its first line should be 'format: affray-sheet/1' (affray character new writes it)."; return; }
  const ruleset = sheetField(text, "ruleset");
  if (ruleset !== fight.ruleset) { problem.textContent = `This sheet is a ${ruleset || "sheet of no ruleset"} character; the fight is ${rulesets[fight.ruleset]?.title || fight.ruleset}.`; return; }
  add({ source: "sheet", text, name: sheetField(text, "name") || "Character", side: 0, summary: sheetField(text, "description") || "" });
  $("b-sheet-text").value = "";
  $("b-sheet-file").value = "";
}

function addOwn() {
  const text = $("b-own-text").value, name = $("b-own-name").value.trim() || sheetField(text, "name"), problem = $("b-own-problem");
  problem.textContent = "";
  if (!name) { problem.textContent = "Give the combatant a name."; return; }
  if (!text.trim() && !name) { problem.textContent = "Write its YAML first."; return; }
  add({ source: "own", text, name, side: fight.sides.length > 1 ? 1 : 0 });
  $("b-own-text").value = "";
  $("b-own-name").value = "";
}

// ---- the board: tokens dragged or placed, terrain painted ------------------------------------------------------------

function cellAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  return el?.closest?.("#b-board [data-x]") || null;
}

function paint(x, y) {
  if (brush === "move" || fight.terrain[y][x] === brush) return false;
  const row = fight.terrain[y];
  fight.terrain[y] = row.slice(0, x) + brush + row.slice(x + 1);
  return true;
}

function moveTo(target, x, y) {
  const other = tokenAt(x, y);
  if (other && !(other.entry === target.e && other.copy === target.i)) {
    other.entry.places[other.copy] = target.e.places[target.i]; // the two swap squares
  }
  target.e.places[target.i] = [x, y];
}

// A press on a square: a token there is chosen (then the next square pressed, or the arrow keys, move it); with a
// token chosen, the square takes it; else the brush paints.
function pressed(x, y) {
  const here = tokenAt(x, y);
  if (chosen && !(here && here.entry === chosen.e && here.copy === chosen.i)) { moveTo(chosen, x, y); chosen = null; }
  else if (here && brush === "move") chosen = chosen ? null : { e: here.entry, i: here.copy };
  else if (!paint(x, y)) return;
  focusCell = [x, y];
  renderEntries();
  changed();
  $("b-board").querySelector(`[data-x="${x}"][data-y="${y}"]`)?.focus();
}

let drag = null;
function boardEvents() {
  const board = $("b-board");
  board.addEventListener("pointerdown", (ev) => {
    const cell = ev.target.closest("[data-x]");
    if (!cell || ev.button > 0) return;
    const x = +cell.dataset.x, y = +cell.dataset.y, here = tokenAt(x, y);
    drag = { from: [x, y], token: here && brush === "move" ? { e: here.entry, i: here.copy } : null, painted: false };
    if (!drag.token && !chosen && brush !== "move") { drag.painted = paint(x, y); if (drag.painted) renderBoard(); }
    board.setPointerCapture?.(ev.pointerId);
    ev.preventDefault();
  });
  board.addEventListener("pointermove", (ev) => {
    if (!drag || drag.token || chosen || brush === "move") return;
    const cell = cellAt(ev);
    if (!cell) return;
    // Every square on the way from the last one painted: a fast hand (or a coalesced event) skips squares.
    const [x0, y0] = drag.last || drag.from, x1 = +cell.dataset.x, y1 = +cell.dataset.y;
    const n = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
    let any = false;
    for (let i = 1; i <= n; i++) {
      any = paint(Math.round(x0 + ((x1 - x0) * i) / n), Math.round(y0 + ((y1 - y0) * i) / n)) || any;
    }
    drag.last = [x1, y1];
    if (any) { drag.painted = true; renderBoard(); }
  });
  board.addEventListener("pointerup", (ev) => {
    const was = drag;
    drag = null;
    if (!was) return;
    const cell = cellAt(ev);
    if (was.painted) { changed(); return; }
    if (!cell) return;
    const x = +cell.dataset.x, y = +cell.dataset.y;
    if (was.token && (x !== was.from[0] || y !== was.from[1])) { moveTo(was.token, x, y); chosen = null; focusCell = [x, y]; renderEntries(); changed(); return; }
    pressed(x, y);
  });
  board.addEventListener("click", (ev) => {
    // A keyboard's Enter or Space presses the focused square (a pointer's press was handled above).
    if (ev.detail !== 0) return;
    const cell = ev.target.closest("[data-x]");
    if (cell) pressed(+cell.dataset.x, +cell.dataset.y);
  });
  board.addEventListener("keydown", (ev) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (!step) return;
    ev.preventDefault();
    const x = Math.max(0, Math.min(fight.width - 1, focusCell[0] + step[0]));
    const y = Math.max(0, Math.min(fight.height - 1, focusCell[1] + step[1]));
    if (chosen) { moveTo(chosen, x, y); focusCell = [x, y]; renderEntries(); changed(); }
    else { focusCell = [x, y]; renderBoard(); }
    $("b-board").querySelector(`[data-x="${x}"][data-y="${y}"]`)?.focus();
  });
}

function resize() {
  const w = Math.max(2, Math.min(40, Number.parseInt($("b-width").value, 10) || fight.width));
  const h = Math.max(2, Math.min(40, Number.parseInt($("b-height").value, 10) || fight.height));
  fight.terrain = Array.from({ length: h }, (_, y) => (fight.terrain[y] || "").slice(0, w).padEnd(w, "."));
  fight.width = w; fight.height = h;
  focusCell = [Math.min(focusCell[0], w - 1), Math.min(focusCell[1], h - 1)];
  placeAll();
  renderEntries();
  changed();
}

// ---- saving, downloading, creating ----------------------------------------------------------------------------------

async function save() {
  const { ok, data } = await ask("POST", "/api/fights", { ...(fight.id ? { id: fight.id } : {}), title: fight.title || "A fight",
    ruleset: fight.ruleset, body: { state: fight, scenario: scenarioText() } });
  if (ok) { fight.id = data.id; history.replaceState(null, "", `/build?fight=${encodeURIComponent(data.id)}`); }
  $("b-saved").textContent = ok ? `Saved as "${fight.title}"; the lobby lists it.` : data.message || "The fight was not saved.";
  return ok;
}

function download() {
  const blob = new Blob([scenarioText()], { type: "text/yaml" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${slug(fight.title) || "fight"}.yaml`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function create(ev) {
  ev.preventDefault();
  $("b-problems").innerHTML = "";
  clearTimeout(checkTimer);
  const text = scenarioText();
  const { controllers, seats } = castBody();
  $("b-create").disabled = true;
  const { ok, status, data } = await ask("POST", "/api/tables", { scenario: text, controllers, seats, seed: null });
  $("b-create").disabled = false;
  if (!ok || status !== 201) { scenarioText(); showProblems(data); return; }
  storeCreated(data);
  await ask("POST", "/api/owned/tables", { table: data.table, token: data.gm.token });
  const image = $("b-image").files[0];
  if (image) {
    const res = await fetch(`/api/tables/${encodeURIComponent(data.table)}/gm/map`, { method: "POST",
      headers: { Authorization: `Bearer ${data.gm.token}`, "Content-Type": image.type || "application/octet-stream" }, body: image }).catch(() => null);
    if (!res?.ok) { // the table is open: say why the picture was not kept, and let the GM go on to it
      const why = res ? (await res.json().catch(() => ({}))).message || `The server answered ${res.status}.` : "The server cannot be reached.";
      $("b-problems").innerHTML = `<p>The table is open, but its map image was not kept: ${esc(why)}</p>` +
        `<p><a href="${esc(data.gm.link)}">Open the GM page</a> (it can take another picture later).</p>`;
      return;
    }
  }
  location.assign(data.gm.link);
}

// ---- events ------------------------------------------------------------------------------------------------------

function events() {
  $("b-title").addEventListener("input", () => { fight.title = $("b-title").value; changed(); });
  $("b-ruleset").addEventListener("change", () => {
    fight = { ...fresh($("b-ruleset").value, fight.title), id: fight.id };
    chosen = null;
    renderTop();
    changed();
  });
  $("b-mode").addEventListener("change", () => { fight.mode = $("b-mode").value; changed(); });
  $("b-add-side").addEventListener("click", () => {
    fight.sides.push(`side ${fight.sides.length + 1}`);
    renderSides(); renderEntries(); changed();
  });
  $("b-sides").addEventListener("input", (ev) => {
    const i = ev.target.dataset.sideName;
    if (i === undefined) return;
    fight.sides[+i] = ev.target.value.trim().slice(0, MOST_SIDE);
    for (const el of document.querySelectorAll('[data-f="side"]')) el.querySelector(`option[value="${i}"]`).textContent = fight.sides[+i];
    changed();
  });
  $("b-sides").addEventListener("click", (ev) => {
    const i = ev.target.dataset.removeSide;
    if (i === undefined) return;
    fight.sides.splice(+i, 1);
    for (const e of fight.entries) if (e.side >= +i) e.side = Math.max(0, e.side - (e.side === +i ? 0 : 1));
    renderSides(); renderEntries(); changed();
  });
  $("b-search").addEventListener("input", search);
  $("b-results").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-use]");
    if (!b) return;
    // A monster joins the foes, a character the party; the GM moves either with its Side choice.
    const side = b.dataset.kind === "monster" && fight.sides.length > 1 ? 1 : 0;
    add({ source: "library", use: b.dataset.use, name: b.dataset.name, summary: b.dataset.summary, side });
  });
  $("b-sheet-file").addEventListener("change", async () => {
    const file = $("b-sheet-file").files[0];
    if (file) $("b-sheet-text").value = await file.text();
  });
  $("b-add-sheet").addEventListener("click", addSheet);
  $("b-add-own").addEventListener("click", addOwn);
  $("b-entries").addEventListener("input", (ev) => {
    const row = ev.target.closest("[data-key]");
    if (!row) return;
    const e = fight.entries.find((x) => String(x.key) === row.dataset.key);
    if (ev.target.dataset.f === "name") { e.name = ev.target.value.trim() || e.name; changed(); }
    else if (ev.target.dataset.metres !== undefined) { e.places[+ev.target.dataset.metres] = Number(ev.target.value) || 0; changed(); }
  });
  $("b-entries").addEventListener("change", (ev) => {
    if (rendering) return;
    const row = ev.target.closest("[data-key]");
    if (!row) return;
    const e = fight.entries.find((x) => String(x.key) === row.dataset.key), f = ev.target.dataset.f;
    if (f === "count") e.count = Math.max(1, Math.min(MOST_COUNT, Number.parseInt(ev.target.value, 10) || 1));
    else if (f === "side") { e.side = +ev.target.value; e.places = []; }
    else if (f === "hidden") e.hidden = ev.target.checked;
    else if (f === "name") { /* kept on input */ } else if (ev.target.dataset.band !== undefined) e.places[+ev.target.dataset.band] = ev.target.value;
    else return;
    placeAll();
    renderEntries();
    changed();
  });
  $("b-entries").addEventListener("click", (ev) => {
    const row = ev.target.closest("[data-key]");
    if (!row) return;
    const e = fight.entries.find((x) => String(x.key) === row.dataset.key);
    const button = ev.target.closest("button");
    if (button?.dataset.f === "remove") {
      fight.entries = fight.entries.filter((x) => x !== e);
      if (chosen?.e === e) chosen = null;
      renderEntries(); changed();
    } else if (button?.dataset.placeCopy !== undefined) {
      const i = +button.dataset.placeCopy;
      chosen = chosen && chosen.e === e && chosen.i === i ? null : { e, i };
      if (chosen) focusCell = [...e.places[i]];
      renderEntries(); renderBoard();
      if (chosen) $("b-board").querySelector(`[data-x="${focusCell[0]}"][data-y="${focusCell[1]}"]`)?.focus();
    }
  });
  $("b-brushes").addEventListener("change", (ev) => { if (ev.target.name === "b-brush") { brush = ev.target.value; chosen = null; renderBoard(); } });
  $("b-width").addEventListener("change", resize);
  $("b-height").addEventListener("change", resize);
  $("b-options").addEventListener("change", (ev) => {
    const name = ev.target.dataset.option;
    if (!name) return;
    fight.options[name] = ev.target.type === "checkbox" ? ev.target.checked : ev.target.value;
    changed();
  });
  $("b-cast").addEventListener("change", (ev) => { if (ev.target.dataset.cast) fight.cast[ev.target.dataset.cast] = ev.target.value; });
  $("b-save").addEventListener("click", save);
  $("b-download").addEventListener("click", download);
  $("builder").addEventListener("submit", create);
  boardEvents();
}

async function load() {
  rulesets = await fetch("/api/rulesets").then((r) => r.json());
  $("b-ruleset").innerHTML = Object.entries(rulesets)
    .map(([name, info]) => `<option value="${esc(name)}">${esc(info.title || name)}</option>`).join("");
  const params = new URLSearchParams(location.search);
  const wanted = params.get("ruleset");
  fight = fresh(rulesets[wanted] ? wanted : Object.keys(rulesets)[0]);
  const saved = params.get("fight");
  if (saved) {
    const { ok, data } = await ask("GET", `/api/fights/${encodeURIComponent(saved)}`);
    if (ok && data.body?.state?.ruleset) {
      fight = { ...fresh(data.body.state.ruleset), ...data.body.state, id: params.get("copy") ? null : data.id };
      nextKey = Math.max(0, ...fight.entries.map((e) => e.key)) + 1;
    } else $("b-problems").textContent = data.message || "That saved fight cannot be opened.";
  }
  renderTop();
  changed();
}

events();
load().catch((err) => { $("b-problems").textContent = `The builder could not start: ${err.message}`; });
