"""What vulture (``vulture src vulture_whitelist.py --min-confidence 60``) reports as unused on src/ but is not dead,
each with why. ``tests/test_dead_code.py`` runs vulture at 80% and fails on any hit; at 60% (functions, methods,
variables, attributes) a hit is a candidate: remove it, or add it here with its reason.

Not imported by anything: vulture reads the names below as uses.
"""

from typing import Any

_: Any = None

_.check_cmd  # cli/character.py: a typer command or callback, registered by its decorator
_.options_cmd  # cli/character.py: a typer command or callback, registered by its decorator
_.check_command  # cli/db.py: a typer command or callback, registered by its decorator
_.backup_command  # cli/db.py: a typer command or callback, registered by its decorator
_._root  # cli/main.py: a typer command or callback, registered by its decorator
_.content_check  # cli/main.py: a typer command or callback, registered by its decorator
_.sim  # cli/main.py: a typer command or callback, registered by its decorator
_.verify_cmd  # cli/main.py: a typer command or callback, registered by its decorator
_.options_cmd  # cli/main.py: a typer command or callback, registered by its decorator
_.scenario_cmd  # cli/schema.py: a typer command or callback, registered by its decorator
_.__signature__  # cli/declared.py: what typer reads of a generated command (its flags, from the declaration)
_.__doc__  # cli/declared.py: what typer reads of a generated command (its --help text)
_.possibilities  # cli/declared.py: what click's NoSuchOption prints as "Possible options" (the nearest flags)
_.actions_cmd  # cli/schema.py: a typer command or callback, registered by its decorator
_.view_cmd  # cli/schema.py: a typer command or callback, registered by its decorator
_.new_table  # cli/table.py: a typer command or callback, registered by its decorator
_.snapshot  # core/engine.py: a Ruleset method, called through the protocol (core/engine.py)
_.gm_secrets  # core/engine.py: a Ruleset method, called through the protocol (core/engine.py)
_.roll_notation  # core/notation.py: used outside src/: library helper, parse and roll in one call (tests/core/test_dice.py)
_.__qualname__  # core/plugin.py: names a plug-in part's loader in reprs and tracebacks
_.unregister  # core/plugin.py: used outside src/: the registry's undo for toy rulesets in tests (tests/core/test_plugin.py)
_.ViewObservation  # core/policy.py: used outside src/: the plainest observation for a new ruleset (docs/architecture.md, 'Adding a ruleset')
_.Facts  # core/view.py: used outside src/: the facts panel's rows for a ruleset that fills them in (the toy of tests/core/toy.py; docs/architecture.md)
_.panels  # core/view.py: a dataclass field, serialised by to_jsonable (the page picks its panels from it)
_.ScriptedRNG  # core/rng.py: used outside src/: the scripted dice stream of tests and docs/library.md
_._two_sides  # core/scenario.py: a pydantic validator, registered by its decorator
_._unique_names  # core/scenario.py: a pydantic validator, registered by its decorator
_._use_or_sheet  # core/scenario.py: a pydantic validator, registered by its decorator
_.reference_duel  # odds/reference.py: used outside src/: the reference duel of bench/bench_odds.py and tests/odds/test_duel_solver.py
_.__getattr__  # rulesets/hud/__init__.py: module __getattr__ (PEP 562): the package's lazy attributes
_.ADJUSTER  # rulesets/hud/adjust.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.BATCH  # rulesets/hud/batch.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.characters  # rulesets/hud/content_model.py: a pydantic field, read from YAML
_._shield_is_one_handed  # rulesets/hud/content_model.py: a pydantic validator, registered by its decorator
_._one_start  # rulesets/hud/content_model.py: a pydantic validator, registered by its decorator
_._first_exists  # rulesets/hud/content_model.py: a pydantic validator, registered by its decorator
_._unique_weapons  # rulesets/hud/content_model.py: a pydantic validator, registered by its decorator
_.initiative_order  # rulesets/hud/mechanics.py: used outside src/: WL-09 as a pure function (contract 3), tested in tests/hud/test_mechanics.py
_.pursuit_roll  # rulesets/hud/mechanics.py: used outside src/: WL-22 as a pure function (DESIGN.md contract 3), tested in tests/hud/test_mechanics.py
_.NARRATOR  # rulesets/hud/narration.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.DUEL  # rulesets/hud/odds.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.CHECKS  # rulesets/hud/odds.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.POLICIES  # rulesets/hud/policies.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.gm_secrets  # rulesets/hud/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.snapshot  # rulesets/hud/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.SAMPLER  # rulesets/hud/sample.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.RULES  # rulesets/hud/sheet.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_._once  # rulesets/hud/sheet.py: a pydantic validator, registered by its decorator
_.__getattr__  # rulesets/spellchrome/__init__.py: module __getattr__ (PEP 562): the package's lazy attributes
_.ADJUSTER  # rulesets/spellchrome/adjust.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.characters  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.intelligence  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.dexterity  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.wisdom  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.charisma  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.empowerable  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.constitution  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_.monsters  # rulesets/spellchrome/content_model.py: a pydantic field, read from YAML
_._dice_is_dice  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._sheets_and_surprise  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._save_has_dc  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._ranged_has_range  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._readable_map  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._consistent  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._twenty_rising_rows  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._refill_needs_ex_hp  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_._damage_is_dice  # rulesets/spellchrome/content_model.py: a pydantic validator, registered by its decorator
_.rest_day  # rulesets/spellchrome/downtime.py: used outside src/: Spellchrome downtime as functions (docs/spellchrome.md), tested
_.knockout  # rulesets/spellchrome/downtime.py: used outside src/: Spellchrome downtime as functions (docs/spellchrome.md), tested
_.wake  # rulesets/spellchrome/downtime.py: used outside src/: Spellchrome downtime as functions (docs/spellchrome.md), tested
_.precise_healing  # rulesets/spellchrome/downtime.py: used outside src/: Spellchrome downtime as functions (docs/spellchrome.md), tested
_.treat_injury  # rulesets/spellchrome/downtime.py: used outside src/: Spellchrome downtime as functions (docs/spellchrome.md), tested
_.DUEL  # rulesets/spellchrome/duel.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.save_progression  # rulesets/spellchrome/mechanics.py: used outside src/: SC-14's base-save progressions, which tests check signs.yaml against
_.NARRATOR  # rulesets/spellchrome/narration.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.expected_loss  # rulesets/spellchrome/odds.py: a dataclass field, serialised by to_jsonable
_.CHECKS  # rulesets/spellchrome/odds.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.POLICIES  # rulesets/spellchrome/policies.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.start_poise  # rulesets/witchhammer/setup.py: a CombatantSetup key (a TypedDict), read as c["start_poise"]
_.snapshot  # rulesets/spellchrome/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.gm_secrets  # rulesets/spellchrome/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.SAMPLER  # rulesets/spellchrome/sample.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.RULES  # rulesets/spellchrome/sheet.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.will  # rulesets/spellchrome/sheet.py: a pydantic field, read from YAML
_.reflex  # rulesets/spellchrome/sheet.py: a pydantic field, read from YAML
_.fortitude  # rulesets/spellchrome/sheet.py: a pydantic field, read from YAML
_._wielding_carried  # rulesets/spellchrome/sheet.py: a pydantic validator, registered by its decorator
_._feats_once  # rulesets/spellchrome/sheet.py: a pydantic validator, registered by its decorator
_.__getattr__  # rulesets/warp/__init__.py: module __getattr__ (PEP 562): the package's lazy attributes
_.ADJUSTER  # rulesets/warp/adjust.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.recover_all  # rulesets/warp/aftermath.py: used outside src/: WaRP recovery as a function (docs/warp.md), tested
_.advance_days  # rulesets/warp/aftermath.py: used outside src/: WaRP recovery as a function (docs/warp.md), tested
_.characters  # rulesets/warp/content_model.py: a pydantic field, read from YAML
_._has_stats  # rulesets/warp/content_model.py: a pydantic validator, registered by its decorator
_._flaw_shape  # rulesets/warp/content_model.py: a pydantic validator, registered by its decorator
_._known_row  # rulesets/warp/content_model.py: a pydantic validator, registered by its decorator
_._wielding_carried  # rulesets/warp/content_model.py: a pydantic validator, registered by its decorator
_._has_a_use  # rulesets/warp/content_model.py: a pydantic validator, registered by its decorator
_._rating  # rulesets/warp/content_model.py: a pydantic validator, registered by its decorator
_.DUEL  # rulesets/warp/duel.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.DAMAGE_FACTORS  # rulesets/warp/mechanics.py: used outside src/: WR-12's damage factors as the seed lists them, which tests check the content against
_.explosion  # rulesets/warp/mechanics.py: used outside src/: WR-33 as a library function (docs/warp.md), tested
_.dodge_bonus  # rulesets/warp/mechanics.py: used outside src/: a WaRP library function (docs/warp.md), tested
_.gang_up_extra  # rulesets/warp/mechanics.py: used outside src/: a WaRP library function (docs/warp.md), tested
_.NARRATOR  # rulesets/warp/narration.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.sheet_open  # rulesets/warp/observe.py: used outside src/: an observation property a policy may read, tested in tests/warp/test_fast.py
_.CHECKS  # rulesets/warp/odds.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.faces_dist  # rulesets/warp/odds.py: used outside src/: the exact distribution of a WaRP pool's faces, tested in tests/odds/test_warp_odds.py
_.ranged_defense_reading  # rulesets/warp/options.py: a rule option (WR-B14), read by name like every option
_.POLICIES  # rulesets/warp/policies.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.warp_pool  # rulesets/warp/rolls.py: used outside src/: a WaRP trait roll outside a match (WR-01, WR-02), tested in tests/warp/test_dice.py
_.snapshot  # rulesets/warp/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.gm_secrets  # rulesets/warp/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.SAMPLER  # rulesets/warp/sample.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.RULES  # rulesets/warp/sheet.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_._two_sides  # rulesets/warp/sheet.py: a pydantic validator, registered by its decorator
_.reach_m  # rulesets/warp/views.py: a dataclass field, serialised by to_jsonable
_.decision  # rulesets/warp/views.py: a dataclass field, serialised by to_jsonable
_.__getattr__  # rulesets/witchhammer/__init__.py: module __getattr__ (PEP 562): the package's lazy attributes
_.ADJUSTER  # rulesets/witchhammer/adjust.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.agility_defense  # rulesets/witchhammer/characters/sheet.py: a pydantic field, read from YAML
_.will_defense  # rulesets/witchhammer/characters/sheet.py: a pydantic field, read from YAML
_.fear_defense  # rulesets/witchhammer/characters/sheet.py: a pydantic field, read from YAML
_._traits_once  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_._skill_counts  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_._from_the_table  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_._not_zero  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_._five_items  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_._school_levels  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_._not_for_sale  # rulesets/witchhammer/characters/sheet.py: a pydantic validator, registered by its decorator
_.RULES  # rulesets/witchhammer/characters/show.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.weaknesses  # rulesets/witchhammer/content_model.py: a pydantic field, read from YAML
_.characters  # rulesets/witchhammer/content_model.py: a pydantic field, read from YAML
_.monsters  # rulesets/witchhammer/content_model.py: a pydantic field, read from YAML
_.on_success  # rulesets/witchhammer/content_model.py: a pydantic field, read from YAML
_.tier  # rulesets/witchhammer/content_model.py: a pydantic field, read from YAML
_.on_fail  # rulesets/witchhammer/content_model.py: a pydantic field, read from YAML
_._no_nested_attacks  # rulesets/witchhammer/content_model.py: a pydantic validator, registered by its decorator
_._psych_has_no_line  # rulesets/witchhammer/content_model.py: a pydantic validator, registered by its decorator
_.DUEL  # rulesets/witchhammer/duel.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.expected_damage  # rulesets/witchhammer/mechanics.py: used outside src/: a WitchHammer library function (docs/witchhammer.md), tested
_.NARRATOR  # rulesets/witchhammer/narration.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.CHECKS  # rulesets/witchhammer/odds.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.POLICIES  # rulesets/witchhammer/policies.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.gm_secrets  # rulesets/witchhammer/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.snapshot  # rulesets/witchhammer/ruleset.py: a Ruleset method, called through the protocol (core/engine.py)
_.SAMPLER  # rulesets/witchhammer/sample.py: a plug-in part, loaded by name through core.plugin.part(module, name)
_.record_by_submission  # store/db.py: used outside src/: the store's lookup of a retried submission (store/__init__.py), tested
_.migrated_from  # store/db.py: used outside src/: which schema version the store upgraded from (store/__init__.py), tested
_.commit_counts  # store/db.py: used outside src/: how many appends each commit carried (group commit), tested and read by bench/bench_table.py
_._on_connect  # store/engine.py: a SQLAlchemy event listener, registered by its decorator
_._on_begin  # store/engine.py: a SQLAlchemy event listener, registered by its decorator
_.isolation_level  # store/engine.py: set on the sqlite3 connection so SQLAlchemy emits BEGIN itself
_.is_open  # store/rows.py: used outside src/: a store row's property, tested in tests/store/test_tables.py
_.content_item  # web/building.py: a FastAPI route, registered by its decorator
_.upload_map  # web/building.py: a FastAPI route, registered by its decorator
_.table_map  # web/building.py: a FastAPI route, registered by its decorator
_.table_log  # web/app.py: a FastAPI route, registered by its decorator
_.table_state  # web/app.py: a FastAPI route, registered by its decorator
_.new_table  # web/app.py: a FastAPI route, registered by its decorator
_.new_code  # web/inworld.py: a FastAPI route, registered by its decorator
_.disconnected  # web/connections.py: uvicorn's request cycle flag: the app sees the client gone
_.ping_timer  # web/connections.py: uvicorn's keepalive timer handle, which its WebSocket protocol cancels
_.send_400_response  # web/connections.py: uvicorn calls it for bytes that are not HTTP; answered as the guard's refusals
_._invalid  # web/errors.py: a FastAPI exception handler, registered by its decorator
_._crash  # web/errors.py: a FastAPI exception handler, registered by its decorator
_._http  # web/errors.py: a FastAPI exception handler, registered by its decorator
_.__traceback__  # web/errors.py: cleared so a refused request's exception keeps no frames alive (web/errors.py)
_.scrape  # web/metrics.py: a FastAPI route, registered by its decorator
_.collect  # web/metrics.py: prometheus_client's collector protocol
_.table_page  # web/pages.py: a FastAPI route, registered by its decorator
_.lobby  # web/pages.py: a FastAPI route, registered by its decorator
_.check_scenario  # web/pages.py: a FastAPI route, registered by its decorator
_.rulesets  # web/pages.py: a FastAPI route, registered by its decorator
_.list_fights  # web/owners.py: a FastAPI route, registered by its decorator
_.get_fight  # web/owners.py: a FastAPI route, registered by its decorator
_.save_fight  # web/owners.py: a FastAPI route, registered by its decorator
_.list_tables  # web/owners.py: a FastAPI route, registered by its decorator
_.seat_socket  # web/ws.py: a FastAPI route, registered by its decorator
_.__traceback__  # web/ws.py: cleared so a refused request's exception keeps no frames alive (web/errors.py)
_.open_tables  # store/db.py: the store's API (its tests, an operator's script); the server loads tables on first use
_.persistent_id  # table/snapshot.py: pickle's hook, called by the pickler
_.persistent_load  # table/snapshot.py: pickle's hook, called by the unpickler
_.rounds_at_least  # sim/report.py: library API, P(rounds >= k) of affray.SimReport (docs/library.md)
_.__lt__  # core/policy.py: Ordered.__lt__ is a Protocol member: what sorted() and min() call on a key Choices.best orders
