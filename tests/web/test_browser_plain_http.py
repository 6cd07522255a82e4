"""The dice check on a table served over plain http on a LAN address (docs/table.md, "Phones at the table"): such a
page is no secure context, so the browser gives it no WebCrypto, and verify.js re-derives every die with its own
SHA-256 and HMAC (static/sha256.js). Chromium opens the page by a ``.lan`` host name mapped to 127.0.0.1
(``--host-resolver-rules``), which is not a secure context, as a phone opening http://192.168.1.20:8000 is not."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import expect

from affray.core.rng import derive_die, seed_from_int
from tests.waiting import wait_for
from tests.web.browser import CHROMIUM_ARGS, _running, _shared_browser, live_server, require_chromium

pytestmark = [pytest.mark.server, pytest.mark.browser]
LAN_NAME = "table.lan"


@contextmanager
def lan_chromium() -> Iterator[Any]:
    """A Chromium of its own (the process's Playwright) that resolves ``table.lan`` to 127.0.0.1."""
    _shared_browser()  # starts the process's Playwright, which this browser shares
    browser = _running[0].chromium.launch(
        executable_path=str(require_chromium()),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
    )
    try:
        yield browser
    finally:
        browser.close()


MESSAGES = [b"", b"abc", b"0:0", b"free:17:3", b"x" * 55, b"y" * 56, b"z" * 64, bytes(range(256)) * 3]
KEYS = [b"", b"k", seed_from_int(7), b"q" * 64, b"long key " * 20]


def test_sha256_js_and_the_dice_equal_core_rng_in_a_page_without_webcrypto(tmp_path: Path) -> None:
    """The page's own SHA-256 and HMAC-SHA256 give Python's digests, and verify.js's dice (on sha256.js, since the
    page has no crypto.subtle) are core/rng.py's derive_die on the same seeds, draws, sides and streams."""
    with live_server(tmp_path / "affray.db") as server, lan_chromium() as browser:
        page = browser.new_context().new_page()
        page.goto(server.url.replace("127.0.0.1", LAN_NAME) + "/")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("globalThis.crypto?.subtle === undefined") is True
        digests = page.evaluate(
            """async ([messages, keys]) => {
                const { sha256, hmacSha256 } = await import("/static/sha256.js");
                const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
                const bytes = (list) => new Uint8Array(list);
                return { sha: messages.map((m) => hex(sha256(bytes(m)))),
                         mac: keys.map((k) => messages.map((m) => hex(hmacSha256(bytes(k), bytes(m))))) };
            }""",
            [[list(m) for m in MESSAGES], [list(k) for k in KEYS]],
        )
        assert digests["sha"] == [hashlib.sha256(m).hexdigest() for m in MESSAGES]
        assert digests["mac"] == [[hmac.new(k, m, hashlib.sha256).hexdigest() for m in MESSAGES] for k in KEYS]
        draws = [
            (seed, index, sides, stream)
            for seed in (1, 99)
            for index in range(12)
            for sides in (2, 6, 20, 100)
            for stream in ("", "free:")
        ]
        dice = page.evaluate(
            """async (draws) => {
                const { hmacKey, dieFrom } = await import("/static/verify.js");
                const out = [];
                for (const [seed, index, sides, stream] of draws) {
                  const raw = new Uint8Array(seed.match(/../g).map((h) => parseInt(h, 16)));
                  out.push(await dieFrom(await hmacKey(raw), index, sides, stream));
                }
                return out;
            }""",
            [[seed_from_int(s).hex(), i, n, st] for s, i, n, st in draws],
        )
        assert dice == [derive_die(seed_from_int(s), i, n, st) for s, i, n, st in draws]


def test_a_finished_fight_is_verified_on_a_page_served_over_plain_http(tmp_path: Path) -> None:
    with live_server(tmp_path / "affray.db") as server, lan_chromium() as browser:
        answer = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "hud/simplified_duel", "controllers": {"ilka": "heuristic", "drowner": "heuristic"}},
        )
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        table = server.service.table(created["table"])
        wait_for(lambda: table.over, 30, "the fight the policies play to end")
        token = created["seats"]["spectator"]["token"]
        log = httpx.get(
            f"{server.url}/api/tables/{created['table']}/log", headers={"Authorization": f"Bearer {token}"}, timeout=10
        ).json()
        dice = sum(
            len(e["roll"]["dice"])
            for events in [log.get("setup_events", []), *(r.get("events", []) for r in log["records"])]
            for e in events
            if e.get("type") == "rolled" and e.get("roll")
        )
        assert dice > 0
        errors: list[str] = []
        page = browser.new_context().new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"http://{LAN_NAME}:{server.url.rsplit(':', 1)[1]}{created['seats']['spectator']['link']}")
        assert page.evaluate("window.isSecureContext") is False
        expect(page.locator("#verdict")).to_have_text(
            re.compile(rf"^verified: {dice} dice re-derived from the seed"), timeout=20_000
        )
        assert not errors, errors


# The page's vibration and sound, counted: navigator.vibrate and the AudioContext's oscillators (the beep), with the
# seat's sound switched on before the page starts, on a phone its player has already tapped (the page asks for a
# vibration only after a tap: Chromium refuses one before, with an error in the console).
SIGNALS = """
localStorage.setItem("affray.sound", "on");
window.__signals = { vibrate: 0, beep: 0 };
navigator.vibrate = () => { window.__signals.vibrate++; return true; };
Object.defineProperty(navigator, "userActivation", { value: { hasBeenActive: true, isActive: false } });
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__signals.beep++; return super.createOscillator(); }
};
"""


def test_the_turn_signal_works_on_plain_http(tmp_path: Path) -> None:
    """On a page that is no secure context the seat's move still changes the title and the icon, vibrates and beeps
    (static/signal.js), once."""
    with live_server(tmp_path / "affray.db") as server, lan_chromium() as browser:
        answer = httpx.post(
            f"{server.url}/api/tables",
            timeout=30,
            json={"scenario": "hud/simplified_duel", "controllers": {"ilka": "human", "drowner": "heuristic"}},
        )
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        context = browser.new_context()
        context.add_init_script(SIGNALS)
        page = context.new_page()
        page.goto(f"http://{LAN_NAME}:{server.url.rsplit(':', 1)[1]}{created['seats']['ilka']['link']}")
        assert page.evaluate("window.isSecureContext") is False
        expect(page).to_have_title(f"● Your move — {created['title']}", timeout=15_000)
        assert page.evaluate("document.querySelector('link[rel=icon]').href").startswith("data:image/svg+xml,")
        assert page.evaluate("window.__signals") == {"vibrate": 1, "beep": 1}
