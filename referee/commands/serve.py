"""``referee serve``: run the referee daemon (buttons → journal → games → display and console)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import io
import signal
import sys
from pathlib import Path

from hardware.call_schedule import CallSchedule
from referee.contests import ContestSettings
from referee.daemon import ServeOptions, default_data_dir
from referee.daemon import run as run_daemon

NAME = "serve"
HELP = "run the referee: the live display, the scorekeeper's console and the button inputs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None,
                        help="data folder for the journal and the console token "
                             "(default $XDG_DATA_HOME/referee; the Pi service uses /var/lib/referee)")  # fmt: skip
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default all)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    parser.add_argument("--buttons", default="auto",
                        help="auto (GPIO on a Pi, else virtual buttons), mock, gpio[,PINMAP.toml], "
                             "or serial[:PORT] for the RP2040 button timer")  # fmt: skip
    parser.add_argument("--call-delay", type=float, nargs=2, metavar=("MIN_S", "MAX_S"), default=(1.5, 4.0),
                        help="random wait between arming and the call (default 1.5 4)")  # fmt: skip
    parser.add_argument(
        "--call-shape",
        choices=("uniform", "non-aging"),
        default="uniform",
        help="uniform delay, or non-aging: waiting tells players little about when the call comes",
    )
    parser.add_argument(
        "--min-reaction-ms",
        type=float,
        default=100.0,
        help="presses sooner than this after the call are false starts (default 100)",
    )
    parser.add_argument(
        "--sound",
        default="auto",
        help="the referee's tones and spoken verdicts: auto (paplay or aplay), off, aplay, paplay, "
        "or dir:PATH to write them as WAV files",
    )
    parser.add_argument(
        "--camera",
        default="auto",
        help="the dice camera: auto (picamera2, else /dev/video0, else the demo photos), none, "
        "picamera, v4l2:N, a folder of images or a video file",
    )
    parser.add_argument(
        "--board-camera",
        default="none",
        help="the camera over the Djambi board: none (default), auto (picamera2, else /dev/video0, "
        "else the demo game), picamera, v4l2:N, or a folder of images played once (the demo: "
        "referee/data/demo/djambi)",
    )
    parser.add_argument(
        "--board-camera-hold",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long each image of a --board-camera folder stays in view (default 3)",
    )
    parser.add_argument(
        "--tie-window-us",
        type=float,
        default=None,
        help="override the input path's tie window (microseconds)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        contest = ContestSettings(
            schedule=CallSchedule(args.call_delay[0], args.call_delay[1], args.call_shape),
            min_reaction_ns=int(args.min_reaction_ms * 1e6),
            tie_window_ns=None if args.tie_window_us is None else int(args.tie_window_us * 1e3),
        )
        options = ServeOptions(
            data_dir=args.data or default_data_dir(),
            host=args.host,
            port=args.port,
            buttons=args.buttons,
            camera=args.camera,
            board_camera=args.board_camera,
            board_camera_hold_s=args.board_camera_hold,
            contest=contest,
            sound=args.sound,
        )
        _stacks_on_sigusr1()
        asyncio.run(run_daemon(options))
    except ValueError as exc:
        print(f"referee serve: {exc}", file=sys.stderr)
        return 2
    return 0


def _stacks_on_sigusr1() -> None:
    """`kill -USR1 <pid>` writes every thread's stack to stderr (the journal under systemd): a
    referee that hangs at the table can say where without being stopped."""
    if not hasattr(signal, "SIGUSR1"):
        return
    # stderr may be no file (run inside another program): then no dump, the referee still runs.
    with contextlib.suppress(io.UnsupportedOperation, ValueError, RuntimeError):
        faulthandler.register(signal.SIGUSR1, all_threads=True)
