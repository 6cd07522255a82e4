"""Text that is Unicode, in and out: no request body with raw bytes that are not UTF-8 or with a lone surrogate
escape (``"\\ud800"``) reaches a route, and no answer fails to encode (docs/table.md, "Bad input").

A lone surrogate is valid JSON syntax but names no character: Python decodes it into a string that no UTF-8
encoder, database driver or hash accepts, so it used to turn an echoed refusal (``Your seat does not play '...'``)
or a stored action into a 500. :class:`TextCheck` refuses such a body before any route sees it, with 400
``bad_text`` and where it was found, for every route present and future (the same check as the CLI's files:
:func:`affray.core.files.lone_surrogate`). :class:`SafeJSONResponse` is the last resort behind it: an answer whose
text cannot be UTF-8 is written with ASCII escapes instead of failing.

:class:`JsonRoute` sends what a route returns as it is: every route's answer is JSON data already (the service's
``to_jsonable`` output, typed dictionaries), and FastAPI's own walk over it (``jsonable_encoder``, which asks every
value of every view whether it is a dataclass, a model, an enum...) was three quarters of a seat's view request.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any

import orjson
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from affray.core.files import lone_surrogate, may_escape_surrogate
from affray.web.limits import ASGIApp, Message, Receive, Scope, Send, send_refusal

TEXT_TYPES = (b"application/json", b"text/", b"application/x-www-form-urlencoded")


class SafeJSONResponse(JSONResponse):
    """FastAPI's JSON answer, except that text which cannot be encoded as UTF-8 is sent as ``\\uXXXX`` escapes
    (still valid JSON) instead of raising."""

    def render(self, content: object) -> bytes:
        try:  # the same compact UTF-8 text as Starlette's json.dumps, about ten times faster
            return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:  # a lone surrogate or an integer past 64 bits: the standard library, ASCII escapes
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


class JsonRoute(APIRoute):
    """A route whose dictionary or list answer is sent as :class:`SafeJSONResponse` at once (with the route's
    status code), skipping FastAPI's ``jsonable_encoder``; any other answer (a Response, a model) goes FastAPI's way.
    The endpoint keeps its signature (``functools.wraps``), so parameters, validation and the OpenAPI schema are
    FastAPI's as before. Use it as ``APIRouter(route_class=JsonRoute)``."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, _answering(endpoint, kwargs.get("status_code") or 200), **kwargs)


def _answering(endpoint: Callable[..., Any], status: int) -> Callable[..., Any]:
    def sent(answer: object) -> object:
        return SafeJSONResponse(answer, status) if isinstance(answer, dict | list) else answer

    if inspect.iscoroutinefunction(endpoint):

        @functools.wraps(endpoint)
        async def answer_async(*args: Any, **kwargs: Any) -> object:
            return sent(await endpoint(*args, **kwargs))

        return answer_async

    @functools.wraps(endpoint)
    def answer(*args: Any, **kwargs: Any) -> object:
        return sent(endpoint(*args, **kwargs))

    return answer


def body_problem(body: bytes) -> str | None:
    """Why a request body is not acceptable text, as a sentence, or None. Malformed JSON is left to the route
    (which names the problem itself); only what would pass JSON parsing and fail later is caught here."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"The request body is not UTF-8 text (byte 0x{body[exc.start]:02x} at offset {exc.start})."
    if not may_escape_surrogate(text):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    where = lone_surrogate(data)
    if where is None:
        return None
    return (
        f"The request body holds a lone surrogate escape at {where} (\\ud800 to \\udfff alone name no "
        f"character); send Unicode text."
    )


def _is_text(scope: Scope) -> bool:
    headers = dict(scope.get("headers") or [])
    if b"content-length" not in headers and b"transfer-encoding" not in headers:
        return False  # no body
    kind = headers.get(b"content-type", b"application/json").lower()
    return kind.startswith(TEXT_TYPES) or b"json" in kind


class TextCheck:
    """Read a text request body whole (:class:`affray.web.limits.BodyLimit`, outside this one, bounds it), refuse
    it with 400 ``bad_text`` when :func:`body_problem` says so, and otherwise hand it to the app unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_text(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was complete: nobody to answer
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = body_problem(body)
        if problem is not None:
            await send_refusal(send, 400, "bad_text", problem)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
