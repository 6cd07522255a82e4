"""The web table's pages (docs/table.md): the lobby, the table page of every seat, their static files, and the two small
read-only endpoints the lobby needs (the examples, and each ruleset's named rule options and policies).

The pages hold no rules and no secrets: a page reads its seat's token from the invite link's fragment
(``/t/TABLE#TOKEN``, never sent to the server by a browser) and then speaks the API of :mod:`affray.web.app` like
any other client. Everything is served from this package (``static/``, ``templates/``); nothing is loaded from
elsewhere, and there is no build step.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from affray.ai.base import policy_names
from affray.api import Scenario
from affray.core.engine import GM
from affray.core.json import Json, JsonObject
from affray.core.options import describe
from affray.core.plugin import plugin, plugin_names
from affray.table.errors import Refusal
from affray.table.examples import catalogue
from affray.table.scenarios import resolve_scenario
from affray.web.models import ScenarioText
from affray.web.placing import building
from affray.web.text import JsonRoute

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))


def install(app: FastAPI, examples_dir: Path | None) -> None:
    """Mount the static files and add the page routes and the lobby's endpoints to ``app``."""
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(_pages())
    app.include_router(_lobby_api(examples_dir))
    # The Build-a-fight page and what the server keeps for its owner (docs/table.md, "Building a fight").
    from affray.web.owners import owners_router

    app.include_router(_builder_pages())
    app.include_router(owners_router())


def _pages() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/", response_class=HTMLResponse)
    def lobby(request: Request) -> HTMLResponse:
        return TEMPLATES.TemplateResponse(request, "lobby.html", {"title": "affray: open a table"})

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    def table_page(request: Request, table_id: str) -> HTMLResponse:
        # The page learns its seat from the token in the fragment; the server only names the table.
        return TEMPLATES.TemplateResponse(request, "table.html", {"title": "affray table", "table_id": table_id})

    return router


def _builder_pages() -> APIRouter:
    """``/build``: the Build-a-fight page (``static/builder.js``); it speaks only the API, like the lobby."""
    router = APIRouter(include_in_schema=False)

    @router.get("/build", response_class=HTMLResponse)
    def build(request: Request) -> HTMLResponse:
        return TEMPLATES.TemplateResponse(request, "build.html", {"title": "affray: build a fight"})

    return router


def _lobby_api(examples_dir: Path | None) -> APIRouter:
    router = APIRouter(prefix="/api", tags=["lobby"], route_class=JsonRoute)

    @router.get("/examples")
    def examples() -> list[dict[str, Any]]:
        """The example scenarios a table can be opened from (each registered ruleset's, from its record, and the
        server's ``--examples`` folder's): name (for ``POST /api/tables``), ruleset, title, description and
        combatants (id, name, side, and who plays it by default: ``controller`` human, gm or a policy, at
        ``seat``)."""
        found = catalogue(examples_dir)
        return list(_examples(tuple((name, str(path)) for name, path in found.items()), examples_dir))

    @router.post("/scenarios/check", response_model=None)
    def check_scenario(body: ScenarioText, request: Request) -> JsonObject:
        """An uploaded scenario checked as ``POST /api/tables`` would (422 with its problems), and who plays whom in
        it by default, for the lobby to show before the table is opened. Under the creation key, at most 5 a second
        per address (20 at once: web/app.py ``Api.creating``)."""
        api = request.app.state.api
        api.creating(request, api.check_limiter)
        scenario, _ = resolve_scenario(body.scenario, examples_dir, api.service.content)  # --content's ids too
        return {
            "ruleset": scenario.ruleset.name,
            "title": scenario.model.name,
            "combatants": list[Json](_combatants(scenario)),
        }

    @router.get("/rulesets", response_model=None)
    def rulesets() -> JsonObject:
        """Each ruleset's title, named rule options (default, rule ID, sentence, choices, type), policies and how its
        scenarios place combatants (``building``: :mod:`affray.web.placing`)."""
        return {name: _ruleset_info(name) for name in plugin_names()}

    return router


def _ruleset_info(name: str) -> dict[str, Any]:
    record = plugin(name)
    options = [
        {
            "name": o.name,
            "default": o.default,
            "rule": o.rule,
            "doc": o.doc,
            "choices": list(o.choices),
            "type": o.type_name,
        }
        for o in describe(record.ruleset().options_type)
    ]
    # How its scenarios place combatants, for the Build-a-fight page (web/placing.py).
    return {"title": record.title, "options": options, "policies": policy_names(name), "building": building(record)}


@lru_cache(maxsize=8)
def _examples(files: tuple[tuple[str, str], ...], examples_dir: Path | None) -> tuple[dict[str, Any], ...]:
    """Every example of ``files`` (name, path) that opens as a table (read once per catalogue: examples ship with the
    server and its rulesets), with who plays whom in it as the table would open it if nothing is changed
    (:func:`_combatants`)."""
    out = []
    for name, file in files:
        path = Path(file)
        try:
            data = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError):
            continue
        if not (
            isinstance(data, dict) and isinstance(data.get("ruleset"), str) and isinstance(data.get("sides"), list)
        ):
            continue
        try:
            scenario, _ = resolve_scenario(name, examples_dir)
        except Refusal:
            continue  # not an example a table can open (a broken file is reported when someone opens it)
        out.append(
            {
                "name": name,
                "ruleset": data["ruleset"],
                "title": str(data.get("name", name)),
                "description": str(data.get("description", "")),
                "combatants": _combatants(scenario),
            }
        )
    return tuple(out)


def _combatants(scenario: Scenario) -> list[JsonObject]:
    """Each combatant of ``scenario`` (id, display name, side) and who plays it by default, exactly as
    ``POST /api/tables`` opens it when the creator changes nothing: ``controller`` is ``human`` (a person, at player
    seat ``seat``), ``gm`` (the GM's seat) or a policy name."""
    setup = scenario.setup.get("combatants")
    named = {c["id"]: c for c in setup if isinstance(c, dict) and "id" in c} if isinstance(setup, list) else {}
    out = []
    for side in scenario.model.sides:
        for c in side.combatants:
            seat, controller = scenario.seats.get(c.id, c.id), scenario.controllers.get(c.id, "human")
            shown = GM if seat == GM and controller == "human" else controller
            out.append(
                {
                    "id": c.id,
                    "name": str(named.get(c.id, {}).get("name", c.id)),
                    "side": side.name,
                    "seat": seat,
                    "controller": shown,
                }
            )
    return out
