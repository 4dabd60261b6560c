"""The referee's sounds through the Pi's audio output (HDMI to the TV, or the jack).

The same three tunes as the buzzer (hardware.feedback): the call, the tie, the false start,
rendered as WAV with the `wave` module and played by ``paplay`` (PulseAudio/PipeWire) or
``aplay`` (ALSA), whichever exists. Spoken sentences are rendered by espeak-ng
(hardware.speech) and played the same way.

Playing never blocks the caller: one worker thread renders sentences and another plays, a
newer sentence replaces one still waiting (a verdict nobody heard yet is not worth a queue),
and a tone is never held back by a sentence: it does not wait for one to be rendered, and it
cuts short one being spoken (the call of the next round is due now). A sentence overtaken by
a tone before it could start is dropped, not spoken after it: the table has moved on, and a
verdict read out during the next contest would talk over the players (the display shows it).
The output is chosen by one setting (``referee serve --sound``):

- ``auto``: aplay, else paplay, else silence (logged once);
- ``off``: silence;
- ``aplay`` / ``paplay``: that player;
- ``dir:PATH``: write every sound to PATH as numbered WAV files instead of playing it (with the
  spoken text beside it in a .txt file): for tests and for checking the voice on a laptop.

The buzzer's sound is the timed call (its time is the call's timestamp); the audio output's own
latency (tens of milliseconds) only makes the sound a little later for everyone alike.
"""

from __future__ import annotations

import logging
import math
import os
import queue
import shutil
import struct
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Sequence
from pathlib import Path

from hardware.feedback import CALL_TUNE, FALSE_START_TUNE, TIE_TUNE, Note
from hardware.speech import SpeechError, render_speech

log = logging.getLogger(__name__)
RATE = 22_050
FADE_S = 0.005  # a few milliseconds of fade at each edge of a note: no click
TUNES: dict[str, Sequence[Note]] = {"call": CALL_TUNE, "tie": TIE_TUNE, "false_start": FALSE_START_TUNE}


def tune_samples(tune: Sequence[Note], rate: int = RATE, volume: float = 0.6) -> list[int]:
    """16-bit samples of a tune: sine notes with short fades, silences for rests."""
    out: list[int] = []
    fade = max(1, int(FADE_S * rate))
    for note in tune:
        n = int(note.seconds * rate)
        if note.hz is None:
            out.extend([0] * n)
            continue
        step = 2 * math.pi * note.hz / rate
        for i in range(n):
            envelope = min(1.0, i / fade, (n - 1 - i) / fade)
            out.append(int(32767 * volume * envelope * math.sin(step * i)))
    return out


def write_tune(path: Path, tune: Sequence[Note], rate: int = RATE) -> Path:
    """Write `tune` as a mono 16-bit WAV file."""
    samples = tune_samples(tune, rate)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return path


def find_player(spec: str) -> list[str] | None:
    """The command that plays a WAV file (the file name is appended), or None for silence."""
    if spec == "off":
        return None
    # aplay first: the system service has no PulseAudio/PipeWire session of its own.
    names = ("aplay", "paplay") if spec == "auto" else (spec,)
    for name in names:
        path = shutil.which(name)
        if path:
            return [path, "-q"] if name == "aplay" else [path]
    if spec != "auto":
        raise ValueError(
            f"the sound player {spec!r} is not installed; use auto, off, aplay, paplay or dir:PATH"
        )
    return None


WORK_PREFIX = "referee-sound-"  # then the owner's pid: referee-sound-<pid>-<random>


