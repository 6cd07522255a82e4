// The table page of one seat. The token comes from the invite link's fragment (/t/TABLE#TOKEN) and is kept in this
// browser so a reopened tab finds its seat; every state comes from the server, over the WebSocket. The page shows
// only what the server sent this seat, in plain words: the story in sentences, dice as chips, sides coloured as this
// seat sees them (its own, allies, foes), and only the controls that apply here.
import { Client, UNREACHABLE, esc, plain, plainHtml, submissionId, words } from "./api.js";
import { drawBoard, drawLine, drawPlaces, mapPicture, provokes, squareTowards, squaresOf, targetsOf, warnsOf, withPicture } from "./board.js";
import { chatPanel } from "./chat.js";
import { NO_STORY, STORY_HEAD, cardsPanel, combatantCards, factsPanel, handPanel, stepsPanel, storyItems } from "./panels.js";
import { verifyLog } from "./verify.js";
import { envelope, names as namesOf, relations, wants } from "./view.js";
import { editorPanel, gmPanel, keepFragmentLinks, linksPanel, loadSeats, wireGm } from "./gm.js";
import { signalTurn, stateLine, wireSignal } from "./signal.js";

const tableId = document.body.dataset.table;
const $ = (id) => document.getElementById(id);
// A panel's HTML is put in only when it changed: a panel that did not change keeps its DOM (the focus, a half-typed
// field, a scroll position) and costs the browser no new layout; most messages change two or three panels.
const shown = new Map();
function put(id, html) {
  if (shown.get(id) === html) return;
  shown.set(id, html);
  $(id).innerHTML = html;
}
// The story grows by an entry or two a move and is most of the page's text: only its new and changed entries are
// put in (each entry's HTML against the one shown), so a push no longer lays out and shapes the whole story again.
const story = new Map(); // seq -> {html, node}
function putStory(items) {
  if (!items.length) { story.clear(); put("log", NO_STORY); return; }
  const box = $("log");
  let list = box.querySelector(":scope > ol.log");
  if (!list || shown.get("log") !== STORY_HEAD) {
    shown.set("log", STORY_HEAD);
    box.innerHTML = `${STORY_HEAD}<ol class="log"></ol><button type="button" class="secondary whole-story" data-whole-story></button>`;
    list = box.querySelector(":scope > ol.log");
    story.clear();
  }
  // On a phone the story shows its newest moves (style.css) and this button the rest, so that a long fight's story
  // does not make the page longer; wider screens show it whole in a box of its own that scrolls.
  const whole = box.classList.contains("whole");
  const label = whole ? "show the newest moves only" : `show the whole story (${items.length} moves)`;
  const more = box.querySelector(":scope > [data-whole-story]");
  if (more.textContent !== label) more.textContent = label;
  const keep = new Set();
  let next = list.firstElementChild;
  for (const [seq, html] of items) {
    keep.add(seq);
    let known = story.get(seq);
    if (!known || known.html !== html) {
      const made = document.createElement("template");
      made.innerHTML = html;
      const node = made.content.firstElementChild;
      if (known) { if (next === known.node) next = node; known.node.replaceWith(node); }
      known = { html, node };
      story.set(seq, known);
    }
    if (known.node === next) next = next.nextElementSibling;
    else list.insertBefore(known.node, next);
  }
  for (const [seq, known] of story) if (!keep.has(seq)) { known.node.remove(); story.delete(seq); }
}

const fragment = decodeURIComponent(location.hash.slice(1));
const fromLink = fragment ? keepFragmentLinks(tableId, fragment) : "";
if (fromLink) localStorage.setItem(`affray.token.${tableId}`, fromLink);
const token = fromLink || localStorage.getItem(`affray.token.${tableId}`);
const client = new Client(tableId, token);
const page = { msg: null, view: null, log: new Map(), chat: new Map(), selected: null, target: null, confirm: null,
               verdict: null, busy: null, opened: new Set(), draft: { text: "", to: "" }, checkedRolls: new Set(),
               editing: null, forms: null, path: {}, trees: {}, wholeMap: null, actedAt: null, wasDue: false };
