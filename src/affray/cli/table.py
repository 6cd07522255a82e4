"""``affray serve`` and ``affray table new``: run a table server, open a table on one (docs/table.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

import typer

from affray.cli.render import CliError, console, escape, warn
from affray.core.files import LONE_SURROGATE, MAX_YAML_BYTES, lone_surrogate, read_text
from affray.web.bounds import MAX_CONNECTIONS, ConnectionLimits

if TYPE_CHECKING:
    import httpx2 as httpx

table_app = typer.Typer(no_args_is_help=True, help="Open tables on a table server.")

DEFAULT_SERVER = "http://127.0.0.1:8000"


def serve_command(
    host: str,
    port: int,
    db: str,
    create_key: str | None,
    policy_pause: float,
    examples: Path | None,
    ws_compression: bool = False,
    limits: ConnectionLimits | None = None,
    max_connections: int | None = MAX_CONNECTIONS,
    idle_evict: str = "600",
    *,
    open_creation: bool = False,
    forwarded_allow_ips: str | None = None,
    ai_cpu: tuple[float | None, float | None] = (None, None),
    lan: str | None = None,
    content: Sequence[Path] = (),
) -> None:
    """``affray serve``: refused with a sentence (exit 2) when a server others can reach would let anyone open
    tables (:func:`affray.web.server.creation_refusal`); ``ai_cpu``: the CPU budgets per address and in all (None:
    the defaults of :mod:`affray.table.budget`); ``lan``: listen on this machine's LAN address as well ("auto": the
    default route's, or an address; :mod:`affray.web.lan`), with a creation key made for the run if none is given,
    and print the links with that address. ``content``: content files or folders the content library lists beside
    the bundled content (:func:`affray.table.library.load_extra`; a broken one stops here with its file and field)."""
    from affray.core.content import ContentError
    from affray.store import StoreError
    from affray.table.budget import ADDRESS_CPU, TOTAL_CPU, CpuBudget
    from affray.table.library import load_extra
    from affray.web.lan import LanError, default_route_address, interfaces, lan_banner, lan_serving
    from affray.web.server import creation_refusal, serve

    if policy_pause < 0:
        raise CliError("--policy-pause must be 0 or more seconds")
    evict = idle_seconds(idle_evict)
    serving = None
    if lan is not None:  # first: off loopback it makes the creation key the check below asks for
        try:
            serving = lan_serving(host, port, lan, create_key, open_creation, interfaces(), default_route_address())
        except LanError as exc:
            raise CliError(str(exc)) from None
        create_key = serving.create_key
    refusal = creation_refusal(host, create_key, open_creation, forwarded_allow_ips)
    if refusal is not None:
        raise CliError(refusal)
    budget = CpuBudget(ai_cpu[0] or ADDRESS_CPU, ai_cpu[1] or TOTAL_CPU)
    try:
        extra = load_extra(content) if content else {}
    except ContentError as exc:
        raise CliError(f"--content: {exc}") from None
    where = f"http://{host}:{port}" + (f" and {serving.public_url}" if serving and serving.lan else "")
    console.print(f"affray table server on {where} (database {escape(_safe_url(db))}); Ctrl-C stops it")
    for line in lan_banner(serving, port) if serving else []:
        console.print(escape(line))
    if open_creation:
        warn(
            "--open-creation: anyone who reaches this server may open tables and check scenarios (each address "
            "within its rate and CPU budget); give it --create-key instead when others can reach it"
        )
    try:
        serve(
            host,
            port,
            db,
            create_key=create_key,
            policy_pause=policy_pause,
            examples_dir=examples,
            ws_compression=ws_compression,
            limits=limits,
            max_connections=max_connections,
            idle_evict=evict,
            open_creation=open_creation,
            forwarded_allow_ips=forwarded_allow_ips,
            cpu_budget=budget,
            lan=serving.lan if serving else None,
            public_url=serving.public_url if serving else None,
            content=extra,
        )
    except (StoreError, OSError) as exc:
        raise CliError(str(exc)) from None


MAX_IDLE_EVICT = 7 * 24 * 3600.0  # a week: a longer wait is "never", which 0 says


def idle_seconds(text: str) -> float | None:
    """``--idle-evict``: a number of seconds (at least 1, at most a week), or 0 for never (None)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if seconds == 0:
        return None
    if not 1 <= seconds <= MAX_IDLE_EVICT:  # also refuses nan and inf
        raise CliError(
            f"--idle-evict takes a number of seconds from 1 to {MAX_IDLE_EVICT:.0f} (a week), or 0 to "
            f"keep every table in memory; {text!r} is not one"
        )
    return seconds


