"""The referee daemon: input sources → journal → engines → displays, in one asyncio process.

`Referee` holds the parts; `serve` runs them with the web server, tells systemd when it is
ready and pets the watchdog from the event loop (so a stuck loop gets the service restarted).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.sound import SoundOutput
from hardware.source import ButtonSource
from hardware.virtual_keys import VirtualKeys
from referee import systemd
from referee.announcer import Announcer
from referee.contests import ContestRunner, ContestSettings
from referee.games import engines
from referee.journal import Journal, JournalError, ReadOnlyJournal, UnavailableJournal
from referee.loop_watch import LoopWatch
from referee.nights import Nights
from referee.pictures import timeline_svg
from referee.seating_run import SeatingRunner
from referee.session import Session
from referee.web.live import Hub
from referee.web.night_routes import night_view
from referee.web.security import load_or_create_token

if TYPE_CHECKING:
    from referee.board_camera import BoardCamera
    from referee.dice_camera import DiceCamera

log = logging.getLogger(__name__)
JOURNAL_FILE = "referee.sqlite3"
INPUT_POLL_S = 0.25  # how soon the display follows a change of the input path by itself


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/referee`` (``~/.local/share/referee``); the Pi's service passes /var/lib/referee."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "referee"


@dataclass(frozen=True)
class ServeOptions:
    data_dir: Path
    host: str = "0.0.0.0"
    port: int = 8080
    buttons: str = "auto"  # auto | mock | gpio | serial[:PORT]
    contest: ContestSettings = field(default_factory=ContestSettings)
    max_body_bytes: int = 64 * 1024
    sound: str = "auto"  # the audio output: auto | off | aplay | paplay | dir:PATH (hardware.sound)
    camera: str = "auto"  # the dice camera: auto | none | picamera | v4l2:N | a folder or video file
    board_camera: str = "none"  # the Djambi board camera: none | auto | picamera | v4l2:N | a folder
    board_camera_hold_s: float = 3.0  # how long each image of a folder stays in view


class Referee:
    """Everything the web layer and the hardware talk to."""

    def __init__(
        self,
        data_dir: Path,
        source: ButtonSource,
        settings: ContestSettings | None = None,
        sound: str = "off",
    ) -> None:
        self.data_dir = data_dir
        self.started = time.monotonic()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            journal: Journal = Journal(data_dir / JOURNAL_FILE)
        except (JournalError, OSError) as exc:
            journal = open_for_reading(data_dir / JOURNAL_FILE, str(exc))
        self.session = Session.open(journal)
        # Every engine now, not on the console's first request: importing them takes a few
        # tenths of a second, which would stall the event loop (and a contest's timers) mid-game.
        engines()
        if isinstance(journal, ReadOnlyJournal | UnavailableJournal):
            self.session.journal_error = journal.reason
        self.source = source
        self.contests = ContestRunner(self.session, source, settings)
        # Game night: seats claimed by pressing, nights and their settings, tones and speech.
        self.nights = Nights(journal)
        self.seating = SeatingRunner(self.session, self.contests, source)
        self.sound = SoundOutput(sound)
        self.contests.listeners.append(Announcer(self.sound, self.contests, self.nights.settings))
        self.hub = Hub(self.view)
        self.session.listeners.append(self.hub.publish)
        self.token = load_or_create_token(data_dir)
        self.urls: dict[str, str] = {}
        self.camera: DiceCamera | None = None
        self.board_camera: BoardCamera | None = None
        # The display's buttons on mocked GPIO; spaced so that a lagging request loses no press.
        self.virtual_keys: VirtualKeys | None = None
        if self.virtual_buttons:  # only GPIO on mock pins drives virtual buttons
            self.virtual_keys = VirtualKeys(source.drive, source.pinmap.debounce)  # type: ignore[attr-defined]

    @property
    def virtual_buttons(self) -> bool:
        return callable(getattr(self.source, "drive", None)) and self.source.clock == "mock"

    def view(self) -> dict[str, Any]:
        """Everything a display or console shows, as JSON-able values."""
        session = self.session
        health = self.source.health()
        game_view: dict[str, Any] | None = None
        if session.current_id is not None:
            game = session.games[session.current_id]
            engine, state = game.fold.engine, game.fold.state
            request = engine.contest(state)
            game_view = {
                "id": game.id,
                "game": engine.game,
                "title": engine.title,
                "variant": game.fold.header.variant,
                "players": list(game.fold.header.players),
                "seats": game.seats,
                # The newest verdicts only: updates stay small however long the night (the record
                # and `referee replay` keep them all).
                "summary": game.fold.summary(latest=LIVE_VERDICTS),
                "svg": engine.render_svg(state),
                "actions": [a.to_json() for a in engine.actions(state)],
                "contest": request.to_json() if request else None,
                "can_undo": bool(game.fold.applied),
                "applied": len(game.fold.applied),  # game events standing (evidence excluded)
                "broken": game.broken,
            }
        contest = self.contests.view()
        last = contest.get("last") or {}
        verdict = last.get("verdict")
        if verdict:
            last["timeline_svg"] = timeline_svg(
                verdict["reaction_ns"],
                verdict["ranking"],
                verdict["margins_ns"],
                verdict["tie_window_ns"],
                verdict["false_starts"],
            )
        return {
            "journal": {"ok": session.journal_error is None, "error": session.journal_error},
            "input": {
                "name": health.name,
                "ok": health.ok,
                "detail": health.detail,
                "fit_for_close_calls": health.fit_for_close_calls,
                "clock": self.source.clock,
                "seats": list(self.source.seats),
                "virtual": self.virtual_buttons,
                # Buttons down now (a release counts once quiet): a hand still resting on one
                # when the next contest is armed makes that seat "held at arm".
                "held": sorted(self.source.held()),
            },
            "games": [
                {
                    "id": g.id,
                    "game": g.fold.header.game,
                    "title": g.fold.engine.title,
                    "players": list(g.fold.header.players),
                    "finished": bool(g.fold.engine.summary(g.fold.state).get("finished")),
                }
                for g in session.games.values()
            ],
            "game": game_view,
            "camera": None if self.camera is None else self.camera.view(),
            "board_camera": None if self.board_camera is None else self.board_camera.view(),
            "contest": contest,
            "urls": {k: v for k, v in self.urls.items() if k != "console"},
            **self.seating.view(),
            "night": night_view(self),
        }

    def input_state(self) -> tuple[object, ...]:
        """What the display shows of the input path, as a value that changes when the display must.

        The counters in a healthy link's detail (resends, clock error) are left out: they would
        redraw every display twice a second for nothing. So are the buttons held: every edge
        already publishes (`ContestRunner.on_edge`).
        """
        health = self.source.health()
        detail = None if health.ok else health.detail
        return health.name, health.ok, detail, health.fit_for_close_calls, self.source.clock

    async def follow_input(self, period_s: float = INPUT_POLL_S) -> None:
        """Publish a new view when the input path changes by itself (on the event loop's thread).

        Contests, games and button edges publish their own changes; the link coming up, or its
        clock being mapped after a Pico's reboot, do not. Without this the
        display (and /api/view, which serves the latest published view) would keep saying
        "waiting for the button timer" after the link had come back.
        """
        shown: tuple[object, ...] | None = None  # a view may have been built before this began
        failing = False  # logged once, not four times a second
        while True:
            await asyncio.sleep(period_s)
            try:
                now = self.input_state()
            except Exception:  # a source's bug must not stop the display from following it
                if not failing:
                    log.exception("reading the input's health failed")
                failing = True
                continue
            failing = False
            if now != shown:
                shown = now
                self.hub.publish()

    def status(self) -> dict[str, Any]:
        return {
            "ok": self.session.journal_error is None,
            "journal": str(self.session.journal.path),
            "journal_error": self.session.journal_error,
            "games": len(self.session.games),
            "events": self.session.journal.event_count(),
            "uptime_s": round(time.monotonic() - self.started, 1),
            "display_clients": self.hub.clients,
        }


LIVE_VERDICTS = 20  # the live view carries the latest verdicts; the record keeps them all


def open_for_reading(path: Path, reason: str) -> Journal:
    """The journal cannot be written: show what it holds if it can be read, refuse every input."""
    log.error("%s", reason)
    if path.exists():
        try:
            return ReadOnlyJournal(path, reason)
        except JournalError as exc:
            reason = str(exc)
            log.error("%s", reason)
    return UnavailableJournal(path, reason)


DEMO_DICE = Path(__file__).parent / "data" / "demo" / "dice"


def open_dice_camera(spec: str, referee: Referee) -> DiceCamera | None:
    """The camera over the dice tray; off a Pi "auto" shows the demo's photos, one roll every few seconds."""
    if spec == "none":
        return None
    from hardware.camera import CameraError
    from hardware.camera import open_source as open_camera
    from referee.dice_camera import DiceCamera

    try:
        # Each demo photo stays in view for a while, like dice lying still after a roll.
        frames = open_camera(spec, fallback=DEMO_DICE, hold_s=8.0)
    except CameraError as exc:
        log.warning("no dice camera: %s", exc)
        return None
    log.info("dice camera: %s", frames.name)
    return DiceCamera(frames, referee.session, labels_dir=referee.data_dir / "dice-labels")


def open_source(spec: str) -> ButtonSource:
    """The button input named by ``--buttons``: auto, mock, gpio or serial[:PORT]."""
    from hardware.buttons import open_button_source

    return open_button_source(spec)


async def run(options: ServeOptions, on_ready: Callable[[Referee], None] | None = None) -> None:
    import uvicorn

    from referee.web.app import build_app
    from referee.web.urls import referee_urls

    referee = Referee(options.data_dir, open_source(options.buttons), options.contest, options.sound)
    loop = asyncio.get_running_loop()
    referee.contests.attach(loop)
    referee.camera = open_dice_camera(options.camera, referee)
    if referee.camera is not None:
        referee.camera.start()
    from referee.board_camera import open_board_camera

    referee.board_camera = open_board_camera(options.board_camera, referee, options.board_camera_hold_s)
    if referee.board_camera is not None:
        referee.board_camera.start()
    app = build_app(referee, max_body_bytes=options.max_body_bytes)
    config = uvicorn.Config(
        app, host=options.host, port=options.port, log_level="warning", lifespan="off",
        timeout_graceful_shutdown=3,
    )  # fmt: skip
    server = uvicorn.Server(config)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            await serving  # re-raise the start-up failure (port in use …)
            raise SystemExit(f"the web server could not start on {options.host}:{options.port}")
        await asyncio.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1] if server.servers else options.port
    referee.urls = referee_urls(options.host, port, referee.token)
    log.info("display: %s", referee.urls["display"])
    log.info("console (keep this link for the scorekeeper): %s", referee.urls["console"])
    print(
        f"Table referee ready.\n  display: {referee.urls['display']}\n  console: {referee.urls['console']}",
        flush=True,
    )
    systemd.notify("READY=1")
    if on_ready:
        on_ready(referee)
    watchdog = asyncio.create_task(systemd.pet_watchdog())
    following = asyncio.create_task(referee.follow_input(), name="input-health")
    loop_watch = LoopWatch()
    loop_watch.start(loop)
    await asyncio.wait([serving, asyncio.create_task(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
    systemd.notify("STOPPING=1")
    watchdog.cancel()
    following.cancel()
    loop_watch.stop()
    referee.hub.close()  # live streams never end by themselves
    server.should_exit = True
    await serving
    referee.source.stop()
    if referee.camera is not None:
        await referee.camera.stop()
    if referee.board_camera is not None:
        await referee.board_camera.stop()
    referee.sound.close()
    referee.session.journal.close()
