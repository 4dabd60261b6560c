"""The referee's voice: number words, spoken verdicts, tones and speech rendered to WAV files."""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
import time
import wave
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.feedback import CALL_TUNE, FALSE_START_TUNE, TIE_TUNE
from hardware.sound import RATE, SoundOutput, tune_samples, write_tune
from hardware.speech import SpeechError, render_speech
from referee.numwords import words
from referee.spoken import duration, sentence

EN = {0: "zero", 7: "seven", 13: "thirteen", 21: "twenty-one", 37: "thirty-seven", 100: "one hundred",
      101: "one hundred and one", 999: "nine hundred and ninety-nine", 1000: "one thousand",
      2005: "two thousand and five", 12_345: "twelve thousand three hundred and forty-five",
      1_000_000: "one million"}  # fmt: skip
FR = {0: "zéro", 1: "un", 16: "seize", 17: "dix-sept", 21: "vingt et un", 22: "vingt-deux", 31: "trente et un",
      70: "soixante-dix", 71: "soixante et onze", 77: "soixante-dix-sept", 80: "quatre-vingts",
      81: "quatre-vingt-un", 90: "quatre-vingt-dix", 91: "quatre-vingt-onze", 99: "quatre-vingt-dix-neuf",
      100: "cent", 101: "cent un", 200: "deux cents", 201: "deux cent un", 280: "deux cent quatre-vingts",
      1000: "mille", 2000: "deux mille", 80_000: "quatre-vingt mille", 200_000: "deux cent mille",
      1_000_000: "un million", 2_000_000: "deux millions"}  # fmt: skip


@pytest.mark.parametrize(("n", "text"), EN.items())
def test_english_number_words(n: int, text: str) -> None:
    assert words(n, "en") == text


@pytest.mark.parametrize(("n", "text"), FR.items())
def test_french_number_words(n: int, text: str) -> None:
    assert words(n, "fr") == text


def test_french_feminine_units() -> None:
    assert words(1, "fr", feminine=True) == "une"
    assert words(21, "fr", feminine=True) == "vingt et une"
    assert words(81, "fr", feminine=True) == "quatre-vingt-une"
    assert words(11, "fr", feminine=True) == "onze"
    assert duration(21_000_000, "fr") == "vingt et une millisecondes"
    assert duration(1_000_000, "fr") == "une milliseconde"


@given(st.integers(0, 999_999_999), st.sampled_from(["en", "fr"]))
def test_every_number_is_words_only(n: int, lang: str) -> None:
    text = words(n, lang)
    assert text and not re.search(r"\d", text) and "  " not in text and text == text.strip()


def test_numbers_outside_the_range_are_refused() -> None:
    for bad in (-1, 10**9, 2.5, True):
        with pytest.raises(ValueError):
            words(bad, "en")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="en or fr"):
        words(3, "de")


def test_spoken_verdicts_in_both_languages() -> None:
    win = {"ranking": [["Anne"], ["Marc"]], "margins_ns": [37_400_000], "false_starts": []}
    assert sentence(win, "en") == "Anne, by thirty-seven milliseconds."
    assert sentence(win, "fr") == "Anne, avec trente-sept millisecondes d'avance."
    tie = {"ranking": [["Anne", "Carl"]], "margins_ns": [], "false_starts": ["Marc"]}
    assert (
        sentence(tie, "en", ["dschamal.duel.tie"])
        == "Tie between Anne and Carl — repeat the duel. False start: Marc."
    )
    assert sentence(tie, "fr") == "Égalité entre Anne et Carl. Faux départ : Marc."
    close = {"ranking": [["Bea"], ["Anne", "Carl"]], "margins_ns": [420_000], "false_starts": []}
    assert sentence(close, "en") == "Bea, by four hundred and twenty microseconds."
    assert sentence({"ranking": [], "margins_ns": [], "false_starts": []}, "fr") == "Aucun appui valable."


def _wav(path: Path) -> tuple[int, float, bytes]:
    with wave.open(str(path)) as w:
        frames = w.readframes(w.getnframes())
        return w.getframerate(), w.getnframes() / w.getframerate(), frames


def test_tones_are_wav_files_of_the_buzzer_tunes(tmp_path: Path) -> None:
    for name, tune in (("call", CALL_TUNE), ("tie", TIE_TUNE), ("false_start", FALSE_START_TUNE)):
        rate, seconds, frames = _wav(write_tune(tmp_path / f"{name}.wav", tune))
        assert rate == RATE
        assert seconds == pytest.approx(sum(n.seconds for n in tune), abs=0.01)
        assert max(frames) > 0
    samples = tune_samples(TIE_TUNE)
    gap = samples[int(0.13 * RATE) : int(0.19 * RATE)]  # the rest between the two tie beeps
    assert set(gap) == {0} and max(samples) > 15_000
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200  # faded: no click


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "Anne, by thirty-seven milliseconds."), ("fr", "Anne, avec trente-sept millisecondes d'avance.")],
)
def test_speech_renders_to_a_wav_of_plausible_length(tmp_path: Path, lang: str, text: str) -> None:
    rate, seconds, frames = _wav(render_speech(text, lang, tmp_path / "speech.wav"))
    assert rate > 8000 and 1.0 < seconds < 6.0, seconds  # five or six words at 150 words a minute
    assert any(frames)