window.affray = page; // for people debugging at the table (and the browser tests)
page.envelope = envelope;

function showError(text) {
  const box = $("error");
  box.textContent = text; box.hidden = !text;
  if (text) setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 6000);
}

function receive(msg) {
  if (msg.since === 0) page.log = new Map();
  if (msg.chat_since === 0) page.chat = new Map();
  for (const entry of msg.log || []) page.log.set(entry.seq, entry);
  for (const line of msg.chat || []) page.chat.set(line.n, line);
  page.msg = msg;
  if (msg.role === "gm" && !page.seatsAsked) { page.seatsAsked = true; loadSeats(page, client, render); }
  render();
}

function dueSpecs(msg) {
  const out = [];
  for (const [actor, specs] of Object.entries(msg.legal || {})) specs.forEach((spec, i) => out.push({ actor, spec, key: `${actor}:${i}` }));
  return out;
}

// A combination of cards (a "commit" listing several) is left out where the cards panel places them one at a time.
const combo = (s) => Array.isArray(s.spec.action?.cards);

export async function act(s) {
  if (page.busy === page.msg.version) return; // one submission per version (a double click acts once)
  if (!client.live) { showError(UNREACHABLE); return; }
  const action = { ...s.spec.action };
  for (const field of freeFields(s.spec)) {
    const input = document.querySelector(`[data-free="${CSS.escape(s.key)}:${CSS.escape(field)}"]`) ||
      document.querySelector(`[data-free-step="${CSS.escape(s.actor)}:${CSS.escape(field)}"]`); // one box for a step's leaves
    if (input) action[field] = input.value;
  }
  page.busy = page.msg.version;
  page.selected = null; page.target = null; // the choice is made: the board shows every option again
  page.path[s.actor] = []; // and the steps start again from their first question
  page.actedAt = page.msg.version; // the render of the move's answer puts the page on the next choices (settle)
  try {
    await client.act({ actor: s.actor, action, version: page.msg.version, id: submissionId() });
  } catch (err) { page.actedAt = null; showError(err.message); } finally { page.busy = null; render(); }
}

// The fields a person fills in: the spec's declared free fields, or its text when it declares none (a post).
const freeFields = (spec) => spec.free || (typeof spec.action?.text === "string" ? ["text"] : []);

function button(s, label, withHint = true, shared = new Set()) {
  const warn = provokes(s) ? " warn" : "";
  const notes = (s.spec.notes || []).map((n, i) => plainHtml(n, "span", `note${warnsOf(s, i, "provokes") ? " warn" : ""}`)).join("");
  const hint = s.spec.hint && withHint ? `<span class="hint">${esc(s.spec.hint)}</span>` : ""; // a step's words say the odds
  // A free text (a Free Form post, a ruling) is typed in; other free fields keep the valid choice the server gave.
  const free = freeFields(s.spec).filter((f) => typeof s.spec.action[f] === "string" && !shared.has(f)).map((f) =>
    `<label class="small">${esc(f)} <input data-free="${esc(s.key)}:${esc(f)}" value="${esc(s.spec.action[f])}"></label>`).join("");
  const { words: text, rules } = plain(label || s.spec.label);
  const title = rules ? ` title="rules ${esc(rules)}"` : "";
  return `${free}<button type="button" class="act${warn}" data-act="${esc(s.key)}" data-type="${esc(s.spec.action?.type)}"${title}>${esc(text)}${hint}${notes}</button>`;
}

// The squares the seat's open steps lead to (a "Move", then "North": those squares), for the map to mark: empty
// until a step is opened.
function stepSquares(due) {
  const out = new Set();
  for (const actor of new Set(due.map((s) => s.actor))) {
    let node = page.msg.steps?.[actor];
    const path = page.path[actor] || [];
    if (!node || !path.length) continue;
    for (const id of path) node = node?.choices?.find((c) => c.id === id)?.step;
    const walk = (step) => step?.choices?.forEach((c) => {
      const to = c.action?.to;
      if (Array.isArray(to) && to.length === 2) out.add(`${to[0]},${to[1]}`);
      walk(c.step);
    });
    walk(node);
  }
  return out;
}

