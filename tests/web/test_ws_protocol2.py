"""The WebSocket's protocol 2 end to end, in process (web/ws.py, docs/table.md "Live updates"): a seat that asks for
it is sent its whole message, then patches; it takes its actions over the same connection and is answered there, with
the same checks as ``POST .../actions``: a refused action is answered with a code and a sentence and changes
nothing, a frame that is not an action is refused, and a protocol the server does not speak is refused at once."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from affray.table.patch import apply
from tests.web.conftest import create
from tests.web.helpers import auth


def state(client: TestClient, table: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


WAIT = 10.0  # seconds for a frame that is due: a bound, so that a frame that never comes fails the test


def next_frame(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next frame, as ``receive_json`` gives it, but waited for at most :data:`WAIT` seconds (TestClient's own
    receive waits for ever: an action a protocol-1 socket ignores would hang the suite)."""

    async def within() -> Any:
        with anyio.fail_after(WAIT):
            return await ws._send_rx.receive()

    message = ws.portal.call(within)
    assert message["type"] == "websocket.send", message
    data: dict[str, Any] = json.loads(message["text"])
    return data


def reply_and_patch(ws: WebSocketTestSession) -> tuple[dict[str, Any], list[Any]]:
    """The reply to the action just sent and the patch of its change, in whichever order they come."""
    reply: dict[str, Any] | None = None
    patch: list[Any] | None = None
    for _ in range(4):  # two frames are due; a bound, not a wait
        frame = next_frame(ws)
        if "reply" in frame:
            reply = frame
        else:
            patch = frame["patch"]
        if reply is not None and patch is not None:
            return reply, patch
    raise AssertionError("the reply and the patch did not both come")


@pytest.mark.parametrize("asked", ["in the first frame", "in the address"])
def test_a_seat_acts_over_its_socket_and_is_sent_the_change_as_a_patch(client: TestClient, asked: str) -> None:
    created = create(client, seed=3)
    table, ilse = created["table"], created["seats"]["ilse"]["token"]
    in_address = asked == "in the address"
    with client.websocket_connect(f"/api/tables/{table}/ws{'?protocol=2' if in_address else ''}") as ws:
        ws.send_json({"token": ilse} if in_address else {"token": ilse, "protocol": 2})
        message: Any = ws.receive_json()
        assert message["version"] == 0 and message["seat"] == "ilse" and "patch" not in message
        actor, specs = next(iter(message["legal"].items()))
        ws.send_json({"act": {"actor": actor, "action": specs[0]["action"], "version": 0, "id": "ws-first"}, "ref": 1})
        reply, patch = reply_and_patch(ws)
        assert reply["reply"] == 1 and reply["answer"]["version"] == 1 and reply["answer"]["seq"] == 0
        message = apply(message, patch)
        now = state(client, table, ilse)
        assert message["version"] == 1 and [e["seq"] for e in message["log"]] == [0]
        assert message["view"] == now["view"] and message["legal"] == now["legal"]
        # A retry with the same submission id is answered as the first time, and changes nothing.
        ws.send_json(
            {"act": {"actor": actor, "action": specs[0]["action"], "version": 0, "id": "ws-first"}, "ref": "again"}
        )
        again = next_frame(ws)
        assert again == {"reply": "again", "answer": reply["answer"]}
    assert state(client, table, ilse)["version"] == 1


def test_a_refused_action_is_answered_with_a_code_and_a_sentence_and_changes_nothing(client: TestClient) -> None:
    created = create(client, seed=3)
    table, ilse, tomas = created["table"], created["seats"]["ilse"]["token"], created["seats"]["tomas"]["token"]
    before = state(client, table, ilse)
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tomas}&protocol=2") as ws:
        assert ws.receive_json()["seat"] == "tomas"
        ws.send_json({"act": {"actor": "ilse", "action": {"type": "pass"}, "version": 0}, "ref": 7})
        refused = ws.receive_json()
        assert refused["reply"] == 7 and refused["refused"]["code"] == "not_your_seat"
        assert refused["refused"]["message"] == "Your seat does not play 'ilse'."
        ws.send_json({"act": {"action": {"type": "pass"}, "version": 0}, "ref": 8})
        assert ws.receive_json() == {
            "reply": 8,
            "refused": {"code": "bad_request", "message": "The field 'actor' is required."},
        }
        ws.send_text("hello")
        assert ws.receive_json()["refused"]["code"] == "bad_frame"
        for ref in ("r" * 65, True, 2**60):  # past 64 characters, not a number, past what JavaScript reads exactly
            ws.send_json({"act": [], "ref": ref})
            assert ws.receive_json() == {
                "reply": None,
                "refused": {
                    "code": "bad_frame",
                    "message": 'A frame is {"act": {"actor", "action", "version", "id"}, "ref": R}.',
                },
            }
    after = state(client, table, ilse)
    assert after["version"] == 0 and after["view"] == before["view"]


def test_a_protocol_the_server_does_not_speak_is_refused_at_once(client: TestClient) -> None:
    created = create(client, seed=3)
    table, ilse = created["table"], created["seats"]["ilse"]["token"]
    with client.websocket_connect(f"/api/tables/{table}/ws?token={ilse}&protocol=3") as ws:
        assert ws.receive_json() == {
            "code": "bad_protocol",
            "message": "This server speaks protocol 1 or 2 (?protocol=2).",
        }
