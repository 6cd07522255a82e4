// The boards, each drawn where the view asks for its panel: "grid" (the SVG grid: squares, tokens with facing, the
// squares the seat's foes threaten, the legal moves as clickable squares with a path preview that warns of attacks
// of opportunity, foes to click as targets), "line" (positions in metres) and "places". Tokens are coloured by what
// they are to this seat (own, ally, foe) and labelled so that two of one name differ; the GM drags a token to move
// it (a ruling).
import { esc } from "./api.js";
import { mapRows, tokenLabels } from "./view.js";

const FACING = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0], NE: [1, -1], NW: [-1, -1], SE: [1, 1], SW: [-1, 1] };
const TERRAIN = { "#": "wall", "~": "water", "^": "rough" };

export function squaresOf(specs) {
  // Every legal spec that names a square ("to": [x, y]), grouped by square.
  const out = new Map();
  for (const s of specs) {
    const to = s.spec.action?.to;
    if (Array.isArray(to) && to.length === 2 && typeof to[0] === "number") {
      const key = `${to[0]},${to[1]}`;
      if (!out.has(key)) out.set(key, []);
      out.get(key).push(s);
    }
  }
  return out;
}

export function targetsOf(specs) {
  const out = new Map();
  for (const s of specs) {
    const t = s.spec.action?.target;
    if (typeof t === "string") { if (!out.has(t)) out.set(t, []); out.get(t).push(s); }
  }
  return out;
}

// A listed action's warning codes (ActionSpec.warnings, core/engine.py; the set: WARNING_CODES, core/actions.py):
// warnings[i] is what notes[i] says in words. The page decides on the code, never on the ruleset's sentence.
export const warnsOf = (s, i, code) => s.spec.warnings?.[i] === code;
export const provokes = (s) => (s.spec.warnings || []).includes("provokes");

function threatened(v) {
  // Squares next to a foe that stands, armed for melee, against the seat's side (reach of one square).
  const mine = new Set(v.combatants.filter((c) => c.controlled).map((c) => c.side));
  const out = new Set();
  for (const c of v.combatants) {
    if (mine.has(c.side) || c.down || !c.position || c.position.kind !== "square") continue;
    if (c.detail?.melee_armed !== true) continue; // only where the view tells who threatens (an optional grid part)
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      if (dx || dy) out.add(`${c.position.x + dx},${c.position.y + dy}`);
    }
  }
  return out;
}

// A square's size on a phone, in CSS pixels: a token (0.8 of a square) is then at least 32 px to touch; a map wider
// than the screen pans in its box (style.css, .board-wrap). Wider screens fit the whole map to the column instead.
export const SQUARE_PX = 44;