// A list of choices: buttons in a list, which the arrow keys go through (keydown below) as well as Tab.
const choiceList = (items) => items.length ? `<ul class="actions-list" data-choices>${items.map((b) => `<li>${b}</li>`).join("")}</ul>` : "";

// JSON with its keys sorted: an action of the steps and one of the legal list compared as the same object.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

// An actor's choices as steps, where the seat message carries its tree (msg.steps): each leaf is the button of the
// legal action it submits (its notes, warnings and free fields), in the leaf's long words. `null` where there is
// no tree for the actor, or where its moves are cards of a hand (a planning of cards is drawn as its hand).
function stepChoices(actor, specs, hasHand) {
  const tree = page.msg.steps?.[actor];
  if (!tree?.choices?.length || hasHand) return null;
  const byAction = new Map(specs.map((s) => [canonical(s.spec.action), s]));
  const specOf = (choice) => choice.action && byAction.get(canonical(choice.action));
  let shared = new Set(), boxes = "";
  const leaf = (choice, full) => {
    const s = specOf(choice);
    return s ? button(s, choice.long, false, shared) : `<button type="button" class="act" data-leaf="${esc(actor)}|${esc(full)}">${esc(choice.long)}</button>`;
  };
  // A free text the step's leaves all take with the same first value (a Free Form post, with or without a change
  // of hit points) is typed once, in one box over the step's choices, not once a choice.
  const before = (step) => {
    const leaves = step.choices.map(specOf).filter(Boolean);
    const fields = leaves.length > 1 ? freeFields(leaves[0].spec).filter((f) => typeof leaves[0].spec.action[f] === "string" &&
      leaves.every((s) => freeFields(s.spec).includes(f) && s.spec.action[f] === leaves[0].spec.action[f])) : [];
    shared = new Set(fields);
    boxes = fields.map((f) => `<label class="small">${esc(f)} <input data-free-step="${esc(actor)}:${esc(f)}" value="${esc(leaves[0].spec.action[f])}"></label>`).join("");
    return boxes;
  };
  const drawn = stepsPanel(actor, tree, page.path[actor] || [], leaf, before);
  page.path[actor] = drawn.path;
  return drawn.html;
}

function waitingFor(v) {
  const names = namesOf(v);
  return (v.prompt?.actors || []).filter((a) => a !== "gm").map((a) => names[a] || a);
}

