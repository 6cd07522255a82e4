"""Phones join over the LAN (docs/table.md, "Phones at the table"): the address ``affray serve --lan`` chooses from
this machine's interfaces (made-up lists here: a test never binds a real LAN address), the creation key it makes off
loopback, the links it prints, and the GM page's seat links and QR codes carrying the server's public address.
Servers in these tests listen on 127.0.0.1 only: ``--lan 127.0.0.1`` stands for the LAN address."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import expect

from affray.cli.main import bare_lan
from affray.cli.table import gm_link
from affray.web.lan import (
    Interface,
    LanError,
    base_url,
    candidates,
    choose_lan,
    lan_banner,
    lan_serving,
    listing,
    parse_ip_addr,
)
from tests.table.test_kill9 import free_port
from tests.waiting import wait_for
from tests.web.browser import chromium

IP_ADDR = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\       valid_lft forever
3: wlan0    inet 192.168.1.20/24 brd 192.168.1.255 scope global dynamic wlan0\\       valid_lft 3000sec
1: lo    inet6 ::1/128 scope host \\       valid_lft forever preferred_lft forever
3: wlan0    inet6 fe80::1c2d:3eff:fe4f:5a6b/64 scope link \\       valid_lft forever preferred_lft forever
3: wlan0    inet6 2a01:e0a::42/64 scope global dynamic \\       valid_lft 86000sec
"""
ROOM = parse_ip_addr(IP_ADDR)


def test_ip_addr_lines_give_each_interface_s_addresses_in_order() -> None:
    found = ROOM
    assert found == [
        Interface("lo", "127.0.0.1"),
        Interface("docker0", "172.17.0.1"),
        Interface("wlan0", "192.168.1.20"),
        Interface("lo", "::1"),
        Interface("wlan0", "fe80::1c2d:3eff:fe4f:5a6b"),
        Interface("wlan0", "2a01:e0a::42"),
    ]


def test_candidates_leave_out_loopback_and_link_local_and_put_private_ipv4_first() -> None:
    assert [i.address for i in candidates(ROOM)] == ["172.17.0.1", "192.168.1.20", "2a01:e0a::42"]


def test_the_default_route_s_address_is_chosen_over_the_first_candidate() -> None:
    assert choose_lan(ROOM, route="192.168.1.20") == "192.168.1.20"


def test_without_a_default_route_the_first_private_address_is_chosen() -> None:
    assert choose_lan(ROOM, route=None) == "172.17.0.1"
    assert choose_lan(ROOM, route="10.9.9.9") == "172.17.0.1"  # a route through no listed interface


def test_lan_addr_overrides_the_choice_and_is_checked() -> None:
    assert choose_lan(ROOM, route="192.168.1.20", wanted="172.17.0.1") == "172.17.0.1"
    assert choose_lan(ROOM, route=None, wanted="[2a01:e0a::42]") == "2a01:e0a::42"
    with pytest.raises(LanError, match=r"--lan takes an address of this machine .* not 'wlan0'.*wlan0 192\.168\.1\.20"):
        choose_lan(ROOM, route=None, wanted="wlan0")


def test_a_machine_off_every_network_is_told_so_in_a_sentence() -> None:
    with pytest.raises(LanError, match=r"no address another machine of the network can reach.*--lan ADDR"):
        choose_lan([Interface("lo", "127.0.0.1"), Interface("wlan0", "fe80::1")], route=None)


def test_the_listing_marks_the_chosen_address() -> None:
    assert listing(ROOM, "192.168.1.20") == (
        "this machine's LAN addresses: docker0 172.17.0.1, wlan0 192.168.1.20 (chosen), wlan0 2a01:e0a::42"
    )
    assert base_url("2a01:e0a::42", 8000) == "http://[2a01:e0a::42]:8000"


def test_off_loopback_a_creation_key_is_made_and_every_printed_link_carries_the_lan_address() -> None:
    serving = lan_serving("127.0.0.1", 8000, "192.0.2.77", None, False, ROOM, route="192.168.1.20")
    assert serving.lan == "192.0.2.77"
    assert serving.public_url == "http://192.0.2.77:8000"
    assert serving.made_key and serving.create_key is not None and len(serving.create_key) >= 16
    lines = lan_banner(serving, 8000)
    assert lines[0] == (
        "this machine's LAN addresses: docker0 172.17.0.1, wlan0 192.168.1.20, wlan0 2a01:e0a::42; "
        "choose another with --lan ADDR"
    )
    assert lines[1].endswith(f": {serving.create_key}")
    assert lines[2] == (
        f"The lobby, for this machine and every phone on its network: http://192.0.2.77:8000/#key={serving.create_key}"
    )
    assert "TCP port 8000" in lines[3]