// opts: {selected, rel, gm (tokens draggable), editing (a combatant the GM is editing), whole (the whole map on a
// phone), inStep (the squares of the step the seat has opened: marked, the other moves' squares faded), picture
// (the blob URL of the GM's map image, drawn under the squares: mapPicture below)}
export function drawBoard(v, specs, opts) {
  const rows = mapRows(v);
  const onGrid = v.combatants.filter((c) => c.position?.kind === "square");
  if (!rows && !onGrid.length) return null;
  const h = rows ? rows.length : Math.max(...onGrid.map((c) => c.position.y)) + 1;
  const w = rows ? Math.max(...rows.map((r) => r.length)) : Math.max(...onGrid.map((c) => c.position.x)) + 1;
  const moves = squaresOf(specs), targets = targetsOf(specs), threat = v.combatants.some((c) => c.controlled) ? threatened(v) : new Set();
  const actor = v.combatants.find((c) => c.id === (specs[0]?.actor ?? v.turn));
  const stop = rovingSquare(moves, opts.selected, actor);
  // The squares' coordinates, as the story names squares "(x, y)": along the top and the left, drawn outside the
  // map's box (style.css gives the map the room) where the whole map shows, and as rulers beside the map's box where
  // it pans (a phone's: they follow its panning, table.js), so that they never pan out of sight.
  const parts = [`<svg class="board grid${opts.picture ? " has-map" : ""}" viewBox="0 0 ${w} ${h}" width="${w * SQUARE_PX}" height="${h * SQUARE_PX}" role="group" aria-label="Battle map, ${w} by ${h} squares; columns 0 to ${w - 1} from the left, rows 0 to ${h - 1} from the top">`];
  for (let x = 0; x < w; x++) parts.push(`<text class="axis" x="${x + 0.5}" y="-0.3" aria-hidden="true">${x}</text>`);
  for (let y = 0; y < h; y++) parts.push(`<text class="axis" x="-0.3" y="${y + 0.5}" aria-hidden="true">${y}</text>`);
  parts.push(underGrid(opts.picture, w, h));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const key = `${x},${y}`, ch = rows?.[y]?.[x] ?? ".";
    const choices = moves.get(key);
    const cls = ["sq", TERRAIN[ch] || "", threat.has(key) ? "threat" : "", choices ? "target" : "",
                 choices?.every(provokes) ? "provokes" : "", opts.selected === key ? "selected" : "",
                 opts.inStep?.size && choices ? (opts.inStep.has(key) ? "in-step" : "off-step") : ""].filter(Boolean).join(" ");
    // One square of the moves takes the Tab key (the selected one, else the one nearest the mover); the arrow keys
    // go from square to square (table.js), so that a turn's other choices are not seventy Tabs away.
    const attrs = choices ? ` data-square="${key}" tabindex="${key === stop ? 0 : -1}" role="button" aria-label="square ${x}, ${y}: ${esc(choices.map((o) => o.spec.label).join("; "))}"` : "";
    parts.push(`<rect class="${cls}" x="${x}" y="${y}" width="1" height="1" data-xy="${key}"${attrs}><title>${x}, ${y}</title></rect>`);
  }
  if (opts.selected && actor?.position?.kind === "square") {
    const [sx, sy] = opts.selected.split(",").map(Number);
    const warn = (moves.get(opts.selected) || []).some(provokes);
    parts.push(`<line class="path${warn ? " provokes" : ""}" x1="${actor.position.x + 0.5}" y1="${actor.position.y + 0.5}" x2="${sx + 0.5}" y2="${sy + 0.5}"/>`);
  }
  const labels = tokenLabels(v);
  for (const c of onGrid) parts.push(token(c, targets.has(c.id), opts, labels[c.id]));
  parts.push("</svg>");
  const ruler = (n, cls) => `<div class="ruler ${cls}" aria-hidden="true"><div>${Array.from({ length: n }, (_, i) => `<span>${i}</span>`).join("")}</div></div>`;
  return `<div class="board-frame${opts.whole ? " whole" : ""}">${ruler(w, "cols")}${ruler(h, "rows")}` +
    `<div class="board-wrap" data-board-wrap tabindex="0" role="region" aria-label="Map (scrolls)">${parts.join("")}</div></div>`;
}

// The square of the moves that takes the Tab key: the selected one, else the legal square nearest the mover.
function rovingSquare(moves, selected, actor) {
  if (selected && moves.has(selected)) return selected;
  const at = actor?.position?.kind === "square" ? actor.position : { x: 0, y: 0 };
  let best = null, bestD = Infinity;
  for (const key of moves.keys()) {
    const [x, y] = key.split(",").map(Number);
    const d = Math.max(Math.abs(x - at.x), Math.abs(y - at.y)) * 1000 + y * 100 + x; // nearest, then reading order
    if (d < bestD) { best = key; bestD = d; }
  }
  return best;
}

