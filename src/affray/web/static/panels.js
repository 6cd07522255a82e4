// The parts of the table page drawn from the view: combatant cards (from the envelope's bars and statuses),
// WitchHammer's hand and slots (the ruleset's detail), and the log with its dice trace.
import { esc } from "./api.js";

export function combatantCards(v) {
  const cards = v.combatants.map((c) => {
    const bars = (c.bars || []).map((b) => {
      const pct = b.max > 0 ? Math.max(0, Math.min(100, (100 * b.value) / b.max)) : 0;
      return `<div class="bar"><span>${esc(b.name)}</span><span class="track" aria-hidden="true"><span class="fill" style="width:${pct}%"></span></span>` +
        `<span>${esc(b.value)}/${esc(b.max)}</span></div>`;
    }).join("");
    const statuses = (c.statuses || []).map((s) => `<span class="status">${esc(s.name)}${s.rounds != null && s.rounds >= 0 ? ` (${esc(s.rounds)} rd)` : ""}</span>`).join("");
    const flags = [c.dead ? "dead" : c.down ? "down" : "", c.id === v.turn ? "to act" : ""].filter(Boolean).map((f) => `<span class="tag">${f}</span>`).join(" ");
    const where = c.position ? `<span class="small muted">${c.position.kind === "square" ? `at ${c.position.x}, ${c.position.y}${c.position.facing ? ` facing ${esc(c.position.facing)}` : ""}`
      : c.position.kind === "line" ? `at ${esc(c.position.x)} m` : `place ${esc(c.position.x)}`}</span>` : "";
    return `<article class="card${c.controlled ? " mine" : ""}${c.down ? " down" : ""}" data-combatant="${esc(c.id)}">` +
      `<div><span class="name">${esc(c.name)}</span> <span class="small muted">${esc(c.side)}</span> ${flags}</div>${where}${bars}<div>${statuses}</div>${sheet(c.detail)}</article>`;
  });
  return `<h2>Combatants</h2><div class="cards">${cards.join("")}</div>`;
}

const PRIVATE_PARTS = new Set(["hand", "deck", "slots", "psych"]); // drawn in the cards panel

function sheet(detail) {
  // The ruleset's part of the combatant as the seat may see it (the GM sees every sheet), one line per field.
  if (!detail || typeof detail !== "object") return "";
  const line = (k, x) => `<li><b>${esc(k.replace(/_/g, " "))}</b> ${esc(typeof x === "object" ? JSON.stringify(x) : x)}</li>`;
  const rows = [];
  for (const [k, x] of Object.entries(detail)) {
    if (PRIVATE_PARTS.has(k) || x === null || x === "") continue;
    if (x && typeof x === "object" && !Array.isArray(x)) for (const [k2, y] of Object.entries(x)) rows.push(line(`${k} ${k2}`, y));
    else rows.push(line(k, x));
  }
  return rows.length ? `<details class="small"><summary>sheet</summary><ul>${rows.join("")}</ul></details>` : "";
}

function cardFace(info, id, extra = "") {
  if (!info) return `<div class="wcard" data-card="${esc(id)}"><div class="nm">${esc(id)}</div>${extra}</div>`;
  const above = `Init ${info.init >= 0 ? "+" : ""}${info.init} · Def ${info.defense >= 0 ? "+" : ""}${info.defense}`;
  return `<div class="wcard ${esc(info.kind)}" data-card="${esc(id)}"><div class="nm">${esc(info.name)}</div>` +
    `<div class="small">${esc(info.kind)} · ${above}</div><div class="small muted">${esc(info.text)}</div>${extra}</div>`;
}

function faceDown(fd, cards, label) {
  if (!fd) return `<div class="wcard empty small muted">${label}: empty</div>`;
  if (fd.card) return cardFace(cards[fd.card], fd.card, `<div class="small">${label}</div>`);
  return `<div class="wcard back" data-seal="${esc(fd.seal)}"><div class="nm">${label}</div><div class="small">face down</div>` +
    `<div class="small mono">seal ${esc(fd.seal)}<br>${esc((fd.digest || "").slice(0, 16))}…</div></div>`;
}

