"""The systemd notify protocol (sd_notify), without a dependency: a datagram to $NOTIFY_SOCKET.

With ``Type=notify`` the service is "started" only once the daemon sends READY=1; with
``WatchdogSec`` systemd restarts it unless WATCHDOG=1 arrives in time. The watchdog is petted
from the event loop itself, so a blocked loop stops the petting and gets the service restarted.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("sd_notify(%s) failed: %s", message, exc)
        return False
    return True


def watchdog_interval_s() -> float | None:
    """Half the watchdog timeout systemd gave this process, or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1e6 / 2
    except ValueError:
        return None


async def pet_watchdog() -> None:
    interval = watchdog_interval_s()
    if interval is None:
        return
    while True:
        notify("WATCHDOG=1")
        await asyncio.sleep(interval)
