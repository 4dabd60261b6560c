"""A night: nights in the journal, standings and their pictures, the night file and its replay,
the printable page, and `referee export-night` as a process."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageOps

from referee.arbitration import Contest, Press, arbitrate
from referee.journal import Journal
from referee.night_data import load_night
from referee.night_plots import axis_max_ms, reaction_svg, tally_svg
from referee.night_print import render_page, save_page
from referee.night_record import night_lines, replay_games, split_games
from referee.nights import NightError, Nights, NightSettings
from referee.record import RecordError
from referee.session import Session
from referee.standings import standings, winners_of

MS = 1_000_000
ROOT = Path(__file__).resolve().parent.parent


def contest(presses: dict[str, int], seats: tuple[str, ...] = ("Anne", "Marc"), label: str = "Round") -> dict:
    """A real arbitration verdict as the daemon journals it (call at 0, presses in ms)."""
    verdict = arbitrate(
        Contest(0, seats, tie_window_ns=100_000, clock="mock"), [Press(s, t * MS) for s, t in presses.items()]
    )
    return {"type": "contest", "label": label, **verdict.to_json()}


def play_night(journal: Journal) -> Session:
    """Two games of fastest hand in one night: Anne wins the first 2–1, Marc the second."""
    session = Session.open(journal)
    head = {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc"], "options": {"target": 2}}
    session.create_game({**head, "seats": {"Anne": 3, "Marc": 1}})
    session.submit(contest({"Anne": 250, "Marc": 253}, label="Round 1"))  # close: 3 ms
    session.submit(contest({"Anne": 50, "Marc": 320}, label="Round 2"))  # Anne's false start
    session.submit(contest({"Anne": 290, "Marc": 350}, label="Round 3"))
    session.create_game({**head, "players": ["Marc", "Anne"]})
    session.submit(contest({"Anne": 300, "Marc": 300}, ("Marc", "Anne"), "Round 1"))  # tie
    session.submit(contest({"Anne": 330, "Marc": 310}, ("Marc", "Anne"), "Round 2"))
    session.submit({"type": "undo"})  # taken back: not in the standings
    session.submit(contest({"Anne": 330, "Marc": 329}, ("Marc", "Anne"), "Round 2"))  # close: 1 ms
    session.submit(contest({"Anne": 500, "Marc": 280}, ("Marc", "Anne"), "Round 3"))
    return session


def test_games_join_the_open_night_and_a_closed_night_takes_no_more(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    nights = Nights(journal)
    assert nights.current() is None
    session = play_night(journal)
    (night,) = nights.all()
    assert night.open and night.name.startswith("Game night ")
    assert [g.night_id for g in journal.games()] == [night.id, night.id]
    nights.close()
    with pytest.raises(NightError, match="no night is open"):
        nights.close()
    session.create_game({"game": "fastest", "players": ["Bea"]})
    assert [n.id for n in nights.all()] == [1, 2] and journal.games()[-1].night_id == 2
    named = nights.open("  Chez   Anne ")
    assert named.name == "Chez Anne" and nights.open_id == named.id == 3


def test_night_settings_are_checked_and_kept(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    nights = Nights(journal)
    night = nights.open("Friday")
    assert nights.settings() == NightSettings()
    nights.set_settings(night.id, {"speech": "fr", "close_call_ms": 2})
    assert Nights(Journal(tmp_path / "j.sqlite3")).settings(night.id) == NightSettings("fr", True, 2.0)
    for bad in ({"speech": "de"}, {"tones": "yes"}, {"close_call_ms": 0}, {"volume": 3}):
        with pytest.raises(NightError):
            nights.set_settings(night.id, bad)
    with pytest.raises(NightError, match="no night 9"):
        nights.set_settings(9, {"speech": "en"})


def test_standings_after_two_games(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    play_night(journal)
    s = load_night(journal, 1).standings()
    anne, marc = {p.name: p for p in s.players}["Anne"], {p.name: p for p in s.players}["Marc"]
    assert [g.winners for g in s.games] == [("Anne",), ("Marc",)]
    assert (anne.wins, marc.wins, anne.played) == (1, 1, 2)
    assert anne.results == {1: {"score": 2, "won": True, "finished": True},
                            2: {"score": 0, "won": False, "finished": True}}  # fmt: skip
    assert anne.false_starts == 1 and marc.false_starts == 0
    # Reaction times: every counted press (the undone round is not counted, the false start neither).
    assert sorted(anne.reactions_ns) == [250 * MS, 290 * MS, 300 * MS, 330 * MS, 500 * MS]
    assert sorted(marc.reactions_ns) == [m * MS for m in (253, 280, 300, 320, 329, 350)]
    # Close calls under 5 ms: game 1 round 1 (Anne by 3 ms), the tie, game 2 round 2 (Marc by 1 ms).
    calls = [(c.game_id, c.label, c.first, c.margin_ns) for c in s.close_calls]
    assert calls == [(1, "Round 1", ("Anne",), 3 * MS), (2, "Round 1", ("Marc", "Anne"), 0),
                     (2, "Round 2", ("Marc",), 1 * MS)]  # fmt: skip
    assert (anne.close_wins, anne.close_losses, anne.ties) == (1, 1, 1)
    assert (marc.close_wins, marc.close_losses, marc.ties) == (1, 1, 1)
    assert standings(s.games, close_call_ns=2 * MS).close_calls[0].tie  # a tighter setting keeps the tie


def test_winners_of_reads_every_engines_summary_shape() -> None:
    assert winners_of({"finished": True, "winner": "Anne"}) == ("Anne",)
    assert winners_of({"finished": True, "winner": ["Anne", "Marc"]}) == ("Anne", "Marc")
    assert winners_of({"finished": True, "winner": "Anne and Marc", "winners": ["Anne", "Marc"]}) == (
        "Anne",
        "Marc",
    )
    assert winners_of({"finished": False, "winner": "Anne"}) == ()
    assert winners_of({"finished": True, "winner": None}) == ()


@given(
    st.dictionaries(
        st.sampled_from(["Anne", "Marc", "Carl", "Bea"]),
        st.lists(st.integers(0, 5_000 * MS), max_size=30),
        max_size=4,
    )
)
def test_the_reaction_picture_is_valid_svg_with_a_dot_per_press(reactions: dict[str, list[int]]) -> None:
    svg = reaction_svg(reactions)
    root = ET.fromstring(svg)
    circles = [c for c in root.iter("{http://www.w3.org/2000/svg}circle") if c.get("class") == "press"]
    assert len(circles) == sum(len(v) for v in reactions.values())
    right = 800 - 90
    assert all(150 <= float(c.get("cx", -1)) <= right + 0.01 for c in circles)
    assert axis_max_ms([t for v in reactions.values() for t in v]) >= 100


def test_the_tally_picture_draws_a_bar_per_count() -> None:
    root = ET.fromstring(tally_svg([("Anne", 2, 1, 0, 3), ("Marc", 0, 2, 0, 0)]))
    widths = [float(r.get("width", 0)) for r in root.iter("{http://www.w3.org/2000/svg}rect")][4:]
    assert len(widths) == 8 and widths[3] == max(widths) and widths[4] == 0


def test_the_night_file_replays_each_game_and_names_bad_lines(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    play_night(journal)
    night = load_night(journal, 1)
    lines = list(night_lines((h, e) for _, h, e in night.games))
    assert [start for start, _ in split_games(lines)] == [1, 5]
    folds = replay_games(lines)
    assert [f.summary()["scores"] for _, f in folds] == [{"Anne": 2, "Marc": 1}, {"Marc": 2, "Anne": 0}]
    broken = [*lines[:8], '{"type": "contest", "ranking": "nonsense"}', *lines[8:]]
    with pytest.raises(RecordError) as err:
        replay_games(broken)
    assert err.value.line == 9


def test_the_printable_page_is_one_a4_page(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    play_night(journal)
    night = load_night(journal, 1)
    page = render_page(night.night.name, night.night.started_at, night.standings())
    png = save_page(page, tmp_path / "night.png")
    with Image.open(png) as img:
        assert img.size == (1240, 1754)
        ink = ImageOps.invert(img.convert("L")).point([255 if v > 127 else 0 for v in range(256)]).getbbox()
        assert ink is not None and ink[3] - ink[1] > 800  # text from the title down past the tables
    pdf = save_page(page, tmp_path / "night.pdf").read_bytes()
    assert (
        pdf.startswith(b"%PDF")
        and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") >= 1
    )
    with pytest.raises(ValueError, match=r"\.png or \.pdf"):
        save_page(page, tmp_path / "night.gif")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)  # fmt: skip


def test_export_night_and_replay_on_the_command_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    play_night(Journal(data / "referee.sqlite3"))
    out = tmp_path / "night.jsonl"
    done = run_cli("export-night", "--data", str(data), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "2 games" in done.stdout
    done = run_cli("replay", str(out))
    assert done.returncode == 0, done.stderr
    games: list[dict[str, Any]] = json.loads(done.stdout)
    assert [(g["line"], g["winner"], g["scores"]) for g in games] == [
        (1, "Anne", {"Anne": 2, "Marc": 1}),
        (5, "Marc", {"Marc": 2, "Anne": 0}),
    ]
    assert run_cli("export-night", "--data", str(data), "--out", str(tmp_path / "n.pdf")).returncode == 0
    assert (tmp_path / "n.pdf").read_bytes().startswith(b"%PDF")
    bad = run_cli("export-night", "--data", str(tmp_path / "nowhere"), "--out", str(out))
    assert bad.returncode == 2 and "no journal" in bad.stderr
    bad = run_cli("export-night", "--data", str(data), "--night", "7", "--out", str(out))
    assert bad.returncode == 2 and "no night 7" in bad.stderr
    # A single game's record still replays to one object, as before.
    single = tmp_path / "one.jsonl"
    single.write_text("".join(line + "\n" for line in out.read_text().splitlines()[:4]))
    assert json.loads(run_cli("replay", str(single)).stdout)["winner"] == "Anne"