// The seat's moves: the prompt, then for each combatant it plays its buttons and, where the view has the "cards"
// panel, its slots and its hand (the cards to play are moves too). First on the page under the status line, so that
// on a phone the choices are on the first screen however long the fight has run.
function actionsPanel(v, due, grid, cards) {
  const msg = page.msg;
  if (msg.outcome) return `<h2>Your moves</h2><p>The fight is over.</p>`;
  if (msg.paused) return `<h2>Your moves</h2><p class="warnbox">The GM has paused the table.</p>`;
  const names = namesOf(v);
  const hands = (actors, mine) => actors.map((actor) => {
    const c = v.combatants.find((x) => x.id === actor);
    return c && cards ? handPanel(v, c, mine(actor), button, page.opened) : { slots: "", hand: "" };
  });
  if (!due.length) {
    const waiting = waitingFor(v);
    const held = v.combatants.filter((c) => c.controlled).map((c) => c.id);
    const folded = hands(held, () => []).map((h, i) => (h.slots || h.hand) ? `<h3>${esc(names[held[i]])}</h3>${h.slots}${h.hand}` : "").join("");
    return `<h2>Your moves</h2><p class="muted">Waiting for ${esc(waiting.join(", ") || "the GM")}.</p>${folded}`;
  }
  let shown = due, head = "", drawHands = false;
  if (page.selected) {
    shown = squaresOf(due).get(page.selected) || [];
    head = `<p class="preview">To square (${esc(page.selected.replace(",", ", "))}):${shown.some(provokes) ? ' <span class="warnbox">this path provokes an attack of opportunity</span>' : ""} <button type="button" class="secondary" data-clear>all moves</button></p>`;
  } else if (page.target) {
    shown = targetsOf(due).get(page.target) || [];
    head = `<p class="preview">Against ${esc(v.combatants.find((c) => c.id === page.target)?.name || "them")}: <button type="button" class="secondary" data-clear>all moves</button></p>`;
  } else {
    // Card placements are on the cards of the hand, moves to a square on the board (each square a button).
    const onBoard = grid ? due.filter((s) => Array.isArray(s.spec.action?.to)) : [];
    shown = due.filter((s) => !onBoard.includes(s) && !(cards && (s.spec.action?.card || combo(s))));
    if (onBoard.length) head = `<p class="small">${onBoard.length} moves: choose a square on the map (Tab, then the arrow keys and Enter)${page.msg.steps ? ", or below" : ""}.</p>`;
    drawHands = cards;
  }
  const actors = [...new Set((page.selected || page.target ? shown : due).map((s) => s.actor))];
  const parts = drawHands ? hands(actors, (a) => due.filter((s) => s.actor === a)) : [];
  const groups = actors.map((actor, i) => {
    const specs = shown.filter((s) => s.actor === actor);
    const mine = due.filter((s) => s.actor === actor);
    // Where the server sent the actor's choices as steps, those (a square or a foe chosen on the board shows the
    // moves there as they are); else the flat list of its moves.
    const stepped = page.selected || page.target ? null : stepChoices(actor, mine, drawHands && mine.some((s) => s.spec.action?.card || combo(s)));
    const list = stepped ?? choiceList(specs.map((s) => button(s)));
    // The actor's name over its choices, where the steps' question does not already ask for them alone.
    const named = stepped && actors.length === 1 ? "" : `<h3>${esc(names[actor] || "The GM")}</h3>`;
    return `${named}${parts[i]?.slots || ""}${list}${parts[i]?.hand || ""}`;
  });
  const undo = page.mayTakeBack ? `<p><button type="button" class="secondary" data-take-back>take back my last move</button></p>` : "";
  return `<h2>Your moves</h2>${plainHtml(v.prompt?.text || "", "p", "prompt")}${head}${groups.join("")}${undo}`;
}