// The legal square the arrow key `key` leads to from the square `from` ("x,y"): the nearest one in that direction
// (straight on first, then the nearest row or column beside it), or null at the map's edge.
export function squareTowards(from, key, legal) {
  const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
  if (!dir) return null;
  const [fx, fy] = from.split(",").map(Number);
  let best = null, bestD = Infinity;
  for (const k of legal) {
    const [x, y] = k.split(",").map(Number);
    const along = (x - fx) * dir[0] + (y - fy) * dir[1], across = Math.abs((x - fx) * dir[1]) + Math.abs((y - fy) * dir[0]);
    if (along <= 0) continue;
    const d = along + across * 2.5;
    if (d < bestD) { best = k; bestD = d; }
  }
  return best;
}

function token(c, targetable, opts, label) {
  const { x, y, facing } = c.position;
  const cls = ["tok", opts.rel[c.id], c.down ? "down" : "", targetable ? "targetable" : "",
               opts.editing === c.id ? "editing" : ""].filter(Boolean).join(" ");
  // A token one presses is named by its name and the letters drawn on it (no tooltip besides, which would join the
  // name to the letters): what is seen is what is heard, and what voice control is told to press.
  const named = `${esc(c.name)} ${esc(label)}`;
  const role = targetable ? ` data-target="${esc(c.id)}" tabindex="0" role="button" aria-label="target ${named}"`
    : opts.gm ? ` data-combatant="${esc(c.id)}" tabindex="0" role="button" aria-label="${named}: edit or drag"`
    : ` aria-label="${esc(c.name)}"`;
  const drag = opts.gm ? ` data-drag="${esc(c.id)}"` : "";
  let arrow = "";
  const f = FACING[String(facing || "").toUpperCase()];
  if (f) arrow = `<line class="facing" x1="${x + 0.5}" y1="${y + 0.5}" x2="${x + 0.5 + f[0] * 0.48}" y2="${y + 0.5 + f[1] * 0.48}"/>`;
  return `<g${role}${drag} class="tokg" data-token="${esc(c.id)}"><circle class="${cls}" cx="${x + 0.5}" cy="${y + 0.5}" r="0.4">${targetable || opts.gm ? "" : `<title>${esc(c.name)}</title>`}</circle>${arrow}` +
    `<text x="${x + 0.5}" y="${y + 0.5}" aria-hidden="true">${esc(label)}</text></g>`;
}

export function drawLine(v, rel, gm) {
  // The "line" panel: positions along one line, in metres.
  const on = v.combatants.filter((c) => c.position?.kind === "line");
  if (!on.length) return null;
  const xs = on.map((c) => c.position.x), lo = Math.min(0, ...xs), hi = Math.max(10, ...xs);
  const span = hi - lo || 1;
  const labels = tokenLabels(v);
  const marks = on.map((c, i) => {
    const left = ((c.position.x - lo) / span) * 92 + 4, top = 8 + (i % 3) * 5;
    const edit = gm ? ` data-combatant="${esc(c.id)}" tabindex="0" role="button" aria-label="${esc(c.name)} ${esc(labels[c.id])}: edit"` : "";
    return `<g${edit}><circle class="tok ${rel[c.id]}${c.down ? " down" : ""}" cx="${left}" cy="${top}" r="2.2">${gm ? "" : `<title>${esc(c.name)}</title>`}</circle>` +
      `<text class="line-label" x="${left}" y="${top}" aria-hidden="true">${esc(labels[c.id])}</text></g>`;
  }).join("");
  const list = on.map((c) => `<span class="who ${rel[c.id]}">${esc(c.name)}</span> at ${esc(c.position.x)} m`).join(" · ");
  return `<h2>Positions</h2><svg class="board line" viewBox="0 0 100 22" aria-label="Positions on a line"><line class="ground" x1="4" y1="20" x2="96" y2="20"/>${marks}</svg><p class="small">${list}</p>`;
}

