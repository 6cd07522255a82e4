// The lobby: pick an example or upload a scenario file, choose who plays whom (a player, several combatants to one
// player, the GM, or a policy of the server), the rule options (each with its rule ID as help), create the table, and
// go to the GM page, which lists every seat's link. The table is opened exactly as the choices show: every
// combatant's choice is sent, not only the ones that differ from a default.
//
// A server reachable from elsewhere opens tables only with its creation key (header X-Create-Key). The lobby takes
// it from its link's fragment (`/#key=KEY`, which `make run` and `affray table new --create-key` print; a browser never
// sends a fragment to a server), or asks for it once the server says it is needed, and keeps it in this browser
// (localStorage) from then on; a key the server refuses is forgotten and asked for again.
import { esc } from "./api.js";
import { storeCreated } from "./gm.js";

const $ = (id) => document.getElementById(id);
let examples = [], rulesets = {}, uploaded = null;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const KEY = "affray.create-key";

function keepKeyFromLink() {
  const found = new URLSearchParams(location.hash.slice(1)).get("key");
  if (found) localStorage.setItem(KEY, found);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);  // the key leaves the address bar
}

function creationKey() {
  const typed = $("create-key").value.trim();
  return typed || localStorage.getItem(KEY) || "";
}

// The headers of a request that needs the creation key (opening a table, checking a scenario).
function keyed() {
  const key = creationKey();
  return { "Content-Type": "application/json", ...(key ? { "X-Create-Key": key } : {}) };
}

// After an answer to a keyed request: a refused key is forgotten and the key asked for; an accepted typed one kept.
function heard(res, data) {
  if (data?.code === "bad_create_key") {
    localStorage.removeItem(KEY);
    $("create-key").value = "";
    $("key-box").hidden = false;
    $("create-key").focus();
  } else if (res.ok && $("create-key").value.trim()) {
    localStorage.setItem(KEY, $("create-key").value.trim());
    $("key-box").hidden = true;
  }
}

async function load() {
  [examples, rulesets] = await Promise.all([fetch("/api/examples").then((r) => r.json()), fetch("/api/rulesets").then((r) => r.json())]);
  const groups = new Map();
  for (const e of examples) { if (!groups.has(e.ruleset)) groups.set(e.ruleset, []); groups.get(e.ruleset).push(e); }
  $("example").innerHTML = [...groups.entries()].map(([rs, list]) => `<optgroup label="${esc(rulesets[rs]?.title || rs)}">` +
    list.map((e) => `<option value="${esc(e.name)}">${esc(e.title)}</option>`).join("") + "</optgroup>").join("");
  const wanted = new URLSearchParams(location.search).get("example");
  if (wanted) $("example").value = wanted;
  chosen();
}

function currentRuleset() {
  if (uploaded) return (uploaded.text.match(/^ruleset:\s*([a-z_]+)/m) || [])[1] || null;
  return examples.find((e) => e.name === $("example").value)?.ruleset || null;
}

// The choices of one combatant: "player:A".. (a person; the same letter shares one seat and one link), "gm", or
// "policy:NAME". The default is how the scenario opens a table if nothing is changed.
function choices(c, count, policies) {
  const players = LETTERS.slice(0, Math.max(count, 1)).split("").map((l) => [`player:${l}`, `Player ${l}`]);
  return [...players, ["gm", "the GM"], ...policies.map((p) => [`policy:${p}`, `AI: ${p}`])];
}

function defaults(list) {
  // A person-played combatant gets a player letter per seat of the scenario (combatants seated together share one).
  const letter = new Map(), out = {};
  for (const c of list) {
    if (c.controller === "human") {
      if (!letter.has(c.seat)) letter.set(c.seat, LETTERS[letter.size]);
      out[c.id] = `player:${letter.get(c.seat)}`;
    } else out[c.id] = c.controller === "gm" ? "gm" : `policy:${c.controller}`;
  }
  return out;
}

