// The chat panel of every page: lines to everyone or whispered (to the GM, to one seat), and free rolls in the
// notation of `affray roll`, drawn as dice chips. Every text is escaped; a whisper is marked as one. Free rolls come
// from the table's seed on their own stream: once the seed is revealed the page checks each one it saw.
import { esc } from "./api.js";

function chips(roll) {
  const faces = (roll.dice || []).map((d) => `<span class="die${d.kept === false ? " dropped" : ""}">${esc(d.value)}</span>`).join("");
  const mod = roll.modifier ? ` ${roll.modifier > 0 ? "+" : "−"}${Math.abs(roll.modifier)}` : "";
  return `<span class="dice">${faces}${mod} = <b>${esc(roll.total)}</b></span>`;
}

function lineHtml(line, me, checked) {
  const mine = line.seat === me;
  const addressee = line.to === me ? "you" : line.to === "gm" ? "the GM" : line.to_name || line.to;
  const to = line.to ? ` <span class="whisper">${mine ? "whisper" : "whispers"} to ${esc(addressee)}</span>` : "";
  const who = `<b>${esc(mine ? "You" : line.from)}</b>${to}`;
  if (line.kind === "roll") {
    const mark = checked.has(line.n) ? ' <span class="ok small" title="re-derived from the revealed seed">✓ checked</span>' : "";
    return `<li class="roll${line.to ? " private" : ""}" data-chat="${esc(line.n)}">${who} ${mine ? "roll" : "rolls"} ${esc(line.notation)}: ${chips(line.roll)}${mark}</li>`;
  }
  return `<li class="${line.to ? "private" : ""}" data-chat="${esc(line.n)}">${who}: ${esc(line.text)}</li>`;
}

// The whisper target goes back to "everyone" once a line or a roll is sent, unless the sender pins it ("keep"): a
// whisper meant for one person must not carry the next line, meant for the table, to that person alone.
let pinned = false, sent = false;
document.addEventListener("submit", (ev) => { if (ev.target.closest?.("[data-chat-form]")) sent = true; }, true);
document.addEventListener("click", (ev) => { if (ev.target.closest?.("[data-chat-roll]")) sent = true; }, true);
document.addEventListener("change", (ev) => { if (ev.target.id === "chat-pin") pinned = ev.target.checked; });

// seats: [{seat, role, name}] of the table; me: this page's seat; draft: the page's {text, to} (its target is set
// back to everyone here after a send, unless pinned).
export function chatPanel(lines, seats, me, draft, checked) {
  if (sent && !pinned && me !== "spectator") draft.to = "";
  sent = false;
  const others = (seats || []).filter((s) => s.seat !== me && s.role !== "spectator" && (me !== "spectator" || s.role === "gm"));
  const options = (me === "spectator" ? [] : [`<option value="">everyone</option>`])
    .concat(others.map((s) => `<option value="${esc(s.seat)}"${draft.to === s.seat ? " selected" : ""}>${esc(s.role === "gm" ? "the GM" : s.name)} (whisper)</option>`));
  const items = lines.map((l) => lineHtml(l, me, checked)).join("") || '<li class="muted">No messages yet.</li>';
  return `<h2>Chat</h2><ol class="chat" aria-live="polite">${items}</ol>` +
    `<form class="chat-form" data-chat-form><label class="small">To <select id="chat-to">${options.join("")}</select></label>` +
    (others.length ? `<label class="small"><input type="checkbox" id="chat-pin"${pinned ? " checked" : ""}> keep this target</label>` : "") +
    `<input id="chat-text" maxlength="500" autocomplete="off" aria-label="message" placeholder="Say something, or roll 2d6+1" value="${esc(draft.text)}">` +
    `<button type="submit" data-chat-send>Send</button><button type="button" class="secondary" data-chat-roll title="roll the dice written in the box, e.g. 2d6+1 or 1d20">Roll</button></form>`;
}