function statusPanel(v) {
  const msg = page.msg, names = namesOf(v);
  const order = (v.order || []).map((a) => `<span class="${a === v.turn && (v.prompt?.actors || []).length === 1 ? "turn" : ""}">${esc(names[a] || a)}</span>`).join("");
  const timer = msg.timer ? `<p>${esc(msg.countdown?.name || "Countdown")}: <span class="timer" id="countdown" data-ends="${esc(msg.timer.ends_at)}"></span></p>` : "";
  const you = msg.role === "gm" ? "the GM" : msg.role === "spectator" ? "watching" : (msg.actors || []).map((a) => names[a] || a).join(" and ");
  const phase = msg.outcome ? "" : [v.round ? `round ${v.round}` : "", words(v.phase)].filter(Boolean).join(" · ");
  const waiting = waitingFor(v);
  // One thing: "Your move" or whom the table waits for (signal.js); the prompt speaks to the movers, with the moves.
  const state = stateLine({ over: Boolean(msg.outcome), paused: Boolean(msg.paused), mine: dueSpecs(msg).length > 0, waiting });
  return `<h2>${esc(msg.title)}</h2>${state}` +
    `<p>You: <b>${esc(you)}</b>${phase ? ` · ${esc(phase)}` : ""}</p>` +
    (order ? `<p class="order">Order: ${order}</p>` : "") + timer;
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
    const rolls = [...page.chat.values()].filter((l) => l.kind === "roll");
    page.verdict = await verifyLog(data, rolls);
    if (page.verdict.ok) page.checkedRolls = new Set(rolls.map((l) => l.n));
  } catch (err) { page.verdict = { ok: false, message: `not verified: ${err.message}` }; }
  render();
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
  page.view = v;
  // A square or a foe chosen earlier that no longer has a legal action is forgotten.
  if (page.selected && !squaresOf(due).has(page.selected)) page.selected = null;
  if (page.target && !targetsOf(due).has(page.target)) page.target = null;
  const gm = msg.role === "gm", rel = relations(v), names = namesOf(v);
  const mine = [...page.log.values()].filter((e) => e.kind !== "undo");
  page.mayTakeBack = !gm && msg.role !== "spectator" && !msg.outcome && mine.length > 0 && mine[mine.length - 1].seat === msg.seat &&
    !(mine[mine.length - 1].events || []).some((e) => e.type === "rolled" || e.type === "revealed");
  // A choice that has the focus keeps it when a push redraws its panel (found again by its attribute and key).
  const focused = ["data-act", "data-step", "data-step-back", "data-square", "data-target"].map((a) => [a, document.activeElement?.getAttribute?.(a)]).find(([, k]) => k);
  const mapAt = $("board").querySelector("[data-board-wrap]"), panned = mapAt && [mapAt.scrollLeft, mapAt.scrollTop];
  const opener = document.activeElement?.matches?.("details[data-open] > summary") ? document.activeElement.parentElement : null;
  const reopen = opener && `details[data-open="${CSS.escape(opener.dataset.open)}"] > summary`;
  const typing = document.activeElement?.id;
  if (typing === "chat-text") page.draft.text = document.activeElement.value;
  $("title").textContent = msg.title;
  put("status", statusPanel(v));
  signalTurn(due.length > 0 && !msg.outcome && !msg.paused, msg.title); // the tab's title and icon, on its move
  put("combatants", combatantCards(v, rel, { gm, editing: page.editing, opened: page.opened }));
  // The ruleset's own panels, each where the view asks for it (its declared "panels").
  // A tree of steps that changed (another seat moved, a new move came) starts again from its first question: the
  // ids of the steps opened may now mean other choices.
  for (const [actor, tree] of Object.entries(msg.steps || {})) {
    const seen = JSON.stringify(tree);
    if (page.trees[actor] !== seen) { page.trees[actor] = seen; page.path[actor] = []; }
  }
  // A phone's map: squares to touch where the seat chooses on it (its moves, its foes, the GM's tokens), else the
  // whole map at the screen's width (no choice on it, and the page a screen shorter); the reader's zoom wins.
  const touch = gm || squaresOf(due).size > 0 || targetsOf(due).size > 0;
  const whole = page.wholeMap ?? !touch;
  const picture = mapPicture(msg.map, client, render); // the GM's map image (board.js), once it has come
  const grid = wants(v, "grid") ? drawBoard(v, due, { selected: page.selected, rel, gm, editing: page.editing, whole, inStep: stepSquares(due), picture }) : null;
  const board = grid || withPicture((wants(v, "line") ? drawLine(v, rel, gm) : null) || (wants(v, "places") ? drawPlaces(v, rel) : null), picture);
  const moving = grid && (squaresOf(due).size || targetsOf(due).size);
  // The choices first, right under the status line (table.html), the map after them: whatever the phase and however
  // long the fight has run, the seat's first choice is on the first screen, on a phone too.
  const mapHead = grid ? `<div class="map-head"><h2>Map</h2><button type="button" class="secondary map-zoom" data-zoom aria-pressed="${whole}">${whole ? "closer" : "the whole map"}</button></div>` : "";
  $("board").hidden = !board; put("board", !board ? "" : !moving ? mapHead + board : `${mapHead}${board}<p class="small muted">Green squares: where you may move (orange: every way there provokes an attack of opportunity); red-edged: squares your foes threaten. Click a square or a dashed foe, or use Tab, the arrow keys and Enter.</p>`);
  const map = $("board").querySelector("[data-board-wrap]");
  if (map && panned && map !== mapAt) [map.scrollLeft, map.scrollTop] = panned; // a push keeps the map where it was panned
  if (map) follow(map);
  const cards = wants(v, "cards");
  const detail = (cards ? cardsPanel(v) : "") + (wants(v, "facts") ? factsPanel(v) : "");
  $("detail").hidden = !detail; put("detail", detail);
  put("actions", actionsPanel(v, due, Boolean(grid), cards));
  putStory(storyItems([...page.log.values()].sort((a, b) => a.seq - b.seq), names, page.opened));
  put("chat", chatPanel([...page.chat.values()].sort((a, b) => a.n - b.n), msg.seats, msg.seat, page.draft, page.checkedRolls));
  put("seed", seedPanel());
  $("gm").hidden = !gm; $("links").hidden = !gm; $("editor").hidden = !gm || !page.editing;
  if (gm) { put("gm", gmPanel(page, names)); put("links", linksPanel(page, names)); put("editor", editorPanel(page, v)); }
  if (msg.outcome && msg.seed && !page.verdict) runVerify(); else renderEnd();
  const answered = page.actedAt !== null && msg.version > page.actedAt; // after a move, its next choices (settle)
  if (focused && !answered && document.activeElement === document.body) document.querySelector(`[${focused[0]}="${CSS.escape(focused[1])}"]`)?.focus();
  settle(due);
  if (reopen) document.querySelector(reopen)?.focus(); // a summary pressed with the keyboard keeps the focus
  if (typing === "chat-text") { const box = $("chat-text"); box.focus(); box.setSelectionRange(box.value.length, box.value.length); }
  tick();
}