function chosen() {
  const example = uploaded ? uploaded.checked : examples.find((e) => e.name === $("example").value);
  $("example-text").textContent = example?.description || "";
  const rs = rulesets[currentRuleset()] || { options: [], policies: [] };
  const list = example?.combatants || [];
  const start = defaults(list);
  const sides = [...new Set(list.map((c) => c.side))];
  const rows = sides.map((side) => {
    const members = list.filter((c) => c.side === side);
    const whole = `<select data-side="${esc(side)}" aria-label="the whole ${esc(side)} side"><option value="">the whole side…</option>` +
      `<option value="players">each their own player</option><option value="one">one player for all</option><option value="gm">the GM</option>` +
      rs.policies.map((p) => `<option value="policy:${esc(p)}">AI: ${esc(p)}</option>`).join("") + "</select>";
    const people = members.map((c) => {
      const opts = choices(c, list.length, rs.policies).map(([value, label]) => `<option value="${esc(value)}"${value === start[c.id] ? " selected" : ""}>${esc(label)}</option>`).join("");
      return `<label class="cast-row"><span>${esc(c.name)}</span> <select data-controller="${esc(c.id)}" aria-label="who plays ${esc(c.name)}">${opts}</select></label>`;
    });
    return `<fieldset class="side"><legend>${esc(side)}</legend>${whole}${people.join("")}</fieldset>`;
  });
  $("controllers-box").hidden = !list.length;
  $("controllers").innerHTML = rows.join("");
  summary();
  $("options").innerHTML = rs.options.map((o) => {
    const id = `opt-${o.name}`, help = `<span class="small muted" id="${id}-help">${esc(o.doc)} <span class="rule">(${esc(o.rule)})</span></span>`;
    let input;
    if (o.type === "bool") input = `<input type="checkbox" id="${id}" data-option="${esc(o.name)}" data-type="bool"${o.default ? " checked" : ""} aria-describedby="${id}-help">`;
    else if (o.choices.length) input = `<select id="${id}" data-option="${esc(o.name)}" data-type="${esc(o.type)}" aria-describedby="${id}-help">${o.choices.map((c) => `<option${c === o.default ? " selected" : ""}>${esc(c)}</option>`).join("")}</select>`;
    else input = `<input id="${id}" data-option="${esc(o.name)}" data-type="${esc(o.type)}" value="${esc(o.default)}" aria-describedby="${id}-help">`;
    return `<label for="${id}">${esc(o.name.replace(/_/g, " "))} ${input}</label>${help}`;
  }).join("") || '<p class="muted">This ruleset has no rule options.</p>';
}

function cast() {
  // Every combatant's choice: {controllers, seats, people: letter -> [ids]}.
  const controllers = {}, seats = {}, people = new Map();
  for (const el of document.querySelectorAll("[data-controller]")) {
    const [kind, name] = el.value.split(":");
    const id = el.dataset.controller;
    if (kind === "player") {
      controllers[id] = "human";
      if (!people.has(name)) people.set(name, []);
      people.get(name).push(id);
    } else controllers[id] = kind === "gm" ? "gm" : name;
  }
  for (const ids of people.values()) {
    // A seat is named after its first combatant (what the GM page and the links show beside its names).
    const seat = /^[a-z0-9][a-z0-9_-]{0,31}$/.test(ids[0]) ? ids[0] : `player-${ids[0].toLowerCase().replace(/[^a-z0-9]/g, "")}`.slice(0, 32);
    for (const id of ids) seats[id] = seat;
  }
  return { controllers, seats, people };
}