export function witchhammerPanel(v, due, button) {
  // Rule: WH-02, WH-03 (the hand, the Psych card and the two slots, face down until the reveal).
  const d = v.detail || {};
  const cards = d.cards || {};
  const parts = [];
  if (d.vignette !== undefined) parts.push(`<p>Vignette ${esc(d.vignette)}${d.drama_timer ? " · Drama Timer on" : ""}</p>`);
  for (const c of v.combatants) {
    const cd = c.detail || {};
    if (!("slots" in cd) && !("psych" in cd)) continue;
    const slots = [faceDown(cd.psych, cards, "Psych"), faceDown(cd.slots?.[0], cards, "Slot 1"), faceDown(cd.slots?.[1], cards, "Slot 2")];
    const ready = cd.ready ? ` <span class="tag">ready</span>` : "";
    parts.push(`<div data-slots="${esc(c.id)}"><b>${esc(c.name)}</b>${ready}<div class="slots">${slots.join("")}</div></div>`);
    if (c.controlled && cd.hand) {
      const mine = due.filter((s) => s.actor === c.id);
      const hand = Object.entries(cd.hand).filter(([, n]) => n > 0).map(([id, n]) => {
        const specs = mine.filter((s) => s.spec.action?.card === id);
        const buttons = specs.map((s) => button(s)).join("");
        return cardFace(cards[id], id, `${n > 1 ? `<div class="small">×${n}</div>` : ""}${buttons}`);
      });
      parts.push(`<h3>${esc(c.name)}'s hand</h3><div class="hand" data-hand="${esc(c.id)}">${hand.join("")}</div>`);
    }
  }
  return parts.length ? `<h2>Cards</h2>${parts.join("")}` : "";
}

function dice(roll) {
  const faces = (roll.dice || []).map((d) => `<span class="die${d.kept === false ? " dropped" : ""}" title="draw ${esc(d.draw)}, d${esc(d.sides)}${d.kept === false ? ", dropped" : ""}">${esc(d.value)}</span>`).join("");
  const mod = roll.modifier ? ` ${roll.modifier > 0 ? "+" : "−"}${Math.abs(roll.modifier)}` : "";
  return `<span class="dice">${esc(roll.notation)} ${faces}${mod} = <b>${esc(roll.total)}</b></span>`;
}

const SKIP = new Set(["type", "actor"]);

export function describeEvent(e, names) {
  const who = names[e.actor] || e.actor || "";
  switch (e.type) {
    case "rolled": return `${esc(who)} rolls ${esc(e.purpose)}: ${dice(e.roll || {})}`;
    case "note": return who ? `<b>${esc(who)}</b>: “${esc(e.text)}”` : esc(e.text);
    case "committed": return `${esc(who)} places a card face down <span class="small mono">(${esc(e.seal)})</span>`;
    case "revealed": return `${esc(who)} turns over <b>${esc(e.payload?.card ?? "a card")}</b>`;
    default: {
      const fields = Object.entries(e).filter(([k]) => !SKIP.has(k)).map(([k, x]) => `${esc(k)} ${esc(typeof x === "object" ? JSON.stringify(x) : names[x] || x)}`);
      return `${who ? `${esc(who)}: ` : ""}${esc(String(e.type).replace(/_/g, " "))}${fields.length ? ` (${fields.join(", ")})` : ""}`;
    }
  }
}

function describeAction(entry, names) {
  const a = entry.action || {};
  if (entry.kind === "undo") return `take back to version ${esc(a.to ?? a.version ?? "")}`;
  if (a.type === "commit" && a.seals) return `places ${a.seals.length} card(s) face down`;
  const rest = Object.entries(a).filter(([k]) => k !== "type").map(([k, x]) => `${esc(k)} ${esc(typeof x === "object" ? JSON.stringify(x) : names[x] || x)}`);
  return `${esc(String(a.type || entry.kind).replace(/_/g, " "))}${rest.length ? ` (${rest.join(", ")})` : ""}`;
}

export function logPanel(entries, names) {
  const items = entries.slice().reverse().map((entry) => {
    const evs = (entry.events || []).map((e) => `<li>${describeEvent(e, names)}</li>`).join("");
    return `<li data-seq="${esc(entry.seq)}"><b>#${esc(entry.seq)} ${esc(names[entry.actor] || entry.actor || entry.seat)}</b> ${describeAction(entry, names)}<ul>${evs}</ul></li>`;
  });
  return `<h2>Log</h2><ol class="log" reversed>${items.join("") || '<li class="muted">Nothing yet.</li>'}</ol>`;
}
