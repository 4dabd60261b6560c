"""The camera over the Djambi board, in the daemon: frames → reads → moves, illegal moves flagged.

Like the dice camera (`referee.dice_camera`): frames are read, judged and inferred off the
event loop (a read takes tens of milliseconds, an inference a few); what follows happens on
the loop. Only while the current game is a Djambi game still being played:

- a move the follower commits becomes the game's ``move`` event with ``"source": "camera"``,
  journalled like any input;
- a question (several moves fit, or squares the move changed cannot be seen) waits at the
  console, which lists the candidates to pick (``"source": "camera-confirmed"``);
- an unexplained board is flagged on the display ("Illegal move seen: … (rule …)") and the
  console asks the scorekeeper, until the board changes (taken back, or put right).

``referee serve --board-camera auto|none|PATH``: ``auto`` is picamera2, else /dev/video0, else
the demo folder (a short scripted game with a planted illegal move); a folder plays once and
its last frame stays in view, like a board at the end of a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from hardware.camera import CameraError, FrameSource
from referee.board_follower import Ask, BoardFollower, Commit, Flag, FollowerStep, Settled, Waiting
from referee.board_inference import Candidate, Observation
from referee.session import InputRefused, Session
from vision.board_reader import BoardImageError, BoardTracker

if TYPE_CHECKING:
    from referee.daemon import Referee
    from referee.games.djambi.position import Position
    from vision.board_read import BoardRead

log = logging.getLogger(__name__)
DEMO_DJAMBI = Path(__file__).parent / "data" / "demo" / "djambi"
PREVIEW_WIDTH = 640


class LastFrameStays:
    """A frame source that keeps showing its last frame once it has no more (a folder played
    once): the board stays as the game left it."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self.name = source.name
        self._last: np.ndarray | None = None

    def read(self) -> np.ndarray | None:
        frame = self.source.read()
        if frame is None:
            return None if self._last is None else self._last.copy()
        self._last = frame
        return frame

    def lock(self) -> dict[str, Any]:
        return self.source.lock()

    def close(self) -> None:
        self.source.close()


def open_board_camera(spec: str, referee: Referee, hold_s: float = 3.0) -> BoardCamera | None:
    """The camera over the Djambi board (``none`` by default: most nights have no Djambi board).

    ``auto`` tries picamera2, then /dev/video0, then the demo folder; a folder or an image
    plays once, each image in view for ``hold_s`` seconds.
    """
    if spec == "none":
        return None
    from hardware.camera import open_source as open_camera

    try:
        frames = open_camera(spec, loop=False, fallback=DEMO_DJAMBI, hold_s=hold_s)
    except CameraError as exc:
        log.warning("no board camera: %s", exc)
        return None
    log.info("board camera: %s", frames.name)
    return BoardCamera(LastFrameStays(frames), referee.session)


def current_djambi(session: Session) -> tuple[int, Position] | None:
    """The current game's id and position when it is a Djambi game still being played."""
    if session.current_id is None:
        return None
    game = session.games[session.current_id]
    if game.fold.engine.game != "djambi" or game.broken:
        return None
    state = game.fold.state
    if state.finished:
        return None
    return game.id, state.position


@dataclass
class _Seen:
    """What the worker thread hands back for one frame."""

    read: BoardRead | None
    step: FollowerStep | None
    preview: bytes | None
    error: str | None = None
    ms: float = 0.0


@dataclass
class BoardCameraState:
    """What the display and the console show."""

    status: str = "waiting for a Djambi game"
    reads: int = 0
    camera: str | None = None
    unknown: tuple[str, ...] = ()
    regions: list[dict[str, Any]] = field(default_factory=list)  # what lies over the board (hands)
    placement: str | None = None
    question: dict[str, Any] | None = None
    flag: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)  # the moves the camera recorded, newest last
    refusal: str | None = None
    read_ms: float = 0.0
    inference: dict[str, Any] | None = None