// The page's choices, in the order a person meets them: the moves, then the map's; only those drawn.
const CHOICE = "[data-act], [data-step], [data-step-back], [data-leaf], [data-square][tabindex='0'], [data-target]";
function firstChoice() {
  for (const panel of [$("actions"), $("board")]) {
    if (panel.hidden) continue;
    const found = [...panel.querySelectorAll(CHOICE)].find((el) => !el.matches("[data-step-back]") && el.getClientRects().length);
    if (found) return found;
  }
  return null;
}

// Puts the page on the seat's choices when its move comes (it was not due before), and after each of its own moves
// (the answer to the move drawn): the panel of the first choice scrolled to the top of the screen if that choice
// is not on the screen, and a focus that was on a choice (a move made by keyboard) kept in the choices' place: on
// the next move's first choice, else on the status line, never lost to the page's top. The map, where it pans,
// shows the mover.
function settle(due) {
  const now = due.length > 0, msg = page.msg;
  const answered = page.actedAt !== null && msg.version > page.actedAt;
  const came = now && (!page.wasDue || answered);
  page.wasDue = now;
  if (answered) page.actedAt = null;
  const lost = document.activeElement === document.body || document.activeElement === null;
  if (answered && lost) (now && firstChoice() || $("status")).focus({ preventScroll: true });
  if (!came) return;
  centreMap(due[0].actor);
  const choice = firstChoice();
  if (choice) show(choice);
}

// Scrolls `el` onto the screen (with its panel's top, where the panel fits) when it is not wholly on it.
function show(el) {
  const r = el.getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= window.innerHeight) return;
  const panel = el.closest(".panel");
  const p = panel?.getBoundingClientRect();
  window.scrollBy(0, (p && r.bottom - p.top <= window.innerHeight ? p.top : r.top) - 4);
}

// A map that pans (a phone's): scrolled so that the actor's token is in the middle of its box.
function centreMap(actor) {
  const wrap = $("board").querySelector("[data-board-wrap]");
  const tok = wrap?.querySelector(`[data-token="${CSS.escape(actor)}"]`);
  if (!tok || wrap.scrollWidth <= wrap.clientWidth && wrap.scrollHeight <= wrap.clientHeight) return;
  const t = tok.getBoundingClientRect(), w = wrap.getBoundingClientRect();
  wrap.scrollLeft += t.left + t.width / 2 - (w.left + wrap.clientWidth / 2);
  wrap.scrollTop += t.top + t.height / 2 - (w.top + wrap.clientHeight / 2);
  follow(wrap);
}