def test_speech_refuses_an_unknown_language(tmp_path: Path) -> None:
    with pytest.raises(SpeechError, match="no voice"):
        render_speech("hallo", "de", tmp_path / "x.wav")


def test_the_sound_output_writes_tones_and_speech_to_a_folder(tmp_path: Path) -> None:
    out = SoundOutput(f"dir:{tmp_path / 'out'}")
    try:
        out.tone("call")
        out.say("Tie between Anne and Marc — repeat the duel.", "en")
        out.say("Égalité entre Anne et Marc — on refait le duel.", "fr")
        assert out.wait_idle()
    finally:
        out.close()
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files[0] == "0001-call.wav"
    spoken = [p for p in (tmp_path / "out").glob("*-speech-*.wav")]
    assert spoken, files  # the newest sentence is said (an older one still waiting may be dropped)
    for wav in spoken:
        assert _wav(wav)[1] > 1.0
        assert wav.with_suffix(".txt").read_text().strip()
    with pytest.raises(ValueError, match="unknown tone"):
        SoundOutput("off").tone("fanfare")


def test_a_tone_is_not_held_back_by_a_sentence_being_rendered(tmp_path: Path, monkeypatch, caplog) -> None:
    # espeak-ng takes a second or two on a busy Pi: the next round's call must not wait for it,
    # and the verdict it overtook is not read out over the next contest afterwards.
    import hardware.sound

    started = threading.Event()

    def slow_render(text: str, lang: str, path: Path) -> Path:
        started.set()
        time.sleep(1.0)
        return render_speech(text, lang, path)

    monkeypatch.setattr(hardware.sound, "render_speech", slow_render)
    out = SoundOutput(f"dir:{tmp_path / 'out'}")
    try:
        out.say("Anne, by thirty-seven milliseconds.", "en")
        assert started.wait(5)
        with caplog.at_level("INFO", logger="hardware.sound"):
            out.tone("call")
            assert out.wait_idle()
        # The table goes on: the next verdict is spoken as usual.
        out.say("Marc, by twelve milliseconds.", "en")
        assert out.wait_idle()
    finally:
        out.close()
    files = sorted(p.name for p in (tmp_path / "out").glob("*.wav"))
    assert files == ["0001-call.wav", "0002-speech-en.wav"]
    assert (tmp_path / "out" / "0002-speech-en.txt").read_text() == "Marc, by twelve milliseconds.\n"
    assert "verdict not spoken, the next sound came first" in caplog.text and "Anne" in caplog.text


PLAYER = """
import sys, time
with open(sys.argv[1], "a") as log:
    print("start", sys.argv[2].rsplit("/", 1)[-1], file=log, flush=True)
    time.sleep(4 if "speech" in sys.argv[2] else 0.1)
    print("end", sys.argv[2].rsplit("/", 1)[-1], file=log, flush=True)
"""


def test_a_tone_cuts_short_the_sentence_being_spoken(tmp_path: Path, monkeypatch) -> None:
    # A real player process (a script standing in for aplay) that speaks for four seconds.
    import hardware.sound

    script, log = tmp_path / "player.py", tmp_path / "played.txt"
    script.write_text(PLAYER, encoding="utf-8")
    monkeypatch.setattr(hardware.sound, "find_player", lambda spec: [sys.executable, str(script), str(log)])
    out = SoundOutput("aplay")

    def lines() -> list[str]:
        return log.read_text().splitlines() if log.exists() else []

    def wait_for(what: str) -> None:
        deadline = time.monotonic() + 10
        while what not in " ".join(lines()) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert what in " ".join(lines()), lines()

    try:
        out.say("Anne, by thirty-seven milliseconds.", "en")
        wait_for("start speech")
        out.tone("call")
        wait_for("end call.wav")
        assert out.wait_idle()
    finally:
        out.close()
    played = lines()
    assert played[0].startswith("start speech") and played[1:] == ["start call.wav", "end call.wav"], played


def test_sound_folders_exist_only_with_an_output_and_a_killed_referees_are_swept(
    tmp_path: Path, monkeypatch
) -> None:
    import subprocess

    import hardware.sound

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    off = SoundOutput("off")
    off.close()
    assert list(tmp_path.iterdir()) == [], "silence renders nothing and leaves nothing"

    # What a referee killed without closing (power cut, kill -9) leaves behind.
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    left = tmp_path / f"{hardware.sound.WORK_PREFIX}{gone.pid}-abc123"
    left.mkdir()
    (left / "call.wav").write_bytes(b"RIFF")
    alive = tmp_path / f"{hardware.sound.WORK_PREFIX}{os.getpid()}-def456"  # a referee still running
    alive.mkdir()
    unrelated = tmp_path / f"{hardware.sound.WORK_PREFIX}not_ours"  # no pid in its name
    unrelated.mkdir()

    out = SoundOutput(f"dir:{tmp_path / 'out'}")
    try:
        assert not left.exists(), "the dead referee's folder is swept by the next one"
        assert alive.exists() and unrelated.exists()
        own = [p for p in tmp_path.glob(f"{hardware.sound.WORK_PREFIX}{os.getpid()}-*") if p != alive]
        assert len(own) == 1 and (own[0] / "call.wav").exists()
    finally:
        out.close()
    assert not own[0].exists(), "closing removes the folder"
    assert alive.exists()
