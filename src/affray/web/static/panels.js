// The parts of the table page drawn from the view: combatant cards (the envelope's bars and statuses, coloured by
// what each is to this seat), the "cards" panel (hand, Psych card and slots), the "facts" panel (label and value
// rows the ruleset fills in), each where the view asks for it, and the log, told in the server's sentences with the
// dice drawn as chips and the raw record one click away.
import { esc, plain, plainHtml } from "./api.js";
import { placeName } from "./board.js";
import { RELATION_WORDS, wants } from "./view.js";

export function combatantCards(v, rel, opts) {
  const single = (v.prompt?.actors || []).length === 1; // "to act" only where one combatant is due
  const cards = v.combatants.map((c) => {
    const bars = (c.bars || []).map((b) => `<div class="bar"><span class="bar-name">${esc(b.name)}</span>` +
      `<meter min="0" max="${esc(Math.max(b.max, 1))}" value="${esc(Math.max(0, b.value))}" aria-label="${esc(b.name)}"></meter>` +
      `<span class="bar-value">${esc(b.value)}/${esc(b.max)}</span></div>`).join("");
    const statuses = (c.statuses || []).map((s) => `<span class="status">${esc(s.name)}${s.rounds != null && s.rounds >= 0 ? ` (${esc(s.rounds)} rd)` : ""}</span>`).join("");
    const flags = [c.dead ? "dead" : c.down ? "down" : "", single && v.prompt.actors[0] === c.id ? "to act" : "",
                   wants(v, "cards") && c.detail?.ready ? "ready" : ""].filter(Boolean).map((f) => `<span class="tag">${f}</span>`).join(" ");
    const where = position(c);
    const who = RELATION_WORDS[rel[c.id]] ? `<span class="rel">${RELATION_WORDS[rel[c.id]]}</span>` : "";
    // The GM clicks the card to rule on it; the keyboard and screen readers have its "rule" button (a card that
    // were a button itself would hold the sheet's controls inside a control).
    const edit = opts.gm ? ` data-combatant="${esc(c.id)}"` : "";
    const rule = opts.gm ? ` <button type="button" class="linkish" data-gm="rule" data-who="${esc(c.id)}" aria-label="rule on ${esc(c.name)}">rule</button>` : "";
    return `<article class="card ${rel[c.id]}${c.down ? " down" : ""}${opts.editing === c.id ? " editing" : ""}"${edit} data-card-of="${esc(c.id)}">` +
      `<div><span class="name">${esc(c.name)}</span>${rule} ${who} <span class="small muted">${esc(c.side)}</span> ${flags} ${where}</div><div class="bars">${bars}</div>${wants(v, "facts") ? factRows(c.detail?.facts, "small") : ""}<div class="card-foot">${statuses}${sheet(c, opts.opened)}</div></article>`;
  });
  return `<h2>Combatants</h2><div class="cards">${cards.join("")}</div>`;
}

function position(c) {
  const p = c.position;
  if (!p) return "";
  const text = p.kind === "square" ? `at (${p.x}, ${p.y})${p.facing ? ` facing ${String(p.facing).toUpperCase()}` : ""}`
    : p.kind === "line" ? `at ${p.x} m` : `in ${placeName(p.x)}`;
  return `<span class="small muted where">${esc(text)}</span>`;
}

// A combatant's sheet: the rows its ruleset wrote in words for this seat (the view's combatant "sheet"), drawn as
// they are; open while this page's reader keeps it open, whatever pushes redraw its card (openable).
function sheet(c, opened) {
  const rows = (c.sheet || []).map((f) => `<li><b>${esc(f.label)}</b> ${esc(f.value)}</li>`);
  return rows.length ? `${openable(`sheet:${c.id}`, opened, "small", "sheet", ` data-sheet="${esc(c.id)}"`)}<ul>${rows.join("")}</ul></details>` : "";
}

// A <details> the page keeps open across renders while its reader keeps it open (table.js, keepOpen): named by its
// key (data-open), open when the page's opened set holds the key. Returns the opening tag and its summary.
function openable(key, opened, cls, summary, attrs = "") {
  return `<details class="${cls}" data-open="${esc(key)}"${attrs}${opened?.has(key) ? " open" : ""}><summary>${summary}</summary>`;
}

function cardFace(info, id, opened, where, extra = "", cls = "") {
  if (!info) return `<div class="wcard ${cls}" data-card="${esc(id)}"><div class="nm">${esc(String(id).replace(/_/g, " "))}</div>${extra}</div>`;
  const above = `Init ${info.init >= 0 ? "+" : ""}${info.init} · Def ${info.defense >= 0 ? "+" : ""}${info.defense}`;
  // The card's name opens its text (a line of its own for "text" made a phone's hand a screen longer).
  return `<div class="wcard ${esc(info.kind)} ${cls}" data-card="${esc(id)}">` +
    `${openable(`text:${where}:${id}`, opened, "small muted", `<span class="nm">${esc(info.name)}</span>`)}${esc(info.text)}</details>` +
    `<div class="small">${above}</div>${extra}</div>`;
}