// The map's rulers (its coordinates beside a map that pans: board.js) follow its panning.
function follow(wrap) {
  const frame = wrap.parentElement;
  const cols = frame.querySelector(":scope > .ruler.cols"), rows = frame.querySelector(":scope > .ruler.rows");
  if (cols) cols.scrollLeft = wrap.scrollLeft;
  if (rows) rows.scrollTop = wrap.scrollTop;
}
document.addEventListener("scroll", (ev) => { if (ev.target.matches?.("[data-board-wrap]")) follow(ev.target); }, true);

// After a pick that changed the choices shown (a step, Back, a square, a foe): the focus on the first of them.
function focusChoices() {
  // a text to write first (a post), else the first choice; a field with a value to keep (a maneuver) waits
  const choice = $("actions").querySelector('[data-free-step$=":text"], [data-choices] button, [data-act]');
  if (choice) { choice.focus(); show(choice); }
}

function tick() {
  const el = $("countdown");
  if (!el) return;
  const left = Math.max(0, Number(el.dataset.ends) - Date.now() / 1000);
  const text = `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`;
  if (el.textContent !== text) el.textContent = text; // the same text again would still cost a layout and a paint
}
setInterval(tick, 250);

async function send(kind) {
  const text = $("chat-text").value.trim(), to = $("chat-to").value || null;
  page.draft = { text: "", to: to || "" };
  if (!text) return;
  if (!client.live) { page.draft.text = text; showError(UNREACHABLE); return; }
  try {
    if (kind === "roll") await client.call("POST", "/roll", { notation: text, to });
    else await client.call("POST", "/chat", { text, to });
    $("chat-text").value = "";
  } catch (err) { page.draft.text = text; showError(err.message); render(); }
}

// A <details> of the page opened or closed (a raw record, a combatant's sheet, a card's text, the other cards in a
// hand): which ones are open is kept across renders by their keys (data-open: panels.js, openable), so a push that
// redraws a panel leaves them open, and a raw record is drawn only while open. The click decides, not the browser's
// own toggle: its toggle event comes a task later, and a push drawn in between replaces the element, whose event
// then never reaches the document (a sheet opened just as a push came would close again).
function keepOpen(summary, ev) {
  const key = summary.parentElement.dataset.open;
  ev.preventDefault(); // the render below draws it open or closed
  if (page.opened.has(key)) page.opened.delete(key); else page.opened.add(key);
  render();
}

function onClick(ev) {
  const summary = ev.target.closest("details[data-open] > summary");
  if (summary) { keepOpen(summary, ev); return; }
  const t = ev.target.closest("[data-act], [data-step], [data-step-back], [data-leaf], [data-zoom], [data-square], [data-target], [data-clear], [data-verify], [data-take-back], [data-chat-roll], [data-whole-story], [data-withdraw]");
  if (!t || !page.msg) return;
  const due = dueSpecs(page.msg);
  if (t.dataset.act) { const s = due.find((x) => x.key === t.dataset.act); if (s) act(s); return; }
  if (t.dataset.step || t.dataset.stepBack) { // a step opened, or Back to the one before
    const [actor, full] = (t.dataset.step || `${t.dataset.stepBack}|`).split("|");
    page.path[actor] = t.dataset.step ? full.split(".") : (page.path[actor] || []).slice(0, -1);
    render(); focusChoices(); return;
  }
  if (t.dataset.leaf) { // a leaf the legal list does not hold as it is (never, while both come from one list)
    const [actor, full] = t.dataset.leaf.split("|");
    const action = leafAction(page.msg.steps?.[actor], full.split("."));
    if (action) act({ actor, spec: { action }, key: `${actor}:leaf` });
    return;
  }
  if (t.dataset.withdraw) { // a face-down card taken back: never in the legal list (panels.js takeBackCard)
    const [actor, slot] = t.dataset.withdraw.split("|");
    act({ actor, spec: { action: { type: "withdraw", slot: Number(slot) } }, key: `${actor}:withdraw` });
    return;
  }
  if ("zoom" in t.dataset) { page.wholeMap = !t.closest("#board").querySelector(".board-frame.whole"); render(); return; }
  if ("chatRoll" in t.dataset) { ev.preventDefault(); send("roll"); return; }
  if ("takeBack" in t.dataset) {
    if (!client.live) { showError(UNREACHABLE); return; }
    client.call("POST", "/take_back", { version: page.msg.version }).catch((err) => showError(err.message));
    return;
  }
  if (t.dataset.square) { page.selected = t.dataset.square; page.target = null; }
  else if (t.dataset.target) { page.target = t.dataset.target; page.selected = null; }
  else if ("clear" in t.dataset) { page.selected = null; page.target = null; }
  else if ("verify" in t.dataset) { runVerify(); return; }
  else if ("wholeStory" in t.dataset) { $("log").classList.toggle("whole"); }
  render();
  if (t.dataset.square || t.dataset.target || "clear" in t.dataset) focusChoices(); // the moves there, at hand
}

