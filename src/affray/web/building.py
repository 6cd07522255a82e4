"""What a GM building a fight asks the server (docs/table.md): the content library (``GET /api/content/RULESET``),
the odds before the fight (``POST /api/scenarios/odds``) and the table's map image (``POST /api/tables/ID/gm/map``,
``GET /api/tables/ID/map``). :func:`building_router` makes the routes; :mod:`affray.web.app` includes them.

The map's upload is the one body larger than the default (:data:`affray.web.limits.LARGER_BODIES`); its image is
read with the seat's token in the ``Authorization`` header like every seat route, so a page fetches it and draws it
from a blob URL (an ``<img src>`` could not carry the token, and a token in a URL would leak to logs).

The library is read-only and public, like the examples. The odds cost CPU: they are under the creation key and a
rate limit per address (:meth:`affray.web.app.Api.creating`), their job key scoped to the caller's address (a
stranger cannot cancel another's job), their work bounded by :mod:`affray.table.odds_job`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Protocol

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from affray.core.json import JsonObject
from affray.table import library, map_image
from affray.table.odds_job import DEFAULT_FIGHTS, DEFAULT_SEED, MAX_FIGHTS, OddsJobs
from affray.table.scenarios import resolve_scenario
from affray.web.limits import RateLimiter
from affray.web.logins import address_keys, client_address
from affray.web.models import Body
from affray.web.text import JsonRoute

if TYPE_CHECKING:
    from affray.table import SeatInfo, Table, TableService
    from affray.web.limits import RateLimiter as Limiter


class Gate(Protocol):
    """What the routes need of :class:`affray.web.app.Api` (named here, not imported: app.py includes this module)."""

    service: TableService

    def creating(self, request: Request, limiter: Limiter | None = None) -> None: ...

    def seat(self, table_id: str, token: str | None) -> tuple[Table, SeatInfo]: ...


def bearer(request: Request) -> str | None:
    """The seat's token from ``Authorization: Bearer TOKEN`` (as :func:`affray.web.app.bearer` reads it)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


ODDS_RATE, ODDS_BURST = 1.0, 6.0  # odds requests per second per address, and at once (a page asks on each change)


class OddsBody(Body):
    """``POST /api/scenarios/odds``: scenario YAML (or JSON) text, how many fights, an optional job key and seed."""

    scenario: str = Field(min_length=1, max_length=128 * 1024)
    fights: int = Field(default=DEFAULT_FIGHTS, ge=1, le=MAX_FIGHTS)
    key: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_.:-]{1,64}$",
        description="a new request with the same key cancels this one (409 cancelled)",
    )
    seed: int = Field(default=DEFAULT_SEED, ge=0, le=2**63 - 1)
    exact: bool = Field(default=True, description="use the exact duel solver where it applies")


def building_router(api: Gate) -> APIRouter:
    """The routes of the content library, the odds and the map image."""
    router = APIRouter(prefix="/api", tags=["building"], route_class=JsonRoute)
    jobs = OddsJobs()
    odds_limiter = RateLimiter(rate=ODDS_RATE, burst=ODDS_BURST)
    router.add_event_handler("shutdown", jobs.close)

    @router.get("/content/{ruleset}", response_model=None)
    def content(
        request: Request,
        ruleset: str,
        q: Annotated[str | None, Query(max_length=library.MAX_QUERY, description="part of a name or id")] = None,
    ) -> dict[str, object]:
        """Every character, monster, weapon, armour, card, trait, technique and status of the ruleset (and of the
        server's ``--content`` folder): ``{"id", "kind", "name", "summary", "stats"}`` each, the summary its stats in
        words; ``q`` keeps those whose name or id holds it. 404 with a sentence for an unknown ruleset."""
        return library.as_json(ruleset, library.entries(ruleset, api.service.content, q))

    @router.get("/content/{ruleset}/{item_id}", response_model=None)
    def content_item(request: Request, ruleset: str, item_id: str) -> dict[str, object]:
        """The entries called ``item_id`` (404 with the nearest ids otherwise)."""
        return library.as_json(ruleset, library.entry(ruleset, item_id, api.service.content))

    @router.post("/scenarios/odds", response_model=None)
    def odds(body: OddsBody, request: Request) -> JsonObject:
        """Each side's chance to win with its 95% interval, the draws, the mean rounds, who is most at risk and the
        policies assumed, from a quick simulation (or the exact duel solver) of the scenario as built. Under the
        creation key, at most one a second per address (6 at once); 409 ``cancelled`` when a newer request with
        the same ``key`` replaced it, 503 ``busy`` when the server's odds queue is full."""
        api.creating(request, odds_limiter)
        scenario, _ = resolve_scenario(body.scenario, api.service.examples_dir, api.service.content)
        key = f"{address_keys(client_address())[0]}|{body.key}" if body.key else None
        chosen: OddsJobs = getattr(request.app.state, "odds_jobs", None) or jobs  # a test's own queue
        return chosen.odds(scenario, body.fights, body.seed, key, body.exact)

    @router.post("/tables/{table_id}/gm/map", response_model=None)
    async def upload_map(table_id: str, request: Request) -> JsonObject:
        """The GM's map image, drawn under the grid: the request's body is the picture's bytes (any Content-Type: the
        type is told by the bytes). PNG, JPEG or WebP of at most 4 MB; 413 past that, 415 for an SVG or anything
        else, each with a sentence. Kept with the table (it survives a restart); a new upload replaces it and every
        seat's message says so (``map``: version, type, bytes)."""
        table, seat = await run_in_threadpool(api.seat, table_id, bearer(request))
        body = await request.body()
        return await run_in_threadpool(map_image.upload, api.service.ledger, table, seat, body)

    @router.get("/tables/{table_id}/map", response_model=None)
    def table_map(table_id: str, request: Request) -> Response:
        """The table's map image, to its seats only (the seat's token as for every seat route; 404 without a map):
        its sniffed type, ``X-Content-Type-Options: nosniff``, shown inline and never cached by a shared cache."""
        table, _ = api.seat(table_id, bearer(request))
        kept = map_image.image(api.service.ledger, table)
        headers = {
            "X-Content-Type-Options": "nosniff",
            "Content-Disposition": 'inline; filename="map"',
            "Cache-Control": "no-store",  # a seat's own, as every answer of the API
            "ETag": f'"{kept.sha256}"',
        }
        return Response(kept.body, media_type=kept.media_type, headers=headers)

    return router