def test_a_given_key_is_kept_and_never_printed() -> None:
    key = "k" * 24
    serving = lan_serving("127.0.0.1", 8000, "auto", key, False, ROOM, route="192.168.1.20")
    assert (serving.lan, serving.create_key, serving.made_key) == ("192.168.1.20", key, False)
    assert not any(key in line for line in lan_banner(serving, 8000))
    everywhere = lan_serving("0.0.0.0", 8000, "auto", key, False, ROOM, route="192.168.1.20")
    assert everywhere.lan is None and everywhere.public_url == "http://192.168.1.20:8000"  # bound once, on all


def test_open_creation_and_loopback_make_no_key() -> None:
    assert lan_serving("127.0.0.1", 8000, "192.0.2.77", None, True, ROOM, None).create_key is None
    assert lan_serving("127.0.0.1", 8000, "127.0.0.1", None, False, ROOM, None).create_key is None


def test_a_bare_lan_option_means_choose_the_address() -> None:
    assert bare_lan(["serve", "--lan"]) == ["serve", "--lan=auto"]
    assert bare_lan(["serve", "--lan", "--port", "9"]) == ["serve", "--lan=auto", "--port", "9"]
    assert bare_lan(["serve", "--lan", "10.0.0.5"]) == ["serve", "--lan", "10.0.0.5"]


@pytest.mark.server
def test_serve_lan_prints_its_links_and_the_gm_page_s_qr_carries_the_public_address(tmp_path: Path) -> None:
    """``affray serve --lan 127.0.0.1`` answers, prints the lobby's link with that address, and its pages carry it:
    the GM page opened by another name (localhost) shows seat links and a QR code with 127.0.0.1, and the QR
    library is fetched on the GM page only, when a code is asked for."""
    port = free_port()
    out = tmp_path / "serve.out"
    command = [sys.executable, "-m", "affray", "serve", "--lan", "127.0.0.1", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'affray.db'}", "--policy-pause", "0"]
    env = {k: v for k, v in os.environ.items() if k != "AFFRAY_CREATE_KEY"}
    with out.open("wb") as stdout:
        proc = subprocess.Popen(command, stdout=stdout, stderr=subprocess.STDOUT, env=env)
    public = f"http://127.0.0.1:{port}"
    try:
        wait_for(
            lambda: httpx.get(f"{public}/", timeout=1).status_code == 200,
            15,
            "the server to answer",
            ignoring=(httpx.HTTPError,),
        )
        printed = out.read_text()
        assert f"affray table server on {public} (database" in printed
        assert f"The lobby, for this machine and every phone on its network: {public}/\n" in printed
        page = httpx.get(f"http://localhost:{port}/", timeout=5).text
        assert f'<meta name="affray-public-url" content="{public}">' in page
        answer = httpx.post(
            f"{public}/api/tables",
            timeout=30,
            json={"scenario": "witchhammer/mill_ambush", "controllers": {"ilse": "human", "tomas": "human"}},
        )
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        with chromium() as browser:
            fetched: list[str] = []
            player = browser.new_context().new_page()
            player.on("request", lambda r: fetched.append(f"player {r.url}"))
            player.goto(f"http://localhost:{port}{created['seats']['ilse']['link']}")
            expect(player.locator("#status")).to_contain_text("Ilse", timeout=15_000)
            gm = browser.new_context().new_page()
            gm.on("request", lambda r: fetched.append(f"gm {r.url}"))
            gm.goto(f"http://localhost:{port}{gm_link(created)}")
            link = gm.locator('[data-link="ilse"]')
            expect(link).to_have_value(f"{public}{created['seats']['ilse']['link']}", timeout=15_000)
            assert not [url for url in fetched if "qrcode" in url]
            gm.locator('[data-seat-row="ilse"] [data-gm="qr"]').click()
            expect(gm.locator('[data-qr="ilse"] svg.qr')).to_be_visible()
            assert [url for url in fetched if "qrcode" in url] == [
                f"gm http://localhost:{port}/static/vendor/qrcode.js"
            ]
    finally:
        proc.terminate()
        proc.wait(timeout=15)
