// A turn no one misses: when the seat's move comes, the tab's title becomes "● Your move — TABLE" and its icon a red
// dot, a phone vibrates where the browser lets it, a short beep sounds if the seat switched the sound on (off by
// default; WebAudio, no file), and a notification shows when the tab is hidden and the person allowed them (a
// button asks once; never required). All of it only on the move's coming, never again on every message of the same
// move; the title and the icon come back when the move is made. Title, icon, beep and vibration need no secure
// context, so they work on a LAN's plain http too (notifications need one: the button says so where it is absent).
// table.js calls signalTurn on every state it learns and stateLine for the status line's one sentence.
import { esc } from "./api.js";

const SOUND = "affray.sound"; // localStorage: "on" when the seat wants the beep
const DOT = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d11f1f"/></svg>');
const PLAIN = "data:,";

let mine = false;
export const signals = { count: 0 }; // how many times the move came (for people debugging, and the browser tests)

// The status line's one sentence: the fight is over, the table is paused, "Your move", or whom the table waits for.
export function stateLine({ over, paused, mine: due, waiting }) {
  if (over) return `<p class="turn-state">The fight is over.</p>`;
  if (paused) return `<p class="turn-state"><span class="tag">paused</span> The GM has paused the table.</p>`;
  if (due) return `<p class="turn-state mine"><b>Your move</b></p>`;
  if (waiting.length) return `<p class="turn-state">Waiting for ${esc(waiting.join(", "))}</p>`;
  return "";
}

// Called with every state the page learns: `due` is whether the seat has a move to make now, `table` the table's
// name. The title and icon follow every state; the vibration, sound and notification only the move's coming.
export function signalTurn(due, table) {
  const title = due ? `● Your move — ${table}` : table;
  if (document.title !== title) document.title = title;
  icon(due ? DOT : PLAIN);
  if (due && !mine) announce(table);
  mine = due;
}

function icon(href) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.append(link); }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function announce(table) {
  signals.count++;
  // Chromium logs an error for a vibration before the page's first tap (a "user gesture"): ask only after one.
  const tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (tapped) { try { navigator.vibrate?.([160, 80, 160]); } catch { /* a browser that refuses it */ } }
  if (localStorage.getItem(SOUND) === "on") beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification("Your move", { body: table, tag: "affray-turn" }); } catch { /* only from a service worker here */ }
  }
}

let audio = null;
function beep() {
  try {
    audio ||= new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(now); osc.stop(now + 0.3);
  } catch { /* no WebAudio: the title and the icon still say it */ }
}

// The seat's switches (templates/table.html, in the settings): the sound, and notifications asked for once.
export function wireSignal() {
  const sound = document.getElementById("sound"), notify = document.getElementById("notify");
  if (sound) {
    sound.checked = localStorage.getItem(SOUND) === "on";
    sound.addEventListener("change", () => {
      localStorage.setItem(SOUND, sound.checked ? "on" : "off");
      if (sound.checked) beep(); // the click lets the page play sound later, and says what it will sound like
    });
  }
  if (!notify) return;
  const say = (text, done) => { notify.textContent = text; notify.disabled = done; };
  if (!("Notification" in window)) say("Notifications: not here (they need https)", true);
  else if (Notification.permission === "granted") say("Notifications: on", true);
  else if (Notification.permission === "denied") say("Notifications: blocked", true);
  notify.addEventListener("click", async () => {
    try {
      const answer = await Notification.requestPermission();
      say(answer === "granted" ? "Notifications: on" : "Notifications: blocked", true);
    } catch { say("Notifications: not here", true); }
  });
}