def _safe_url(db: str) -> str:
    """The database URL without a password, for the banner."""
    scheme, sep, rest = db.partition("://")
    creds, at, host = rest.rpartition("@")
    return f"{scheme}{sep}{creds.split(':')[0]}{at}{host}" if at else db


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise CliError(f"--option takes KEY=VALUE, not {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def _scenario_arg(scenario: str) -> str:
    """A file path sends its text (read with the limits of every scenario file: UTF-8, at most 512 KiB); anything
    else is an example name."""
    path = Path(scenario)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return read_text(path, MAX_YAML_BYTES)
    return scenario


@table_app.command("new")
def new_table(
    scenario: Annotated[str, typer.Argument(help="a built-in example (RULESET/NAME) or a YAML file")],
    server: Annotated[str, typer.Option("--server", help="the table server's address")] = DEFAULT_SERVER,
    option: Annotated[list[str] | None, typer.Option("--option", help="KEY=VALUE rule option")] = None,
    controller: Annotated[
        list[str] | None, typer.Option("--controller", help="ACTOR=human or ACTOR=POLICY; repeatable")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="a public seed (default: secret)")] = None,
    create_key: Annotated[
        str | None, typer.Option("--create-key", envvar="AFFRAY_CREATE_KEY", help="the server's creation key")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the server's answer as JSON")] = False,
    link_base: Annotated[
        str | None,
        typer.Option(
            "--link-base",
            metavar="URL",
            help="the address the printed links carry (default: --server's), such as the LAN address of a "
            "server started with --lan, for phones",
        ),
    ] = None,
) -> None:
    """Open a table on a server and print the GM's and every seat's link (keep them: they are the keys)."""
    import httpx2 as httpx

    body = {
        "scenario": _scenario_arg(scenario),
        "options": dict(_option(o) for o in option or []),
        "controllers": dict(_option(c) for c in controller or []),
        "seed": seed,
    }
    where = lone_surrogate(body)  # bytes in the arguments that are not UTF-8, or a "\ud800" in an --option's JSON
    if where is not None:
        raise CliError(f"the request to the server is not Unicode text ({where}: {LONE_SURROGATE})")
    headers = {"X-Create-Key": create_key} if create_key else {}
    try:
        answer = httpx.post(f"{server.rstrip('/')}/api/tables", json=body, headers=headers, timeout=30)
    except httpx.HTTPError as exc:
        raise CliError(f"cannot reach the table server at {server}: {exc}") from None
    data = _json(answer)
    if answer.status_code != 201:
        problems = "".join(f"\n  {p['file']}: {p['field']}: {p['expected']}" for p in data.get("problems", []))
        hint = (
            " (give it with --create-key KEY or AFFRAY_CREATE_KEY=KEY)"
            if data.get("code") in ("bad_create_key", "create_key_needed")
            else ""
        )
        raise CliError(
            f"the server refused the table ({data.get('code', answer.status_code)}): "
            f"{data.get('message', answer.text[:200])}{problems}{hint}"
        )
    if as_json:
        print(json.dumps(data))
        return
    base = (link_base or server).rstrip("/")
    console.print(f"table [bold]{data['table']}[/] ({escape(data['title'])}); seed commitment {data['commitment']}")
    console.print(f"GM page (it lists every seat's link, with a QR code for phones): {base}{gm_link(data)}")
    for name, seat in data["seats"].items():
        actors = f" ({', '.join(seat['actors'])})" if seat["actors"] else ""
        console.print(f"{escape(name)}{escape(actors)}: {base}{seat['link']}")
    if create_key:
        console.print(
            f"Open more tables from the lobby: {base}{lobby_link(create_key)} (it carries the creation key; "
            f"the page keeps it in that browser: give it only to whoever may open tables)"
        )


def lobby_link(create_key: str) -> str:
    """The lobby's address with the creation key in its fragment (``/#key=KEY``), which a browser never sends to a
    server: the lobby keeps the key (localStorage) and sends it when it opens a table or checks a scenario."""
    return f"/#key={quote(create_key, safe='')}"


def gm_link(data: dict[str, Any]) -> str:
    """The GM's link with every seat's token after its own in the fragment (``#GM&seat=TOKEN&...``): the GM page
    opened from it keeps the links in that browser (a browser never sends a fragment to a server) and shows them."""
    seats = "".join(f"&{name}={seat['token']}" for name, seat in data["seats"].items())
    return f"{data['gm']['link']}{seats}"


def _json(answer: httpx.Response) -> dict[str, Any]:
    try:
        data = answer.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
