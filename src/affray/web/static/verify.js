// The end-of-fight check, run in the browser (WebCrypto, or sha256.js where the page has none): the seed must hash
// to the commitment published at the start, and every die of the log must be what the seed gives. Draw i of a d(sides) is HMAC-SHA256(seed,
// "i:attempt"), first 8 bytes big-endian, rejected at or above the largest multiple of sides below 2^64, then
// value % sides + 1 (src/affray/core/rng.py derive_die); a free roll of the chat is the same on its own stream,
// "free:i:attempt", and a whispered one (log format 4) under its pair's key, which the log gives only to the pair
// and whose SHA-256 the line carried, "whisper:i:attempt" (src/affray/table/chat.py).
// Where the page has no WebCrypto (plain http on a LAN address is no secure context) the same hashes come from
// sha256.js, so the check works at every table.
import { hmacSha256, sha256 } from "./sha256.js";

const enc = new TextEncoder();
const subtle = () => globalThis.crypto?.subtle;
const SPACE = 1n << 64n;

export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export async function sha256Hex(bytes) {
  const digest = subtle() ? new Uint8Array(await subtle().digest("SHA-256", bytes)) : sha256(bytes);
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// An HMAC-SHA256 key: a function from a message to its MAC (WebCrypto's where there is one, else sha256.js's).
export async function hmacKey(raw) {
  if (!subtle()) return async (message) => hmacSha256(raw, message);
  const key = await subtle().importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (message) => new Uint8Array(await subtle().sign("HMAC", key, message));
}

export async function dieFrom(macOf, index, sides, stream = "") {
  const limit = SPACE - (SPACE % BigInt(sides));
  for (let attempt = 0; ; attempt++) {
    const mac = new Uint8Array(await macOf(enc.encode(`${stream}${index}:${attempt}`)));
    let value = 0n;
    for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(mac[i]);
    if (value < limit) return Number(value % BigInt(sides)) + 1;
  }
}

function* diceOf(data) {
  for (const [i, e] of (data.setup_events || []).entries()) yield* rolls(e, `setup, event ${i}`);
  for (const r of data.records || data.actions || []) {
    for (const [i, e] of (r.events || []).entries()) yield* rolls(e, `action #${r.seq}, event ${i}`);
  }
}

function* rolls(event, where) {
  if (event.type !== "rolled" || !event.roll) return;
  for (const die of event.roll.dice || []) yield { die, where, event };
}

// Returns {ok, checked, free, message}: "verified" or the first problem found (the first die that differs). The free
// rolls checked are the log's (`free_rolls`) and those the page saw in its chat (`seen`), each once.
export async function verifyLog(data, seen = []) {
  if (!data.seed) return { ok: false, checked: 0, message: "the seed is not revealed yet" };
  const seed = hexToBytes(data.seed);
  if ((await sha256Hex(seed)) !== data.commitment) {
    return { ok: false, checked: 0, message: "the revealed seed does not match the commitment shown at the start" };
  }
  const key = await hmacKey(seed);
  let checked = 0;
  for (const { die, where, event } of diceOf(data)) {
    const derived = await dieFrom(key, die.draw, die.sides);
    checked++;
    if (derived !== die.value) {
      return { ok: false, checked, message: `not verified: draw ${die.draw} (a d${die.sides}, ${event.actor || "?"}'s ` +
        `${event.purpose || "roll"}, ${where}) is recorded as ${die.value} but the seed gives ${derived}` };
    }
  }
  // The log's entry of a roll the page saw gives its pair's key; the page's own line, the commitment it saw live.
  const logged = new Map((data.free_rolls || []).map((r) => [r.n, r]));
  const free = new Map([...logged.values(), ...seen].map((r) => [r.n, { ...logged.get(r.n), ...r, key: logged.get(r.n)?.key }]));
  let unchecked = 0, checkedFree = 0;
  for (const r of free.values()) {
    let rollKey = key, stream = "free:";
    if (r.to && (data.version || 0) >= 4) {
      if (!r.key) { unchecked++; continue; }
      const raw = hexToBytes(r.key);
      if (r.commitment && (await sha256Hex(raw)) !== r.commitment) {
        return { ok: false, checked, message: `not verified: the key of whispered roll ${r.notation} does not match the commitment its line carried` };
      }
      rollKey = await hmacKey(raw);
      stream = "whisper:";
    }
    for (const die of r.roll?.dice || []) {
      const derived = await dieFrom(rollKey, die.draw, die.sides, stream);
      if (derived !== die.value) {
        return { ok: false, checked, message: `not verified: free roll ${r.notation} (free draw ${die.draw}, a d${die.sides}) ` +
          `is recorded as ${die.value} but the ${stream === "free:" ? "seed" : "whisper key"} gives ${derived}` };
      }
    }
    checkedFree++;
  }
  const also = checkedFree ? ` and ${checkedFree} free roll${checkedFree === 1 ? "" : "s"}` : "";
  const left = unchecked ? `; ${unchecked} whispered roll${unchecked === 1 ? "" : "s"} not checked (the log holds no key for ${unchecked === 1 ? "it" : "them"})` : "";
  return { ok: true, checked, free: checkedFree, unchecked, message: `verified: ${checked} ${checked === 1 ? "die" : "dice"}${also} re-derived from the seed${left}` };
}
