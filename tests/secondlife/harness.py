"""Second Life, as far as the in-world HuD script needs it, around the script itself compiled by ``lummao``
(integrations/secondlife/affray_hud.lsl; docs/secondlife.md, "Testing").

:class:`Hud` is one attached HuD of one avatar: the LSL compiled to Python and run by lummao, every in-world call it
makes stubbed here, and Second Life's limits asserted on every call (hover text 254 bytes, a dialog's 12 buttons of
24 bytes and its message under 512, a chat line under 1,024) or enforced as the grid does (a reply body cut at 2,048
bytes unless ``HTTP_BODY_MAXLENGTH`` asks for more, status 499 after 60 s, ``NULL_KEY`` past 25 requests in 20 s per
object, the ``X-SecondLife-*`` headers added, ``text/plain`` bodies). Time is the harness's: ``llGetTime`` reads a
clock the test moves (:meth:`Hud.tick`), and the script's repeating timer fires only when the test ticks, so no test
sleeps on the script's behalf; HTTP runs for real against the server, on the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import lummao  # type: ignore[import-untyped]  # GPL-3, tests only
from lummao import BaseLSLScript, DetectedDetails, Key, ScriptExtender

SCRIPT = Path(__file__).resolve().parents[2] / "integrations" / "secondlife" / "affray_hud.lsl"
HTTP_METHOD, HTTP_MIMETYPE, HTTP_BODY_MAXLENGTH, HTTP_VERIFY_CERT = 0, 1, 2, 3
HTTP_VERBOSE_THROTTLE, HTTP_CUSTOM_HEADER, HTTP_PRAGMA_NO_CACHE = 4, 5, 6
BODY_CUT, BODY_MAX = 2048, 16384
THROTTLE, THROTTLE_WINDOW = 25, 20.0  # requests per object in seconds
OUTBOUND_TIMEOUT = 60.0  # then status 499
#: Custom headers Second Life refuses (the wiki's llHTTPRequest page).
REFUSED_HEADERS = {
    "accept", "accept-charset", "accept-encoding", "accept-language", "accept-ranges", "age", "allow",
    "authentication-info", "connection", "content-encoding", "content-language", "content-length",
    "content-location", "content-range", "content-type", "date", "etag", "expect", "expires", "from", "host",
    "if-match", "if-modified-since", "if-none-match", "if-range", "if-unmodified-since", "last-modified",
    "location", "max-forwards", "proxy-authenticate", "proxy-authorization", "public", "range", "retry-after",
    "server", "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "vary", "via", "warning",
    "www-authenticate",
}  # fmt: skip
BUTTONS = ("Chance", "Attack", "Defense", "Damage", "Injury")
CHANGED_REGION, CHANGED_TELEPORT = 0x100, 0x400
NULL = Key("00000000-0000-0000-0000-000000000000")


@functools.cache
def python_source() -> bytes:
    """The script compiled once (lummao's parser names a line and column on an error)."""
    source: bytes = lummao.convert_script(SCRIPT.read_bytes())
    return source


@dataclass
class Dialog:
    message: str
    buttons: list[str]
    channel: int


@dataclass
class Region:
    """A region: its name and the one address every object in it reaches the outside from."""

    name: str = "Riverbank"


@dataclass
class World:
    """What the avatars share: the chat everyone near hears, and the clock."""

    now: float = 1000.0
    local_chat: list[tuple[str, str]] = field(default_factory=list)  # (speaker, text)


class Hud(ScriptExtender):  # type: ignore[misc]  # lummao is untyped
    """One HuD (see the module docstring)."""

    def __init__(self, world: World, avatar: str, server: str, region: Region | None = None) -> None:
        super().__init__()
        self.world, self.avatar, self.server = world, avatar, server
        self.region = region or Region()
        self.owner = Key(str(uuid.uuid5(uuid.NAMESPACE_URL, avatar)))
        self.object_key = Key(str(uuid.uuid4()))
        self.object_name = "affray HuD"
        self.description = server
        self.hover = ""
        self.owner_said: list[str] = []
        self.dialogs: list[Dialog] = []
        self.text_boxes: list[Dialog] = []
        self.listens: dict[int, tuple[int, str]] = {}  # handle: (channel, key)
        self.sent: list[float] = []  # request times, for the throttle
        self.requests: list[tuple[str, str, dict[str, str], str]] = []  # method, url, headers, body
        self.in_flight: dict[Key, asyncio.Task[None]] = {}
        self.timer = 0.0
        self.cut_bodies = 0
        self.largest = 0  # the largest reply body, in bytes
        self.throttled = 0  # requests refused with NULL_KEY
        self.answers: list[tuple[int, str]] = []  # status and the first bytes of each reply, for a failure's report
        self.answer_with: tuple[int, str] | None = None  # every request answered so, the server not asked
        self.links = {1: "affray HuD", **{i: name for i, name in enumerate(BUTTONS, 2)}}
        self.extend_script(_compiled())

    # -- the stubs -------------------------------------------------------------------------------------------

    def extend_script(self, script: BaseLSLScript) -> None:
        super().extend_script(script)
        f = script.builtin_funcs
        f["llGetOwner"] = lambda: self.owner
        f["llGetKey"] = lambda: self.object_key
        f["llOwnerSay"] = self._owner_say
        f["llSay"] = self._say
        f["llSetText"] = self._set_text
        f["llDialog"] = self._dialog
        f["llTextBox"] = self._text_box
        f["llListen"] = self._listen
        f["llListenRemove"] = lambda handle: self.listens.pop(handle, None)
        f["llSetTimerEvent"] = self._set_timer
        f["llGetTime"] = lambda: self.world.now - 1000.0
        f["llGetUnixTime"] = lambda: int(self.world.now)
        f["llGetObjectDesc"] = lambda: self.description
        f["llGetObjectName"] = lambda: self.object_name
        f["llSetObjectName"] = self._set_name
        f["llGetLinkName"] = lambda link: self.links.get(link, "")
        f["llGetFreeMemory"] = lambda: 32768
        f["llResetScript"] = lambda: None
        f["llHTTPRequest"] = self._http_request

    def _owner_say(self, text: str) -> None:
        assert len(text.encode()) <= 1023, "llOwnerSay: a line is at most 1,023 bytes"
        self.owner_said.append(text)

    def _say(self, channel: int, text: str) -> None:
        assert len(text.encode()) <= 1023, "llSay: a line is at most 1,023 bytes"
        assert 0 < len(self.object_name.encode()) <= 63, "an object's name is 1 to 63 bytes"
        if channel == 0:
            self.world.local_chat.append((self.object_name, text))

    def _set_name(self, name: str) -> None:
        self.object_name = name.encode()[:63].decode(errors="ignore")

    def _set_text(self, text: str, *_colour_and_alpha: Any) -> None:
        assert len(text.encode()) <= 254, f"llSetText: {len(text.encode())} bytes (254 at most): {text!r}"
        self.hover = text

    def _dialog(self, avatar: Key, message: str, buttons: list[Any], channel: int) -> None:
        assert avatar == self.owner, "the dialog goes to the owner"
        assert message and len(message.encode()) < 512, f"llDialog: message of {len(message.encode())} bytes"
        assert 1 <= len(buttons) <= 12, f"llDialog: {len(buttons)} buttons"
        for b in buttons:
            assert isinstance(b, str) and b and len(b.encode()) <= 24, f"llDialog: button {b!r}"
        assert len(set(buttons)) == len(buttons), f"llDialog: two buttons alike {buttons}"
        assert channel != 0 and self._listening(channel), "a dialog's channel has an owner-only listener"
        self.dialogs.append(Dialog(message, list(buttons), channel))

    def _text_box(self, avatar: Key, message: str, channel: int) -> None:
        assert avatar == self.owner and message and len(message.encode()) < 512
        assert self._listening(channel)
        self.text_boxes.append(Dialog(message, [], channel))

    def _listening(self, channel: int) -> bool:
        return any(ch == channel and k == self.owner for ch, k in self.listens.values())

    def _listen(self, channel: int, name: str, key: Key, message: str) -> int:
        assert key == self.owner, "every listener is owner-only"
        assert len(self.listens) < 65, "65 listens per script"
        handle = max(self.listens, default=0) + 1
        self.listens[handle] = (channel, key)
        return handle

    def _set_timer(self, seconds: float) -> None:
        self.timer = seconds

    def _http_request(self, url: str, options: list[Any], body: str) -> Key:
        now = self.world.now
        self.sent = [t for t in self.sent if now - t < THROTTLE_WINDOW]
        if len(self.sent) >= THROTTLE:
            self.throttled += 1
            return NULL
        self.sent.append(now)
        method, mime, cut = "GET", "text/plain;charset=utf-8", BODY_CUT
        headers: dict[str, str] = {}
        options = list(options)
        custom = 0
        while options:
            flag = options.pop(0)
            if flag == HTTP_METHOD:
                method = options.pop(0)
            elif flag == HTTP_MIMETYPE:
                mime = options.pop(0)
            elif flag == HTTP_BODY_MAXLENGTH:
                cut = min(int(options.pop(0)), BODY_MAX)
            elif flag == HTTP_CUSTOM_HEADER:
                name, value = options.pop(0), options.pop(0)
                assert name.lower() not in REFUSED_HEADERS and not name.lower().startswith("x-secondlife")
                custom += 1
                headers[name] = value
            elif flag in (HTTP_VERIFY_CERT, HTTP_VERBOSE_THROTTLE, HTTP_PRAGMA_NO_CACHE):
                options.pop(0)
            else:
                raise AssertionError(f"llHTTPRequest: unknown option {flag}")
        assert custom <= 8 and sum(len(k) + len(v) for k, v in headers.items()) <= 4096
        assert len(body.encode()) <= BODY_MAX
        headers.update(
            {
                "Content-Type": mime,
                "X-SecondLife-Shard": "Production",
                "X-SecondLife-Region": f"{self.region.name} (256000, 256000)",
                "X-SecondLife-Owner-Key": str(self.owner),
                "X-SecondLife-Owner-Name": self.avatar,
                "X-SecondLife-Object-Key": str(self.object_key),
                "X-SecondLife-Object-Name": self.object_name,
                "X-SecondLife-Local-Position": "(128.0, 128.0, 30.0)",
            }
        )
        request_id = Key(str(uuid.uuid4()))
        self.requests.append((method, url, headers, body))
        self.in_flight[request_id] = asyncio.create_task(self._perform(request_id, method, url, headers, body, cut))
        return request_id

    async def _perform(self, rid: Key, method: str, url: str, headers: dict[str, str], body: str, cut: int) -> None:
        try:
            if self.answer_with is not None:
                status, text = self.answer_with
            else:
                status, text = await _fetch(method, url, headers, body)
        except httpx.TimeoutException:
            status, text = 499, "Request timed out"
        except httpx.HTTPError:
            status, text = 502, "Bad gateway"
        data = text.encode()
        self.largest = max(self.largest, len(data))
        if len(data) > cut:
            self.cut_bodies += 1
            text = data[:cut].decode(errors="ignore")
        self.in_flight.pop(rid, None)
        self.answers.append((status, text[:200]))
        self.script.queue_event("http_response", (rid, status, [], text))

    # -- what the test does --------------------------------------------------------------------------------

    async def run(self) -> None:
        await self.script.execute()

    async def touch(self, link_name: str) -> None:
        link = next(n for n, name in self.links.items() if name == link_name)
        self.script.queue_event("touch_start", (1,), [DetectedDetails(Key=self.owner, LinkNumber=link)])
        await self.run()

    async def chat(self, channel: int, text: str) -> None:
        assert any(ch == channel for ch, _ in self.listens.values()), f"nothing listens on channel {channel}"
        handle = next(h for h, (ch, _) in self.listens.items() if ch == channel)
        self.script.queue_event("listen", (channel, self.avatar, self.owner, text))
        await self.run()
        assert handle  # the listener was there when the owner spoke

    async def answer(self, label: str) -> None:
        """Click ``label`` on the latest dialog (the viewer says it on the dialog's channel)."""
        dialog = self.dialogs[-1]
        assert label in dialog.buttons, f"{label!r} is not on the dialog {dialog.buttons}"
        await self.chat(dialog.channel, label)

    async def type_text(self, text: str) -> None:
        await self.chat(self.text_boxes[-1].channel, text)

    async def event(self, name: str, *args: Any) -> None:
        self.script.queue_event(name, args)
        await self.run()


async def _fetch(method: str, url: str, headers: dict[str, str], body: str) -> tuple[int, str]:
    """The request, on the event loop: one the test leaves waiting (a long poll) is cancelled with it."""
    async with httpx.AsyncClient(timeout=OUTBOUND_TIMEOUT) as client:
        answer = await client.request(method, url, headers=headers, content=body.encode() if method != "GET" else None)
    return answer.status_code, answer.text


def _compiled() -> BaseLSLScript:
    namespace: dict[str, Any] = dict(vars(lummao))
    exec(python_source(), namespace)  # lummao's own compile_script, on the source compiled once
    script: BaseLSLScript = namespace["Script"]()
    return script


async def pump(
    huds: list[Hud],
    until: Callable[[], bool],
    rounds: int = 1500,
    step: float = 0.25,
    fail: bool = True,
    pause: float = 0.02,
) -> None:
    """Run the HuDs until ``until()``: each round moves the clock ``step`` seconds, fires each one's timer, runs
    their events and lets their requests answer (a real wait of ``pause`` seconds, for the server)."""
    for _ in range(rounds):
        if until():
            return
        huds[0].world.now += step
        for hud in huds:
            if hud.timer:
                hud.script.queue_event("timer", ())
            await hud.run()
        await asyncio.sleep(pause)
        for hud in huds:
            await hud.run()
    if not fail:
        return
    state = [(h.avatar, h.hover, h.owner_said[-3:], [r[:2] for r in h.requests[-2:]], h.answers[-2:]) for h in huds]
    raise AssertionError(f"the HuDs never got there: {state}")
