"""The table server on the local network (``affray serve --lan``, ``make run``; docs/table.md, "Phones at the table").

Phones at the table cannot open a 127.0.0.1 link: the server listens on the machine's LAN address as well, and every
link it prints (and the GM page's QR codes) carries that address. The address is chosen from this machine's
interfaces: the one the default route leaves by (the address a phone on the same Wi-Fi reaches), else the first
private one; ``--lan ADDR`` chooses another. The choice (:func:`choose_lan`) is a pure function of the interface list,
so tests give it a made-up list and never bind a real LAN address.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

AUTO = "auto"  # ``--lan`` without an address: choose one
# (``make run LAN=off`` serves loopback only: the Makefile decides that and never calls this module.)
# A documentation address (RFC 5737, never routed): connecting a UDP socket to it sends nothing but makes the
# system pick the interface and source address of its default route.
ROUTE_PROBE = ("192.0.2.255", 9)
_IP_LINE = re.compile(r"^\d+:\s+(?P<name>\S+)\s+inet6?\s+(?P<address>[0-9A-Fa-f.:]+)/\d+")


class LanError(ValueError):
    """No address to serve the LAN on, or an ``--lan`` value that is not one (a sentence for the user)."""


@dataclass(frozen=True)
class Interface:
    """One address of one network interface of this machine (``name`` as the system calls it: eth0, wlan0...)."""

    name: str
    address: str


def parse_ip_addr(text: str) -> list[Interface]:
    """The addresses listed by Linux's ``ip -o addr show`` (one line per address: ``2: wlan0    inet 192.168.1.20/24
    brd ...``), in its order."""
    found = []
    for line in text.splitlines():
        match = _IP_LINE.match(line.strip())
        if match:
            found.append(Interface(match["name"], match["address"]))
    return found


def interfaces() -> list[Interface]:
    """This machine's addresses: from ``ip -o addr show`` where the command exists (Linux), else the addresses this
    machine's own name resolves to (an ``Interface`` named after the host)."""
    ip = shutil.which("ip")
    if ip and sys.platform.startswith("linux"):
        try:
            done = subprocess.run([ip, "-o", "addr", "show"], capture_output=True, text=True, timeout=5, check=False)
            if done.returncode == 0:
                return parse_ip_addr(done.stdout)
        except (OSError, subprocess.SubprocessError):
            pass  # the fallback below
    host = socket.gethostname()
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return []
    return [Interface(host, str(info[4][0]).split("%")[0]) for info in infos]


def default_route_address() -> str | None:
    """The source address of this machine's default route (IPv4), or None when it has none (no network)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)  # UDP: no packet is sent
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address == "0.0.0.0" else address


def _reachable(address: str) -> bool:
    """An address another machine of the LAN may reach: not loopback, link-local, multicast or unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified)


def candidates(found: Sequence[Interface]) -> list[Interface]:
    """The addresses a phone on the LAN may reach, private ones (192.168.x, 10.x, fd00::...) first, IPv4 before
    IPv6, each once."""
    seen: set[str] = set()
    usable = []
    for interface in found:
        if _reachable(interface.address) and interface.address not in seen:
            seen.add(interface.address)
            usable.append(interface)
    return sorted(
        usable,
        key=lambda i: (not ipaddress.ip_address(i.address).is_private, ipaddress.ip_address(i.address).version),
    )


def choose_lan(found: Sequence[Interface], route: str | None, wanted: str = AUTO) -> str:
    """The LAN address to listen on: ``wanted`` when it is an address (any address, loopback included, so a test can
    serve "the LAN" on 127.0.0.1), else the default route's (``route``) when it is one of ``found``'s reachable
    addresses, else the first of :func:`candidates`. Raises :class:`LanError` with a sentence when there is none."""
    if wanted != AUTO:
        try:
            return str(ipaddress.ip_address(wanted.strip("[]")))
        except ValueError:
            raise LanError(
                f"--lan takes an address of this machine (such as 192.168.1.20), not {wanted!r}; {listing(found)}"
            ) from None
    usable = candidates(found)
    if route is not None and any(i.address == route for i in usable):
        return route
    if usable:
        return usable[0].address
    raise LanError(
        "this machine has no address another machine of the network can reach (is it connected to the Wi-Fi?); "
        "connect it, or give an address with --lan ADDR"
    )


