"""HTTP routes of game night: seating by pressing, nights, standings, exports, help, sound.

Public and read-only: the standings page (/night), the help page (/help), their data, a close
call's timeline, a night's exports. Console (token): seating, opening and closing nights, a
night's settings, the sound test.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from referee.games import engines
from referee.howto import all_howtos, howto, latest_verdicts
from referee.journal import JournalError
from referee.night_data import LoadedNight, load_night
from referee.night_plots import reaction_svg, tally_svg
from referee.night_print import render_page, save_page
from referee.night_record import night_lines
from referee.nights import NightError
from referee.pictures import timeline_svg
from referee.session import InputRefused
from referee.spoken import sentence

if TYPE_CHECKING:
    from referee.daemon import Referee

STATIC = Path(__file__).parent / "static"
Handler = Callable[[Request], Awaitable[Response]]


def night_view(referee: Referee) -> dict[str, Any]:
    """The open night in the live view: its name, settings, and the help for the current game."""
    night = referee.nights.current()
    game = referee.session.games.get(referee.session.current_id or -1)
    why: list[dict[str, Any]] = []
    guide = None
    if game is not None:
        why = latest_verdicts(game.fold.summary(latest=10)["verdicts"])
        guide = howto(game.fold.header.game)
    return {
        "id": night.id if night else None,
        "name": night.name if night else None,
        "open": bool(night and night.open),
        "settings": referee.nights.settings(night.id if night else None).to_json(),
        "sound": referee.sound.name,
        "why": why,
        "howto": guide,
    }


def night_routes(
    referee: Referee,
    guarded: Callable[..., Handler],
    read_json: Callable[[Request], Awaitable[dict[str, Any]]],
) -> list[Route]:
    def refuse_journal(exc: JournalError) -> InputRefused:
        referee.session.journal_error = str(exc)
        referee.session.changed()
        return InputRefused(f"the journal cannot be written: {exc}", status=503)

    def night_id(request: Request, open_if_none: bool = False) -> int:
        raw = request.path_params["night_id"]
        if raw == "current":
            night = referee.nights.current()
            if night is None and open_if_none:  # settings chosen before the first game
                try:
                    night = referee.nights.open()
                except JournalError as exc:
                    raise refuse_journal(exc) from None
            if night is None:
                raise InputRefused("no night yet: start a game and it opens one", status=404)
            return night.id
        if not raw.isdigit():
            raise InputRefused(f"there is no night {raw}", status=404)
        try:
            return referee.nights.get(int(raw)).id
        except NightError as exc:
            raise InputRefused(str(exc), status=404) from None

    def loaded(request: Request) -> LoadedNight:
        folds = {gid: g.fold for gid, g in referee.session.games.items()}
        return load_night(referee.session.journal, night_id(request), folds)

    # -- pages -----------------------------------------------------------------------------------

    async def night_page(request: Request) -> Response:
        return FileResponse(STATIC / "night.html")

    async def help_page(request: Request) -> Response:
        return FileResponse(STATIC / "help.html")

    # -- read-only data --------------------------------------------------------------------------

    async def nights(request: Request) -> Response:
        current = referee.nights.current()
        return JSONResponse({
            "nights": [n.to_json() for n in referee.nights.all()],
            "current": current.id if current else None,
        })  # fmt: skip

    async def standings(request: Request) -> Response:
        night = loaded(request)
        s = night.standings()
        body = s.to_json()
        body["night"] = night.night.to_json()
        body["settings"] = referee.nights.settings(night.night.id).to_json()
        body["reaction_svg"] = reaction_svg({p.name: p.reactions_ns for p in s.players})
        body["tally_svg"] = tally_svg(
            [(p.name, p.close_wins, p.close_losses, p.ties, p.false_starts) for p in s.players]
        )
        return JSONResponse(body)

    async def close_call(request: Request) -> Response:
        night = loaded(request)
        gid, index = request.path_params["game_id"], request.path_params["event"]
        for game, _, _ in night.games:
            if str(game.id) != gid:
                continue
            for i, contest in game.contests:
                if str(i) == index:
                    svg = timeline_svg(
                        contest.get("reaction_ns") or {},
                        contest.get("ranking") or [],
                        contest.get("margins_ns") or [],
                        int(contest.get("tie_window_ns") or 0),
                        contest.get("false_starts") or [],
                    )
                    return Response(svg, media_type="image/svg+xml")
        raise InputRefused(f"game {gid} of this night has no contest at event {index}", status=404)

    async def export(request: Request) -> Response:
        night = loaded(request)
        kind = request.path_params["kind"]
        stem = f"night-{night.night.id}"
        if kind == "jsonl":
            pairs = [({**h, "night": night.night.name, "game_id": g.id}, e) for g, h, e in night.games]
            body = "".join(line + "\n" for line in night_lines(pairs))
            return Response(body, media_type="application/x-ndjson",
                            headers={"Content-Disposition": f'attachment; filename="{stem}.jsonl"'})  # fmt: skip
        if kind not in ("png", "pdf"):
            raise InputRefused("a night exports as .jsonl, .png or .pdf", status=404)
        page = await asyncio.to_thread(
            render_page, night.night.name, night.night.started_at, night.standings()
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = save_page(page, Path(tmp) / f"{stem}.{kind}")
            data = path.read_bytes()
        media = "image/png" if kind == "png" else "application/pdf"
        return Response(data, media_type=media,
                        headers={"Content-Disposition": f'inline; filename="{stem}.{kind}"'})  # fmt: skip

    async def help_data(request: Request) -> Response:
        known = set(engines())
        return JSONResponse([h for h in all_howtos() if h["game"] in known])

    # -- console: nights -------------------------------------------------------------------------

    async def open_night(request: Request) -> Response:
        body = await read_json(request)
        try:
            night = referee.nights.open(str(body.get("name") or ""))
        except JournalError as exc:
            raise refuse_journal(exc) from None
        referee.session.changed()
        return JSONResponse(night.to_json(), status_code=201)

    async def close_night(request: Request) -> Response:
        try:
            referee.nights.close()
        except NightError as exc:
            raise InputRefused(str(exc), status=409) from None
        except JournalError as exc:
            raise refuse_journal(exc) from None
        referee.session.changed()
        return JSONResponse({"ok": True})

    async def night_settings(request: Request) -> Response:
        body = await read_json(request)
        try:
            settings = referee.nights.set_settings(night_id(request, open_if_none=True), body)
        except NightError as exc:
            raise InputRefused(str(exc)) from None
        except JournalError as exc:
            raise refuse_journal(exc) from None
        referee.session.changed()
        return JSONResponse(settings.to_json())

    async def sound_test(request: Request) -> Response:
        """Play the call tone and, if speech is on, a sample verdict: "do we hear the referee?"."""
        settings = referee.nights.settings()
        referee.sound.tone("call")
        said = None
        if settings.speech != "off":
            said = sentence(
                {"ranking": [["Anne"], ["Marc"]], "margins_ns": [37_000_000], "false_starts": []},
                settings.speech,
            )
            referee.sound.say(said, settings.speech)
        return JSONResponse({"output": referee.sound.name, "enabled": referee.sound.enabled, "said": said})

    # -- console: seating ------------------------------------------------------------------------

    async def seating_start(request: Request) -> Response:
        return JSONResponse(referee.seating.start(await read_json(request)), status_code=201)

    async def seating_step(request: Request) -> Response:
        return JSONResponse(referee.seating.command(await read_json(request)))

    async def seating_finish(request: Request) -> Response:
        game = referee.seating.finish()
        return JSONResponse({"id": game.id, "seats": game.seats, "players": list(game.fold.header.players)},
                            status_code=201)  # fmt: skip

    async def seating_cancel(request: Request) -> Response:
        referee.seating.cancel()
        return JSONResponse({"ok": True})

    public = {"console": False}
    return [
        Route("/night", night_page),
        Route("/help", help_page),
        Route("/api/nights", guarded(nights, **public), methods=["GET"]),
        Route("/api/nights", guarded(open_night), methods=["POST"]),
        Route("/api/nights/close", guarded(close_night), methods=["POST"]),
        Route("/api/nights/{night_id}/standings", guarded(standings, **public), methods=["GET"]),
        Route("/api/nights/{night_id}/settings", guarded(night_settings), methods=["POST"]),
        Route("/api/nights/{night_id}/close-calls/{game_id}/{event}.svg", guarded(close_call, **public)),
        Route("/api/nights/{night_id}/export.{kind}", guarded(export, **public)),
        Route("/api/help", guarded(help_data, **public)),
        Route("/api/sound/test", guarded(sound_test), methods=["POST"]),
        Route("/api/seating", guarded(seating_start), methods=["POST"]),
        Route("/api/seating/step", guarded(seating_step), methods=["POST"]),
        Route("/api/seating/finish", guarded(seating_finish), methods=["POST"]),
        Route("/api/seating/cancel", guarded(seating_cancel), methods=["POST"]),
    ]
