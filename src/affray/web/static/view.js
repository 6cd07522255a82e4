// One reading of every ruleset's view: the typed envelope (core/view.py) as is, and the older per-ruleset dicts
// turned into the same shape so the page draws the generic parts one way. Tolerant of missing fields.
const asList = (x) => (Array.isArray(x) ? x : []);

export function envelope(view) {
  if (!view) return { combatants: [], order: [], you: [], detail: {} };
  if (Array.isArray(view.combatants)) return { ...view, detail: view.detail || {} };
  const pending = view.pending || view.prompt || null;
  const prompt = pending ? { phase: pending.phase, actors: asList(pending.actors), text: pending.text || pending.prompt || "" } : null;
  const table = view.fighters || view.combatants || {};
  const you = asList(view.you);
  const combatants = Object.entries(table).map(([id, c]) => legacyCombatant(id, c, you));
  const detail = { ...view };
  delete detail.combatants; delete detail.fighters;
  return { ruleset: view.ruleset, mode: view.mode || "", round: view.round ?? 0, phase: view.phase || prompt?.phase || "",
           order: asList(view.order), turn: prompt?.actors?.[0] ?? null, prompt, outcome: view.outcome || null,
           seat: view.seat, you, combatants, detail };
}

function legacyCombatant(id, c, you) {
  const bars = [];
  const bar = (name, value, max) => { if (typeof value === "number") bars.push({ name, value, max: max ?? value }); };
  bar("HP", c.hp, c.max_hp); bar("EX-HP", c.ex_hp, c.ex_hp_max); bar("Poise", c.poise, c.max_poise);
  bar("Health", c.health, c.max_health);
  const pos = c.pos || c.position;
  const position = Array.isArray(pos) ? { kind: "square", x: pos[0], y: pos[1], facing: facingName(c.facing) }
    : (typeof pos === "number" ? { kind: "line", x: pos, y: 0, facing: null } : null);
  const statuses = asList(c.statuses).map((s) => (typeof s === "string" ? { name: s, rounds: null } : s));
  if (c.status && c.status !== "normal") statuses.push({ name: c.status, rounds: null });
  const out = c.out || "";
  return { id, name: c.name || id, side: c.side || "", controlled: you.includes(id), position, bars, statuses,
           down: Boolean(out) || c.able === false, dead: out === "dead" || c.status === "dead", detail: c };
}

function facingName(f) {
  if (!Array.isArray(f)) return f ?? null;
  const names = { "1,0": "E", "-1,0": "W", "0,1": "S", "0,-1": "N", "1,1": "SE", "1,-1": "NE", "-1,1": "SW", "-1,-1": "NW" };
  return names[f.join(",")] ?? null;
}

export function mapRows(v) {
  const m = v.detail?.map;
  return Array.isArray(m) ? m : (typeof m === "string" ? m.split("\n").filter(Boolean) : null);
}