def listing(found: Sequence[Interface], chosen: str | None = None) -> str:
    """The reachable addresses as a sentence, the chosen one marked: "this machine's LAN addresses: wlan0
    192.168.1.20 (chosen), eth0 10.0.0.5"."""
    usable = candidates(found)
    if not usable:
        return "this machine has no LAN address"
    parts = [f"{i.name} {i.address}{' (chosen)' if i.address == chosen else ''}" for i in usable]
    return "this machine's LAN addresses: " + ", ".join(parts)


def base_url(address: str, port: int) -> str:
    """``http://ADDRESS:PORT``, an IPv6 address in brackets."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"


@dataclass(frozen=True)
class LanServing:
    """How ``affray serve --lan`` serves: ``lan`` the address it listens on besides ``--host`` (None: the same one),
    ``public_url`` its address for the people at the table, ``create_key`` the key that opens tables (``made_key``:
    this run made it, since a server others reach needs one), ``found`` this machine's addresses (to list them)."""

    lan: str | None
    public_url: str
    create_key: str | None
    made_key: bool
    found: tuple[Interface, ...]


def lan_serving(
    host: str,
    port: int,
    wanted: str,
    create_key: str | None,
    open_creation: bool,
    found: Sequence[Interface],
    route: str | None,
) -> LanServing:
    """Choose the LAN address (:func:`choose_lan`) and the creation key: the one given, else (unless
    ``open_creation``) a new one when the address is off loopback. Raises :class:`LanError`."""
    address = choose_lan(found, route, wanted)
    off_loopback = not ipaddress.ip_address(address).is_loopback
    made = create_key is None and not open_creation and off_loopback
    key = secrets.token_urlsafe(24) if made else create_key
    everywhere = host in ("0.0.0.0", "::")  # the --host given listens on the LAN already
    return LanServing(
        lan=None if everywhere or address == host else address,
        public_url=base_url(address, port),
        create_key=key,
        made_key=made,
        found=tuple(found),
    )


def lan_banner(serving: LanServing, port: int) -> list[str]:
    """What ``affray serve --lan`` prints after its first line: the addresses, the creation key when it made one,
    the lobby's link for the phones (with the key in its fragment when it made one), the firewall's port."""
    chosen = serving.public_url.removeprefix("http://").rsplit(":", 1)[0].strip("[]")
    lines = [f"{listing(serving.found, chosen)}; choose another with --lan ADDR"]
    lobby = f"{serving.public_url}/"
    if serving.made_key and serving.create_key is not None:
        lines.append(f"Creation key, made for this run (whoever holds it may open tables here): {serving.create_key}")
        lobby += f"#key={quote(serving.create_key, safe='')}"
    lines.append(f"The lobby, for this machine and every phone on its network: {lobby}")
    lines.append(
        f"A phone that cannot open it: same Wi-Fi as this machine? then let TCP port {port} in through this "
        'machine\'s firewall (docs/table.md, "Phones at the table")'
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m affray.web.lan [ADDR|auto] PORT``: print the address ``affray serve --lan`` would choose and the
    server's address on it (``ADDR http://ADDR:PORT``, for ``make run``); exit 1 with the reason when there is none."""
    args = list(sys.argv[1:] if argv is None else argv)
    wanted = args[0] if args and args[0] else AUTO
    port = int(args[1]) if len(args) > 1 else 8000
    found = interfaces()
    try:
        chosen = choose_lan(found, default_route_address(), wanted)
    except LanError as exc:
        print(f"affray: {exc}", file=sys.stderr)
        return 1
    print(chosen, base_url(chosen, port))  # affray serve lists the other addresses
    return 0


if __name__ == "__main__":
    sys.exit(main())
