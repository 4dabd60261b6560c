"""The addresses people open: the display for the TV and phones, the console with its token."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: only selects the outgoing interface
            return str(sock.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def referee_urls(host: str, port: int, token: str) -> dict[str, str]:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    base = f"http://{shown}:{port}"
    return {"display": f"{base}/", "console": f"{base}/console?token={token}", "base": base}