def sweep_leftovers(tmp: Path | None = None) -> list[Path]:
    """Remove the sound folders of referees that are no longer running; returns them.

    A folder whose owner's pid is alive is left alone (a second referee on the machine, or a
    reused pid: keeping a stale folder is harmless, removing a live one is not)."""
    removed = []
    for path in Path(tmp or tempfile.gettempdir()).glob(f"{WORK_PREFIX}*-*"):
        pid_text = path.name[len(WORK_PREFIX) :].split("-", 1)[0]
        if not pid_text.isdigit() or not path.is_dir() or _alive(int(pid_text)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


SPEECH_TIMEOUT_S = 30.0  # a sentence still playing after this is stuck: stop it


class SoundOutput:
    """Tones and speech on the audio output; see the module docstring for `spec`.

    Two threads: one renders sentences (espeak-ng takes a second or two on a busy Pi), the
    other plays whatever is ready. A tone never waits for a sentence to be rendered, and a
    sentence still being spoken is cut short when a tone is due: the next round's call must
    sound when it is called, and the verdict it interrupts is the previous round's.
    """

    def __init__(self, spec: str = "auto") -> None:
        self.spec = spec
        self._dir: Path | None = None
        self._player: list[str] | None = None
        if spec.startswith("dir:"):
            self._dir = Path(spec[4:])
            self._dir.mkdir(parents=True, exist_ok=True)
        else:
            self._player = find_player(spec)
        # The rendered sounds live in a folder of their own, only when there is an output to
        # play them on; a referee killed without closing (power cut, kill -9) leaves its folder
        # behind, which the next one sweeps (`sweep_leftovers`).
        self._work: Path | None = None
        self._tones: dict[str, Path | None] = dict.fromkeys(TUNES)
        if self.enabled:
            sweep_leftovers()
            self._work = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-"))
            self._tones = {name: write_tune(self._work / f"{name}.wav", tune) for name, tune in TUNES.items()}
        # Sentences to render (with the number of tones asked for before them); sounds ready
        # to play. A mark (an Event) passes through both in order, so `wait_idle` returns once
        # everything queued before it is done.
        self._sentences: queue.Queue[tuple[str, str, int] | threading.Event | None] = queue.Queue()
        self._ready: queue.Queue[tuple[str, Path, str, str, int] | threading.Event | None] = queue.Queue()
        self._count = 0
        self._speech_pending = 0
        self._tones_due = 0
        self._tones_asked = 0  # every tone ever asked for: a sentence older than one is stale
        self._lock = threading.Lock()
        self._renderer = threading.Thread(target=self._render, name="sound-speech", daemon=True)
        self._thread = threading.Thread(target=self._run, name="sound", daemon=True)
        self._renderer.start()
        self._thread.start()
        if self.enabled:
            log.info("sound output: %s", self.name)
        else:
            log.info("sound output: none (install alsa-utils for aplay, or pass --sound off)")

    @property
    def enabled(self) -> bool:
        return self._dir is not None or self._player is not None

    @property
    def name(self) -> str:
        if self._dir is not None:
            return f"files in {self._dir}"
        return Path(self._player[0]).name if self._player else "none"

    def tone(self, name: str) -> None:
        """Play one of the tunes: "call", "tie" or "false_start"."""
        if name not in self._tones:
            raise ValueError(f"unknown tone {name!r}; known: {', '.join(self._tones)}")
        if self.enabled:
            with self._lock:
                self._tones_due += 1
                self._tones_asked += 1
                asked = self._tones_asked
            wav = self._tones[name]
            assert wav is not None  # rendered whenever enabled
            self._ready.put(("tone", wav, name, "", asked))

    def say(self, text: str, lang: str) -> None:
        """Speak `text` in `lang` ("en" or "fr"); replaces a sentence not yet started, and is
        dropped if a tone is asked for before it starts."""
        if self.enabled and text:
            with self._lock:
                self._speech_pending += 1
                asked = self._tones_asked
            self._sentences.put((text, lang, asked))

    def close(self) -> None:
        self._sentences.put(None)
        self._renderer.join(timeout=5)
        self._ready.put(None)
        self._thread.join(timeout=5)
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued has been played or written (tests)."""
        done = threading.Event()
        self._sentences.put(done)
        return done.wait(timeout)

    # -- the workers -----------------------------------------------------------------------------

    def _render(self) -> None:
        rendered = 0
        while True:
            item = self._sentences.get()
            if item is None:
                return
            if isinstance(item, threading.Event):
                self._ready.put(item)
                continue
            text, lang, asked = item
            with self._lock:
                self._speech_pending -= 1
                stale = self._speech_pending > 0
            if stale:  # a newer sentence is waiting: say that one instead
                continue
            if self._overtaken(asked, text):
                continue
            rendered += 1
            assert self._work is not None  # sentences are queued only when enabled
            target = self._work / f"speech-{rendered}.wav"  # the player may still read the last one
            try:
                render_speech(text, lang, target)
            except SpeechError as exc:
                log.warning("%s", exc)
                continue
            except Exception:  # a sound problem must never reach the referee
                log.exception("speech rendering failed")
                continue
            self._ready.put(("speech", target, f"speech-{lang}", text, asked))

    def _overtaken(self, asked: int, text: str) -> bool:
        """A tone was asked for after the sentence: the next round has begun without it."""
        with self._lock:
            overtaken = self._tones_asked > asked
        if overtaken:
            log.info("verdict not spoken, the next sound came first (it is on the display): %r", text)
        return overtaken

    def _run(self) -> None:
        while True:
            item = self._ready.get()
            if item is None:
                return
            if isinstance(item, threading.Event):
                item.set()
                continue
            kind, wav, label, text, asked = item
            try:
                if kind == "tone":
                    with self._lock:
                        self._tones_due -= 1
                elif self._overtaken(asked, text):
                    continue
                self._output(wav, label, text)
            except Exception:  # a sound problem must never reach the referee
                log.exception("sound output failed")
            finally:
                if kind == "speech":
                    wav.unlink(missing_ok=True)

    def _output(self, wav: Path, label: str, text: str = "") -> None:
        self._count += 1
        if self._dir is not None:
            stem = self._dir / f"{self._count:04d}-{label}"
            shutil.copyfile(wav, stem.with_suffix(".wav"))
            if text:
                stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
            return
        if self._player is None:
            return
        played = subprocess.Popen([*self._player, str(wav)], stdin=subprocess.DEVNULL)
        if label.startswith("speech"):
            self._until_done_or_tone(played, text)

    def _until_done_or_tone(self, played: subprocess.Popen[bytes], text: str) -> None:
        """Let a sentence finish before the next sound, unless a tone is due: then stop it."""
        deadline = time.monotonic() + SPEECH_TIMEOUT_S
        while played.poll() is None:
            with self._lock:
                due = self._tones_due > 0
            if due or time.monotonic() > deadline:
                played.terminate()
                played.wait(timeout=2)
                log.info("sentence cut short (%s): %r", "a tone is due" if due else "too long", text)
                return
            time.sleep(0.01)