class BoardCamera:
    """Watches one frame source and follows the current Djambi game."""

    def __init__(
        self,
        source: FrameSource,
        session: Session,
        *,
        fps: float = 4.0,
        follower: BoardFollower | None = None,
        tracker: BoardTracker | None = None,
    ) -> None:
        self.source = source
        self.session = session
        self.fps = fps
        self.follower = follower or BoardFollower()
        self.tracker = tracker or BoardTracker()
        self.state = BoardCameraState()
        self.error: str | None = None
        self.preview_jpeg: bytes = b""
        self.preview_number = 0
        self._preview_t = 0.0
        self._game_id: int | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="board-camera")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self.source.close()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        period = 1.0 / self.fps
        while True:
            started = time.monotonic()
            current = current_djambi(self.session)
            if current is None:
                self._idle()
                await asyncio.sleep(0.5)  # no Djambi game: the demo folder waits, nothing is read
                continue
            game_id, position = current
            if game_id != self._game_id:
                self._game_id = game_id
                self.follower = BoardFollower(self.follower.settings)
                self.state = BoardCameraState(status="following")
            try:
                seen = await loop.run_in_executor(None, self._work, position)
            except (CameraError, cv2.error, OSError) as exc:
                seen = _Seen(None, None, None, f"camera: {exc}")
            self._act(seen, game_id, position)
            await asyncio.sleep(max(0.0, period - (time.monotonic() - started)))

    def _idle(self) -> None:
        if self._game_id is not None or self.state.status != "waiting for a Djambi game":
            self._game_id = None
            self.state = BoardCameraState()
            self.session.changed()

    # -- on a worker thread ------------------------------------------------------------------

    def _work(self, position: Position) -> _Seen:
        """One frame: read it, feed the follower (which infers when the board is still)."""
        frame = self.source.read()
        if frame is None:
            return _Seen(None, None, None, "no frame from the camera")
        t0 = time.perf_counter()
        try:
            read = self.tracker.read(frame)
        except BoardImageError as exc:
            return _Seen(None, None, None, f"cannot see the board: {exc}")
        ms = 1000 * (time.perf_counter() - t0)
        seen = Observation.from_read(read)
        step = self.follower.feed(seen, position, read.camera)
        preview = None
        now = time.monotonic()
        if not self.preview_jpeg or (self.state.placement != read.placement and now - self._preview_t > 1.0):
            self._preview_t = now  # at most one picture a second, however the read flickers
            preview = _preview(frame, read)
        return _Seen(read, step, preview, None, ms)

    # -- on the event loop -------------------------------------------------------------------

    def _shown(self) -> tuple[Any, ...]:
        """What a change must touch to be pushed to the displays (not every frame's counters)."""
        st = self.state
        return (st.status, st.question, st.flag, len(st.moves), st.refusal, self.error, self.preview_number)

    def _act(self, seen: _Seen, game_id: int, position: Position) -> None:
        before = self._shown()
        if seen.error is not None:
            if self.error != seen.error:
                log.warning("board camera: %s", seen.error)
            self.error = seen.error
        else:
            self.error = None
        if seen.read is not None:
            st = self.state
            st.reads += 1
            st.camera = seen.read.camera
            st.unknown = seen.read.unknown
            st.regions = [r.to_json() for r in seen.read.regions]
            st.placement = seen.read.placement
            st.read_ms = round(seen.ms, 1)
            if seen.preview is not None:
                self.preview_jpeg = seen.preview
                self.preview_number += 1
        if seen.step is not None:
            last = self.follower.last
            if last is not None:
                found = last.to_json()
                self.state.inference = {
                    k: found[k] for k in ("kind", "move", "ms", "legal_moves") if k in found
                }
            self._step(seen.step, game_id, position)
        if self._shown() != before:
            self.session.changed()

    def _step(self, step: FollowerStep, game_id: int, position: Position) -> None:
        st = self.state
        if isinstance(step, Waiting):
            st.status = step.reason
        elif isinstance(step, Settled):
            st.status = "following: the board shows the game's position"
            st.question = st.flag = None
        elif isinstance(step, Commit):
            st.question = st.flag = None
            # A refusal is kept in state.refusal and logged; the follower looks again when the board changes.
            with contextlib.suppress(InputRefused):
                self._submit(
                    str(step.move), step.result.evidence.get("said", ""), "camera", game_id, position
                )
        elif isinstance(step, Ask):
            st.status = "asking the scorekeeper"
            st.question = {
                "reason": step.reason,
                "candidates": [_candidate(c) for c in step.candidates],
                "position": position.fen(),
            }
        elif isinstance(step, Flag):
            st.status = "flagged"
            result = step.result
            first = result.findings[0] if result.findings else None
            st.flag = {
                "headline": result.headline,
                "confident": result.confident,
                "kind": first.kind if first else "unexplained",
                "rule": first.rule.to_json() if first and first.rule else None,
                "remedy": first.remedy
                if first
                else "Put the board back as it was, or enter the move at the console.",
                "changes": [c.to_json() for c in result.changes],
                "findings": [f.to_json() for f in result.findings],
                "closest": [_candidate(c) for c in result.closest],
                "position": position.fen(),
            }
            log.warning("board camera: %s", result.headline)

    def _submit(self, move: str, said: str, source: str, game_id: int, position: Position) -> dict[str, Any]:
        """Record a move for the game the follower watched, if nothing changed it meanwhile."""
        game = self.session.games.get(game_id)
        if game is None or self.session.current_id != game_id or game.fold.state.position != position:
            raise InputRefused("the game changed meanwhile: the camera looks again", status=409)
        event = {"type": "move", "move": move, "source": source}
        try:
            self.session.submit(event, game_id)
        except InputRefused as exc:
            self.state.refusal = f"{move}: {exc}"
            log.warning("board camera move %s not taken: %s", move, exc)
            raise
        self.follower.committed(game.fold.state.position)
        self.state.refusal = None
        self.state.status = f"recorded {move}"
        self.state.moves = [*self.state.moves[-4:], {"move": move, "said": said, "source": source}]
        log.info("board camera: %s recorded (%s)", move, source)
        return {"ok": True, "move": move}

    # -- the console ---------------------------------------------------------------------------

    def choose(self, move: str) -> dict[str, Any]:
        """The scorekeeper says which of the offered moves was played."""
        pending = self.state.question or self.state.flag
        if pending is None:
            raise InputRefused("the board camera is not asking anything now", status=409)
        offered = [c["move"] for c in pending.get("candidates") or pending.get("closest") or []]
        if move not in offered:
            raise InputRefused(
                f"{move!r} is not one of the moves the camera offered ({', '.join(offered) or 'none'}); "
                "enter any other move on the console's board",
                status=400,
            )
        current = current_djambi(self.session)
        if current is None or current[1].fen() != pending["position"]:
            raise InputRefused("the game has moved on since the camera asked", status=409)
        said = next(
            (
                c["said"]
                for c in pending.get("candidates") or pending.get("closest") or []
                if c["move"] == move
            ),
            "",
        )
        result = self._submit(move, said, "camera-confirmed", current[0], current[1])
        self.state.question = self.state.flag = None
        self.session.changed()
        return result

    def dismiss(self) -> dict[str, Any]:
        """Clear the question or the flag; it is not raised again for the same board."""
        if self.state.question is None and self.state.flag is None:
            raise InputRefused("the board camera is not asking anything now", status=409)
        self.state.question = self.state.flag = None
        self.state.status = "dismissed: waiting for the board to change"
        self.session.changed()
        return {"ok": True}

    def view(self) -> dict[str, Any]:
        st = self.state
        return {
            "source": self.source.name,
            "error": self.error,
            "following": self._game_id is not None,
            "status": st.status,
            "reads": st.reads,
            "camera": st.camera,
            "unknown": list(st.unknown),
            "regions": st.regions,
            "placement": st.placement,
            "question": st.question,
            "flag": st.flag,
            "moves": st.moves,
            "refusal": st.refusal,
            "read_ms": st.read_ms,
            "preview": self.preview_number,
            "inference": st.inference,
        }


def _candidate(c: Candidate) -> dict[str, Any]:
    return {
        "move": str(c.move),
        "said": c.said,
        "unseen": c.to_json()["unseen"],
        "mismatched": c.to_json()["mismatched"],
    }


def _preview(frame: np.ndarray, read: BoardRead) -> bytes:
    """The frame with the read drawn on it (vision's debug picture), scaled for a phone."""
    from vision.board_debug import debug_image

    drawn = debug_image(frame, read)
    height, width = drawn.shape[:2]
    if width > PREVIEW_WIDTH:
        drawn = cv2.resize(
            drawn, (PREVIEW_WIDTH, round(height * PREVIEW_WIDTH / width)), interpolation=cv2.INTER_AREA
        )
    ok, buffer = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 75])
    return buffer.tobytes() if ok else b""