export function drawPlaces(v, rel) {
  // The "places" panel: combatants sharing a place are engaged; the pursuit, when one runs, with its gap.
  const on = v.combatants.filter((c) => c.position?.kind === "place");
  if (!on.length) return null;
  const names = Object.fromEntries(v.combatants.map((c) => [c.id, c.name]));
  const places = new Map();
  for (const c of on) { const k = String(c.position.x); if (!places.has(k)) places.set(k, []); places.get(k).push(c); }
  const rows = [...places.entries()].map(([p, cs]) => `<li>${esc(placeName(p).replace(/^./, (ch) => ch.toUpperCase()))}: ${cs.map((c) => `<b class="who ${rel[c.id]}">${esc(c.name)}</b>`).join(", ")}${cs.length > 1 ? " (engaged)" : ""}</li>`);
  const pursuit = v.detail?.pursuit;
  const chase = pursuit ? `<p class="warnbox">${esc(names[pursuit.fleeing] || "Someone")} tries to get away; ` +
    `${Object.entries(pursuit.choices || {}).map(([a, c]) => `${esc(names[a] || a)} chose to ${esc(String(c).replace(/_/g, " "))}`).join(", ") || "the others choose"}${pursuit.gap !== undefined ? `; the gap is ${esc(pursuit.gap)}` : ""}.</p>` : "";
  return `<h2>Places</h2><ul>${rows.join("")}</ul>${chase}`;
}

export function placeName(id) {
  // A place as a person reads it: "place 0", or its own name ("the_bridge" -> "the bridge").
  const s = String(id).replace(/_/g, " ");
  return /^\d+$/.test(s) ? `place ${s}` : s;
}

// -- The GM's map image (docs/table.md, "The map image") -----------------------------------------------------------
// Every seat's message says whether the table has a map image (`map`: {version, type, bytes}, or null). The page
// fetches it once per version with the seat's token (the image is served to the table's seats only, so an <img>
// cannot ask for it by its address) and draws it from a blob URL: under the grid, stretched to the map's squares,
// or above the positions or places of a ruleset without a grid. A new version replaces the old blob (revoked once
// the new one has come, so the old picture shows until then); a map taken away drops it.
let picture = { version: null, url: null, asked: null };

// The blob URL of the table's map image as this page has it now, or null (none, or not come yet). `map` is the
// message's field; `client` the seat's (its token and table); `redraw` is called once a new picture has come.
export function mapPicture(map, client, redraw) {
  if (!map) {
    if (picture.url) URL.revokeObjectURL(picture.url);
    picture = { version: null, url: null, asked: null };
    return null;
  }
  if (picture.version !== map.version && picture.asked !== map.version) {
    const version = (picture.asked = map.version);
    fetchPicture(client).then((url) => {
      if (picture.asked !== version) { if (url) URL.revokeObjectURL(url); return; } // a newer one was asked for
      picture.asked = null;
      if (!url) return; // not had (out of reach): the old picture stays, and the next message asks again
      if (picture.url) URL.revokeObjectURL(picture.url);
      picture = { version, url, asked: null };
      redraw();
    });
  }
  return picture.url;
}

async function fetchPicture(client) {
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(client.tableId)}/map`, {
      headers: { Authorization: `Bearer ${client.token}` }, cache: "no-store" });
    return res.ok ? URL.createObjectURL(await res.blob()) : null;
  } catch {
    return null; // out of reach: the board is drawn without it
  }
}

// The picture in the grid's SVG, under the squares (which are then translucent: style.css, .has-map) and the
// tokens: at (0, 0), as wide and as high as the map. Decoration, hidden from screen readers.
const underGrid = (url, w, h) => url
  ? `<image class="map-image" href="${esc(url)}" x="0" y="0" width="${w}" height="${h}" preserveAspectRatio="none" aria-hidden="true"/>` : "";

// A board without a grid (positions on a line, places) with the picture above its contents, under its heading, as
// wide as the panel.
export function withPicture(board, url) {
  if (!board || !url) return board;
  const img = `<img class="map-picture" src="${esc(url)}" alt="" aria-hidden="true">`;
  const at = board.indexOf("</h2>");
  return at < 0 ? img + board : board.slice(0, at + 5) + img + board.slice(at + 5);
}
