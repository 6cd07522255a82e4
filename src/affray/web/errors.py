"""Every refusal of the API as ``{"code", "message"}`` with a 4xx status; never a traceback (docs/table.md)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from affray.table import Refusal
from affray.web.headers import headers_for
from affray.web.text import SafeJSONResponse

log = logging.getLogger(__name__)

STATUS_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type"}


def refusal_response(exc: Refusal) -> JSONResponse:
    return SafeJSONResponse(exc.to_dict(), status_code=exc.status)


def _where(loc: tuple[object, ...] | list[object]) -> str:
    parts = [str(p) for p in loc if p != "body"]
    return ".".join(parts) or "body"


def validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "The request is not valid."
    first = errors[0]
    if first.get("type") == "json_invalid":
        return "The request body is not valid JSON."
    if first.get("type") == "extra_forbidden":
        return f"Unknown field '{_where(first.get('loc', ()))}'."
    if first.get("type") == "missing":
        return f"The field '{_where(first.get('loc', ()))}' is required."
    return f"{_where(first.get('loc', ()))}: {first.get('msg', 'not valid')}."


def install(app: FastAPI) -> None:
    """Register the handlers that turn every failure into JSON. Each one drops the exception's traceback once it is
    answered: a refusal raised in a worker thread (every synchronous route runs in one) is kept by the thread's
    future, which its traceback keeps, so the request would otherwise wait for a full garbage collection, rare in
    the server (docs/performance.md, "Memory after WebSocket connections")."""

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> JSONResponse:
        exc.__traceback__ = None
        return refusal_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        exc.__traceback__ = None
        return SafeJSONResponse({"code": "bad_request", "message": validation_message(exc)}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        exc.__traceback__ = None
        code = STATUS_CODES.get(exc.status_code, "bad_request")
        message = exc.detail if isinstance(exc.detail, str) else "The request was refused."
        return SafeJSONResponse({"code": code, "message": message}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        # The last resort: the details stay in the server's log, the caller gets no traceback. Starlette answers it
        # from its outermost layer, outside every middleware, so the security headers are added here.
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        exc.__traceback__ = None
        headers = {
            name.decode(): value.decode()
            for name, value in headers_for(request.url.path, request.headers.get("host", ""))
        }
        return SafeJSONResponse(
            {"code": "internal", "message": "The server failed; the operator can see why in its log."},
            status_code=500,
            headers=headers,
        )