function summary() {
  const { controllers, people } = cast();
  const name = (id) => document.querySelector(`[data-controller="${CSS.escape(id)}"]`)?.closest("label")?.querySelector("span")?.textContent || id;
  const lines = [...people.entries()].sort().map(([letter, ids]) => `<li>Player ${esc(letter)} plays ${esc(ids.map(name).join(" and "))}: one link</li>`);
  const gm = Object.entries(controllers).filter(([, c]) => c === "gm").map(([id]) => name(id));
  if (gm.length) lines.push(`<li>The GM plays ${esc(gm.join(", "))}</li>`);
  const ai = Object.entries(controllers).filter(([, c]) => c !== "gm" && c !== "human").map(([id, c]) => `${name(id)} (${c})`);
  if (ai.length) lines.push(`<li>The AI plays ${esc(ai.join(", "))}</li>`);
  $("cast-summary").innerHTML = lines.length ? `<ul>${lines.join("")}</ul>` : "";
}

function wholeSide(select) {
  const side = select.dataset.side, value = select.value;
  if (!value) return;
  const members = [...select.closest("fieldset").querySelectorAll("[data-controller]")];
  const used = new Set([...document.querySelectorAll("[data-controller]")].filter((el) => !members.includes(el))
    .map((el) => el.value).filter((v) => v.startsWith("player:")));
  const free = LETTERS.split("").map((l) => `player:${l}`).filter((v) => !used.has(v));
  members.forEach((el, i) => {
    el.value = value === "players" ? free[i] : value === "one" ? free[0] : value;
  });
  select.value = "";
  select.setAttribute("aria-label", `the whole ${side} side`);
  summary();
}

function optionValues() {
  const out = {};
  const rs = rulesets[currentRuleset()] || { options: [] };
  for (const el of document.querySelectorAll("[data-option]")) {
    const info = rs.options.find((o) => o.name === el.dataset.option);
    let value = el.type === "checkbox" ? el.checked : el.value;
    if (el.dataset.type === "int") value = Number.parseInt(value, 10);
    else if (el.dataset.type === "float") value = Number(value);
    if (info && value !== info.default) out[el.dataset.option] = value;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  $("problems").innerHTML = "";
  const { controllers, seats } = cast();
  const seed = $("seed").value.trim();
  const body = { scenario: uploaded ? uploaded.text : $("example").value, options: optionValues(), controllers, seats, seed: seed ? Number(seed) : null };
  let res;
  try {
    res = await fetch("/api/tables", { method: "POST", headers: keyed(), body: JSON.stringify(body) });
  } catch {
    $("problems").innerHTML = "<p>The server cannot be reached; no table was created.</p>";
    return;
  }
  const data = await res.json().catch(() => ({ message: `The server answered ${res.status}.` }));
  heard(res, data);
  if (res.status !== 201) { showProblems(data); return; }
  storeCreated(data);
  await owned("POST", "/api/owned/tables", { table: data.table, token: data.gm.token });
  $("created").hidden = false;
  $("gm-link").href = data.gm.link;
  location.assign(data.gm.link);
}

function showProblems(data) {
  const file = uploaded ? uploaded.name : null;
  const problems = (data.problems || []).map((p) =>
    `<li><b>${esc(file && p.file === "scenario.yaml" ? file : p.file || file || "")}</b>: ${esc(p.field)}: expected ${esc(p.expected)}</li>`);
  $("problems").innerHTML = `<p>${esc(data.message || "The table could not be created.")}</p><ul>${problems.join("")}</ul>`;
}

$("example").addEventListener("change", () => { uploaded = null; $("upload").value = ""; $("upload-name").textContent = ""; chosen(); });
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  uploaded = file ? { name: file.name, text: await file.text(), checked: null } : null;
  $("upload-name").textContent = uploaded ? `Using ${uploaded.name} (${currentRuleset() || "no ruleset named"}).` : "";
  $("problems").innerHTML = "";
  if (uploaded) {
    // Checked as the table would open it, so that who plays whom shows its combatants before the table exists.
    const res = await fetch("/api/scenarios/check", { method: "POST", headers: keyed(),
                                                      body: JSON.stringify({ scenario: uploaded.text }) }).catch(() => null);
    const data = res ? await res.json().catch(() => null) : null;
    if (res) heard(res, data);
    if (res?.ok) uploaded.checked = data;
    else showProblems(data || { message: "The server cannot be reached." });
  }
  chosen();
});
$("controllers").addEventListener("change", (ev) => { if (ev.target.dataset.side !== undefined) wholeSide(ev.target); else summary(); });
$("lobby").addEventListener("submit", create);