function slotChip(fd, cards, label) {
  // A slot as a small chip: empty, face down (its seal, never its card), or a card face up (the seat's own, or
  // revealed).
  if (!fd) return `<span class="chip empty" title="${label}: empty">${label}</span>`;
  if (fd.card) return `<span class="chip up" data-card="${esc(fd.card)}" title="${label}">${label}: ${esc(cards[fd.card]?.name || String(fd.card).replace(/_/g, " "))}</span>`;
  return `<span class="chip back" data-seal="${esc(fd.seal)}" title="${label}: face down">${label}: face down</span>`;
}

// The "cards" panel: every combatant's Psych card and two slots as chips (WH-02, WH-03), one row each. The seat's own
// hands are its choices, drawn with its moves (handPanel), where a phone shows them first.
export function cardsPanel(v) {
  const cards = v.detail?.cards || {};
  const rows = v.combatants.map((c) => {
    const ready = c.detail?.ready ? ` <span class="tag">ready</span>` : "";
    return `<li data-slots="${esc(c.id)}" class="slot-row"><b>${esc(c.name)}</b>${ready} ${slotChips(c, cards)}</li>`;
  });
  if (!rows.length) return "";
  const vignette = v.detail?.vignette !== undefined ? ` <span class="small muted">vignette ${esc(v.detail.vignette)}</span>` : "";
  return `<h2>Cards${vignette}</h2><ul class="slot-rows">${rows.join("")}</ul>`;
}

function slotChips(c, cards) {
  const cd = c.detail || {};
  return `<span class="slots">${slotChip(cd.psych, cards, "Psych")}${slotChip(cd.slots?.[0], cards, "1")}${slotChip(cd.slots?.[1], cards, "2")}</span>`;
}

// One combatant's part of the "cards" panel that the seat plays, for its moves (WH-02, WH-03): its slots as chips
// (`slots`, drawn by the moves panel above its other moves), and (`hand`) each card of its hand that can be played
// now with the one button that puts it face down in the next slot, the rest of the hand folded away. A combination
// of cards (a "commit") is never a button of its own: the slots are filled one card at a time.
export function handPanel(v, c, mine, button, opened) {
  const cards = v.detail?.cards || {}, cd = c.detail || {};
  if (!cd.hand) return { slots: "", hand: "" };
  const held = Object.entries(cd.hand).filter(([, n]) => n > 0);
  const playable = held.filter(([id]) => mine.some((s) => s.spec.action?.card === id));
  const rest = held.filter(([id]) => !mine.some((s) => s.spec.action?.card === id));
  const face = ([id, n]) => {
    const buttons = mine.filter((s) => s.spec.action?.card === id).map((s) => button(s, placeLabel(s, cd))).join("");
    return cardFace(cards[id], id, opened, c.id, `${n > 1 ? `<div class="small">×${n}</div>` : ""}${buttons}`);
  };
  const count = `${rest.length} ${playable.length ? "other " : ""}card${rest.length === 1 ? "" : "s"} in hand`;
  const others = rest.length ? `${openable(`others:${c.id}`, opened, "small", count)}<div class="hand">${rest.map(face).join("")}</div></details>` : "";
  const hand = playable.length ? `<div class="hand" data-hand="${esc(c.id)}">${playable.map(face).join("")}</div>` : "";
  return { slots: `<p class="own-slots" data-own-slots="${esc(c.id)}"><span class="small muted">Slots</span> ${slotChips(c, cards)}${takeBackCard(v, c, mine)}</p>`, hand: hand + others };
}

// Take back (WH-03, option planning_withdraw): in Planning, before being ready, the seat's last card still face
// down goes back to the hand ({"type": "withdraw", "slot": n}: a record of its own, others' placements stand).
// Never in the legal list, so the button is drawn here; table.js sends it (data-withdraw="actor|slot").
function takeBackCard(v, c, mine) {
  const filled = (c.detail?.slots || []).length;
  if (v.phase !== "planning" || c.detail?.ready || !filled || !mine.length) return "";
  return ` <button type="button" class="take-back-card" data-withdraw="${esc(c.id)}|${filled}" title="Take back the card in slot ${filled}; it returns to your hand">Take back</button>`;
}

// The "facts" panel: the view's rows under their title; each combatant's rows are on its card.
export function factsPanel(v) {
  const facts = v.detail?.facts;
  return facts?.rows?.length ? `<h2>${esc(facts.title)}</h2>${factRows(facts)}` : "";
}

