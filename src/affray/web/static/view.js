// One reading of every ruleset's view: the typed envelope (core/view.py), and what the page derives from it the
// same way for every ruleset: who is whose (own, ally, foe as this seat sees them), display names, token labels,
// and which of the page's panels draw the ruleset's own part (the view's declared "panels", never its shape).
export function envelope(view) {
  return view; // every ruleset sends the envelope: the page reads it as it is
}

// Whether the view asks for the panel `kind` ("grid", "line", "places", "cards", "facts").
export const wants = (v, kind) => v.panels.includes(kind);

// Each combatant's relation to this seat: "own" (the seat plays it), "ally" (on a side the seat plays), "foe"
// (another side); a seat that plays nobody (a spectator, a GM with no combatant) sees sides, "side0", "side1"...
export function relations(v) {
  const mine = new Set(v.combatants.filter((c) => c.controlled).map((c) => c.side));
  const sides = [...new Set(v.combatants.map((c) => c.side))];
  const out = {};
  for (const c of v.combatants) {
    out[c.id] = c.controlled ? "own" : mine.size ? (mine.has(c.side) ? "ally" : "foe") : `side${sides.indexOf(c.side) % 4}`;
  }
  return out;
}

export const RELATION_WORDS = { own: "yours", ally: "ally", foe: "foe" };

export function names(v) {
  return Object.fromEntries(v.combatants.map((c) => [c.id, c.name]));
}

// A token's label: the initials of its first two words, or of its first word and its number ("Ash Jackal 2" -> "A2").
export function tokenLabel(name) {
  const parts = String(name).split(/\s+/).filter(Boolean);
  const last = parts[parts.length - 1] || "";
  if (parts.length > 1 && /^\d+$/.test(last)) return `${parts[0][0]}${last}`;
  const big = parts.filter((p) => /^\p{Lu}/u.test(p)); // "Hob the Miller" -> "HM", not "Ht"
  return (big.length ? big : parts).slice(0, 2).map((p) => p[0]).join("");
}

// Every combatant's token label, told apart: labels that would repeat ("DT" for three Dock Thugs) are numbered
// in the view's order ("DT1", "DT2", "DT3").
export function tokenLabels(v) {
  const base = Object.fromEntries(v.combatants.map((c) => [c.id, tokenLabel(c.name)]));
  const count = {}, seen = {};
  for (const label of Object.values(base)) count[label] = (count[label] || 0) + 1;
  const out = {};
  for (const c of v.combatants) {
    const label = base[c.id];
    seen[label] = (seen[label] || 0) + 1;
    out[c.id] = count[label] > 1 ? `${label}${seen[label]}` : label;
  }
  return out;
}

export function mapRows(v) {
  const m = v.detail?.map;
  return Array.isArray(m) ? m : (typeof m === "string" ? m.split("\n").filter(Boolean) : null);
}