// ---- What the server keeps for this owner: built fights and opened tables (docs/table.md, "Building a fight") ----
// The owner is the holder of the creation key, or else of a secret this browser makes and keeps (X-Owner-Key).
const OWNER = "affray.owner-key";

function ownerKey() {
  let key = localStorage.getItem(OWNER);
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem(OWNER, key);
  }
  return key;
}

async function owned(method, path, body) {
  try {
    const res = await fetch(path, { method, headers: { ...keyed(), "X-Owner-Key": ownerKey() },
                                    body: body === undefined ? undefined : JSON.stringify(body) });
    return { ok: res.ok, data: await res.json().catch(() => ({})) };
  } catch {
    return { ok: false, data: { message: "The server cannot be reached." } };
  }
}

const when = (t) => new Date(t * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

async function listOwned() {
  const [fights, tables] = await Promise.all([owned("GET", "/api/fights"), owned("GET", "/api/owned/tables")]);
  if (!fights.ok || !tables.ok) {
    $("owned").hidden = true;
    $("owned-note").textContent = (fights.ok ? tables : fights).data.message || "";
    return;
  }
  $("owned").hidden = false;
  $("owned-note").textContent = "";
  const title = (rs) => rulesets[rs]?.title?.split(":")[0] || rs;
  $("owned-fights").innerHTML = fights.data.fights.map((f) => `<li data-fight="${esc(f.id)}"><b>${esc(f.title)}</b>
    <span class="small muted">${esc(title(f.ruleset))}, saved ${esc(when(f.updated_at))}</span>
    <a href="/build?fight=${encodeURIComponent(f.id)}">Open</a>
    <button type="button" class="secondary" data-copy="${esc(f.id)}">Copy ${esc(f.title)}</button>
    <button type="button" class="danger" data-delete="${esc(f.id)}">Delete ${esc(f.title)}</button></li>`).join("")
    || '<li class="muted">None yet: a fight you build and save is kept here.</li>';
  $("owned-tables").innerHTML = tables.data.tables.map((t) => `<li data-owned-table="${esc(t.id)}"><b>${esc(t.title)}</b>
    <span class="small muted">${esc(title(t.ruleset))}, opened ${esc(when(t.created_at))}${t.over ? ", over" : ""}</span>
    ${t.gm_link ? `<a href="${esc(t.gm_link)}">GM page</a>` : ""}
    <button type="button" class="secondary" data-disown="${esc(t.id)}">Remove ${esc(t.title)} from the list</button></li>`).join("")
    || '<li class="muted">None yet: the tables you open here are kept on this list.</li>';
}

$("owned").addEventListener("click", async (ev) => {
  const b = ev.target.closest("button");
  if (!b) return;
  let answer = null;
  if (b.dataset.copy) {
    const got = await owned("GET", `/api/fights/${encodeURIComponent(b.dataset.copy)}`);
    answer = got.ok ? await owned("POST", "/api/fights", { title: `${got.data.title} (copy)`.slice(0, 200), ruleset: got.data.ruleset, body: got.data.body }) : got;
  } else if (b.dataset.delete) answer = await owned("DELETE", `/api/fights/${encodeURIComponent(b.dataset.delete)}`);
  else if (b.dataset.disown) answer = await owned("DELETE", `/api/owned/tables/${encodeURIComponent(b.dataset.disown)}`);
  if (answer && !answer.ok) { $("owned-note").textContent = answer.data.message || "The server refused."; return; }
  await listOwned();
});

keepKeyFromLink();
load().then(listOwned).catch((err) => { $("problems").textContent = `Could not load the examples: ${err.message}`; });