function factRows(facts, cls = "") {
  if (!facts?.rows?.length) return "";
  const rows = facts.rows.map((f) => `<div class="fact"><dt>${esc(f.label)}</dt><dd>${esc(f.value)}</dd></div>`).join("");
  const title = facts.title && cls ? `<span class="muted">${esc(facts.title)}</span>` : "";
  return `${title}<dl class="facts ${cls}">${rows}</dl>`;
}

function placeLabel(s, cd) {
  if (s.spec.action?.type === "psych") return "play as Psych card";
  return `put in slot ${Math.min(2, (cd.slots || []).length + 1)}`;
}

function chips(roll) {
  const faces = (roll.dice || []).map((d) => `<span class="die${d.kept === false ? " dropped" : ""}" title="d${esc(d.sides)}${d.kept === false ? ", dropped" : ""}">${esc(d.value)}</span>`).join("");
  const mod = roll.modifier ? ` <span class="mod">${roll.modifier > 0 ? "+" : "−"}${Math.abs(roll.modifier)}</span>` : "";
  return `<span class="dice" title="${esc(roll.notation)}">${faces}${mod} = <b>${esc(roll.total)}</b></span>`;
}

export function eventLine(e) {
  // One event as the server told it to this seat: its sentence, and a roll's dice as chips after its lead.
  if (e.type === "rolled" && e.roll && e.lead) return `${plainHtml(e.lead)}: ${chips(e.roll)}`;
  return plainHtml(e.text ?? "");
}

function entryItem(entry, names, opened) {
  const events = (entry.events || []).filter((e) => e.text);
  const head = entry.text ? `<p class="headline">${plainHtml(entry.text)}</p>` : "";
  const lines = events.map((e) => `<li class="ev ev-${esc(e.type)}">${eventLine(e)}</li>`).join("");
  const fallback = !head && !lines ? `<p class="headline">${esc(names[entry.actor] || "Someone")} acts.</p>` : "";
  // The raw record, one click away: drawn only while it is open (the story itself holds no JSON).
  const rawBox = opened.has(`raw:${entry.seq}`) ? `<pre>${esc(JSON.stringify(entry, null, 1))}</pre>` : "";
  // numbered as moves are everywhere on the page: the record of seq 0 is move 1
  return `<li value="${esc(entry.seq + 1)}" data-seq="${esc(entry.seq)}" class="entry kind-${esc(entry.kind)}">${head}${fallback}<ul>${lines}</ul>` +
    `${openable(`raw:${entry.seq}`, opened, "raw", "raw record", ` data-raw="${esc(entry.seq)}"`)}${rawBox}</details></li>`;
}

// The story, newest first: [seq, HTML of its entry] per record, for the page to draw entry by entry (table.js).
export function storyItems(entries, names, opened) {
  return entries.slice().reverse().map((entry) => [entry.seq, entryItem(entry, names, opened)]);
}

export const STORY_HEAD = "<h2>Story</h2>";
export const NO_STORY = `${STORY_HEAD}<p class="muted">Nothing yet.</p>`;

export function promptText(v) {
  return plain(v.prompt?.text || "").words;
}

// One actor's choices as steps (the seat message's "steps": a tree of {prompt, choices}, each choice a leaf with
// its "action" or a "step" it opens; docs/table.md, "Steps"): the step at `path` (the ids chosen so far), with a Back
// button and the short labels of the choices that led there, its question, and its choices as a list of buttons in
// their long words. A choice that opens a step is a button marked "opens" (data-step: actor|full id); a leaf is
// drawn by `leaf(choice, fullId)` (table.js: the legal action's button). A path that no longer leads anywhere (the
// tree changed under it) is cut where it stops: `path` in the answer is the part that still holds. `before(step)`
// gives what comes between the question and its choices (a box of text the step's leaves share), called first.
export function stepsPanel(actor, tree, path, leaf, before = () => "") {
  let node = tree;
  const held = [], crumbs = [];
  for (const id of path) {
    const choice = node.choices.find((c) => c.id === id && c.step);
    if (!choice) break;
    held.push(id); crumbs.push(choice.short); node = choice.step;
  }
  const at = held.join(".");
  const shared = before(node);
  const items = node.choices.map((c) => {
    const full = at ? `${at}.${c.id}` : c.id;
    return `<li>${c.step ? `<button type="button" class="act opens" data-step="${esc(actor)}|${esc(full)}">${esc(c.long)}</button>` : leaf(c, full)}</li>`;
  });
  const back = held.length ? `<p class="steps-path"><button type="button" class="secondary" data-step-back="${esc(actor)}">Back</button>` +
    `${crumbs.map((c) => `<span class="crumb">${esc(c)}</span>`).join("")}</p>` : "";
  return { html: `${back}${plainHtml(node.prompt, "p", "step-prompt")}${shared}<ul class="actions-list" data-choices>${items.join("")}</ul>`, path: held };
}