function leafAction(tree, ids) {
  let node = tree;
  for (const [i, id] of ids.entries()) {
    const choice = node?.choices?.find((c) => c.id === id);
    if (!choice) return null;
    if (i === ids.length - 1) return choice.action || null;
    node = choice.step;
  }
  return null;
}
document.addEventListener("click", onClick);
document.addEventListener("submit", (ev) => { if (ev.target.closest("[data-chat-form]")) { ev.preventDefault(); send("chat"); } });
document.addEventListener("change", (ev) => { if (ev.target.id === "chat-to") page.draft.to = ev.target.value; });
document.addEventListener("keydown", (ev) => {
  // Squares and tokens are SVG elements with role=button: Enter and Space press them.
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest?.("[data-square], [data-target], svg [data-combatant]")) { ev.preventDefault(); ev.target.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
  if (ev.key === "Escape" && (page.selected || page.target)) { page.selected = null; page.target = null; render(); focusChoices(); return; }
  if (ev.key === "Escape" && ev.target.closest?.("#actions")) { // Escape: Back one step
    const back = $("actions").querySelector("[data-step-back]");
    if (back) { back.click(); return; }
  }
  arrows(ev);
});

// The arrow keys: from choice to choice in a list of choices (down and right: the next, up and left: the one
// before), and from square to square of the map's moves (the nearest one in the arrow's direction).
function arrows(ev) {
  if (!["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight"].includes(ev.key) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const square = ev.target.closest?.("[data-square]");
  if (square) {
    const legal = [...document.querySelectorAll("[data-square]")].map((el) => el.dataset.square);
    const to = squareTowards(square.dataset.square, ev.key, legal);
    ev.preventDefault();
    if (!to) return;
    const next = document.querySelector(`[data-square="${CSS.escape(to)}"]`);
    square.setAttribute("tabindex", "-1"); next.setAttribute("tabindex", "0"); next.focus();
    return;
  }
  const list = ev.target.closest?.("[data-choices]");
  if (!list || !ev.target.matches("button")) return;
  const buttons = [...list.querySelectorAll("button")];
  const i = buttons.indexOf(ev.target) + (ev.key === "ArrowDown" || ev.key === "ArrowRight" ? 1 : -1);
  ev.preventDefault();
  buttons[(i + buttons.length) % buttons.length].focus();
}
wireGm(page, client, render, showError);
wireSignal();

if (!token) {
  put("status", "<h2>No seat</h2><p>Open this table with your invite link (it ends with #…).</p>");
} else {
  client.connect(receive, showConnection);
}

// The connection's state in the header: a sentence, and while the page waits to try again the seconds left, which
// tick out of the screen reader's hearing (the sentence is announced once, not every second).
function showConnection(text, bad, seconds) {
  const box = $("conn");
  if (box.dataset.text !== text) {
    box.dataset.text = text;
    box.innerHTML = `${esc(text)}<span class="wait" aria-hidden="true"></span>`;
  }
  box.lastElementChild.textContent = seconds === undefined ? "" : ` in ${seconds} s`;
  box.classList.toggle("bad", Boolean(bad));
}
