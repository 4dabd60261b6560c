"""The console token and the checks every console request passes.

The daemon makes a random token on first start and keeps it in the data folder (mode 0600);
console requests carry it in the ``X-Referee-Token`` header (the console page stores it after
opening the URL with ``?token=…``). A request without it is refused with 401, one from a foreign
origin with 403, and both are logged.
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request

log = logging.getLogger(__name__)
TOKEN_FILE = "console-token"


def load_or_create_token(data_dir: Path) -> str:
    path = data_dir / TOKEN_FILE
    try:
        token = path.read_text(encoding="ascii").strip()
        if len(token) >= 16:
            return token
    except (OSError, UnicodeDecodeError):
        pass
    token = secrets.token_urlsafe(18)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
    except OSError as exc:
        log.error("cannot store the console token in %s (%s); it lasts until restart", path, exc)
    return token


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def check_origin(request: Request) -> None:
    """Refuse cross-site requests: a page elsewhere must not drive the console through a browser."""
    origin = request.headers.get("origin")
    if origin and origin != "null":
        host = urlsplit(origin).netloc
        if host != request.headers.get("host"):
            log.warning("refused %s %s from foreign origin %s", request.method, request.url.path, origin)
            raise Refused(
                403, f"requests from {origin} are not allowed; use the console page of this referee"
            )
    if request.headers.get("sec-fetch-site") == "cross-site":
        log.warning("refused cross-site %s %s", request.method, request.url.path)
        raise Refused(403, "cross-site requests are not allowed; use the console page of this referee")


def check_token(request: Request, token: str) -> None:
    check_origin(request)
    given = request.headers.get("x-referee-token", "")
    if not given:
        auth = request.headers.get("authorization", "")
        given = auth.removeprefix("Bearer ").strip() if auth.startswith("Bearer ") else ""
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        client = request.client.host if request.client else "?"
        log.warning("refused console request %s %s from %s: %s", request.method, request.url.path,
                    client, "no token" if not given else "wrong token")  # fmt: skip
        raise Refused(
            401, "this is a console action: open the console link shown by the referee (it carries the token)"
        )
