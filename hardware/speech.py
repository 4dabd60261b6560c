"""Spoken sentences rendered to WAV by espeak-ng (Debian package ``espeak-ng``).

Only the voice: what to say is composed by the referee (referee.spoken). English and French,
the languages of the table; a clear, slightly slow voice carries better across a room.

>>> VOICES["fr"]
'fr-fr'
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

VOICES = {"en": "en-gb", "fr": "fr-fr"}
WORDS_PER_MINUTE = 150


class SpeechError(RuntimeError):
    """Speech could not be rendered; the message says what to install or change."""


def espeak() -> str:
    path = shutil.which("espeak-ng")
    if path is None:
        raise SpeechError("spoken verdicts need espeak-ng: sudo apt-get install espeak-ng")
    return path


def render_speech(text: str, lang: str, path: Path, wpm: int = WORDS_PER_MINUTE) -> Path:
    """Render `text` spoken in `lang` ("en" or "fr") to the WAV file `path`."""
    voice = VOICES.get(lang)
    if voice is None:
        raise SpeechError(f"no voice for language {lang!r}; choose one of {', '.join(VOICES)}")
    try:
        done = subprocess.run(
            [espeak(), "-v", voice, "-s", str(wpm), "-w", str(path), "--", text],
            capture_output=True,
            text=True,
            timeout=20,
        )
    except subprocess.TimeoutExpired:
        raise SpeechError("espeak-ng took more than 20 s to render a sentence") from None
    if done.returncode != 0 or not path.exists() or path.stat().st_size <= 44:
        raise SpeechError(f"espeak-ng could not render speech ({done.stderr.strip() or done.returncode})")
    return path
