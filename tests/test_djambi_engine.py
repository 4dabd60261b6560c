"""The Djambi engine through the referee's contract: events, verdicts, summary, console, SVG,
records replayed with ``python -m referee replay``."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.fold import Fold
from referee.games import engine_for
from referee.games.base import EventError, GameHeader, RuleViolation
from referee.games.djambi import ENGINE, DjambiState, Position

PLAYERS = ("Anne", "Marc", "Zoé", "Louis")
RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).parent.parent


def new(players: tuple[str, ...] = PLAYERS, variant: str = "four", **options: object) -> DjambiState:
    return ENGINE.new_game(GameHeader("djambi", variant, players, options))


def play(state: DjambiState, *moves: str) -> DjambiState:
    for move in moves:
        state = ENGINE.apply(state, {"type": "move", "move": move}).state
    return state


def test_the_engine_is_found_by_name() -> None:
    assert engine_for("djambi") is ENGINE
    assert ENGINE.contest(new()) is None


@pytest.mark.parametrize(
    ("players", "variant", "options", "message"),
    [
        (PLAYERS[:3], "four", {}, "use the variant three"),
        (PLAYERS, "three", {}, "needs 3 players"),
        (PLAYERS, "four", {"own_kill": "sometimes"}, "cannot be 'sometimes'"),
        (PLAYERS, "four", {"master_moves": "yes"}, "cannot be 'yes'"),
        (PLAYERS, "four", {"teams": True}, "unknown Djambi option"),
    ],
)
def test_new_game_refuses_bad_headers(
    players: tuple[str, ...], variant: str, options: dict, message: str
) -> None:
    with pytest.raises(EventError, match=message):
        ENGINE.new_game(GameHeader("djambi", variant, players, options))


def test_a_move_gives_a_verdict_and_a_new_state_without_touching_the_old() -> None:
    state = new()
    step = ENGINE.apply(state, {"type": "move", "move": "c1-e1", "player": "Anne"})
    assert state.plies == 0 and state.position == Position.initial()
    assert step.state.plies == 1 and step.state.last_move == "c1-e1"
    (verdict,) = step.verdicts
    assert verdict.rule.id == "djambi.militant.move" and verdict.summary == "Anne: Red's militant c1–e1"
    assert verdict.evidence["after"] == step.state.position.fen()
    kill = ENGINE.apply(step.state, {"type": "move", "move": "g1-e1@f2"})
    assert "kills Red's militant; the corpse is placed on f2" in kill.verdicts[0].summary


def test_illegal_moves_are_refused_with_the_rule_in_words() -> None:
    state = new()
    with pytest.raises(RuleViolation) as info:
        ENGINE.apply(state, {"type": "move", "move": "c1-c4"})
    assert "only 1 or 2 squares" in str(info.value) and "djambi.md §1.6 Militant" in str(info.value)
    assert info.value.rule is not None and info.value.rule.id == "djambi.militant.move"
    with pytest.raises(RuleViolation, match="it is Red's turn \\(Anne\\), not Marc's"):
        ENGINE.apply(state, {"type": "move", "move": "c1-e1", "player": "Marc"})
    with pytest.raises(EventError, match="from-to"):
        ENGINE.apply(state, {"type": "move", "move": "c1 to e1"})
    with pytest.raises(EventError, match='needs "move"'):
        ENGINE.apply(state, {"type": "move"})
    with pytest.raises(EventError, match="not 'contest'"):
        ENGINE.apply(state, {"type": "contest"})


def test_summary_for_people_and_the_console() -> None:
    summary = ENGINE.summary(play(new(), "c1-e1", "g1-e1@f2"))
    assert summary["scores"] == {"Anne": 8, "Marc": 9, "Zoé": 9, "Louis": 9}
    assert summary["winner"] is None and summary["finished"] is False
    assert summary["turn"] == {"party": "yellow", "player": "Zoé"} and summary["ruler"] is None
    assert summary["headline"] == "Zoé (Yellow) to move"  # the display's big line
    assert summary["last_move"] == "g1-e1@f2"
    assert summary["position"].split()[1:] == ["y", "y", "-", "rbyg", "-"]
    assert [p["status"] for p in summary["parties"]] == ["playing"] * 4
    json.dumps(summary)  # JSON-able


def test_legal_moves_grouped_by_piece_destination_and_follow_up() -> None:
    """What a click-by-click console needs: piece, destination, then exit / placement / victim."""
    tree = ENGINE.summary(new())["legal"]
    assert tree["count"] == 30 and set(tree["pieces"]) == {"c1", "c2", "a3", "b3", "c3"}
    assert tree["pieces"]["c3"]["piece"] == "rN"
    assert tree["pieces"]["c3"]["to"]["f6"] == {"steps": [], "moves": ["c3-f6"]}
    kill = ENGINE.summary(play(new(), "c1-e1"))["legal"]["pieces"]["g1"]["to"]["e1"]
    # 45 empty squares, less the maze, plus the square g1 the militant leaves
    assert kill["steps"] == ["place"] and "g1-e1@g1" in kill["moves"] and len(kill["moves"]) == 45
    maze = Position.build(
        {"a1": "rC", "i9": "yC", "a9": "gC", "e5": "bC", "c3": "rA", "g3": "rD", "a5": "rR", "e6": "yM"}
    )
    to_maze = ENGINE.summary(DjambiState(PLAYERS, maze))["legal"]["pieces"]
    assert to_maze["g3"]["to"]["e5"]["steps"] == ["exit", "place"]
    assert to_maze["c3"]["to"]["e5"]["steps"] == ["exit"]
    assert to_maze["a5"]["to"]["d5"] == {"steps": ["victim"], "moves": ["a5-d5", "a5-d5+e5"]}


def test_actions_offer_the_legal_moves_and_the_draw() -> None:
    state = new()
    move, offer = ENGINE.actions(state)
    assert move.type == "move" and len(move.fields[0].choices) == 30
    assert offer.type == "draw_offer" and offer.fields[0].choices == PLAYERS


def test_a_draw_needs_every_surviving_player() -> None:
    """Register A19: unanimous agreement; an offer lapses with the next move."""
    state = new()
    state = ENGINE.apply(state, {"type": "draw_offer", "player": "Anne"}).state
    assert [a.type for a in ENGINE.actions(state)] == ["move", "draw_accept", "draw_decline"]
    assert play(state, "c1-e1").draw_offer == frozenset()
    for name in ("Marc", "Zoé"):
        state = ENGINE.apply(state, {"type": "draw_accept", "player": name}).state
    step = ENGINE.apply(state, {"type": "draw_accept", "player": "Louis"})
    assert step.verdicts[-1].summary == "every surviving player agrees: the game is drawn"
    summary = ENGINE.summary(step.state)
    assert summary["finished"] and summary["result"] == "draw" and summary["winner"] is None
    with pytest.raises(RuleViolation, match="game is over"):
        play(step.state, "c1-e1")
    with pytest.raises(EventError, match="no draw offer"):
        ENGINE.apply(new(), {"type": "draw_accept", "player": "Anne"})
    with pytest.raises(RuleViolation, match="draws=none"):
        ENGINE.apply(new(draws="none"), {"type": "draw_offer", "player": "Anne"})
    with pytest.raises(EventError, match="unknown player"):
        ENGINE.apply(new(), {"type": "draw_offer", "player": "Zorro"})


def test_the_fold_undoes_a_move() -> None:
    fold = Fold.start(GameHeader("djambi", "four", PLAYERS))
    fold.apply({"type": "move", "move": "c1-e1"})
    fold.apply({"type": "undo"})
    assert fold.state.position == Position.initial()


def test_the_board_picture() -> None:
    state = play(new(), "c3-c6", "g2-e4", "h7-h5", "a7-a5", "b2-f6", "i3-i4", "h5-h4", "a5-a4", "a1-e5")
    svg = ENGINE.render_svg(state)
    root = ET.fromstring(svg)
    squares = [e for e in root.iter() if e.get("data-square") and e.tag.endswith("rect")]
    assert len(squares) == 81 and {e.get("id") for e in squares} >= {"sq-a1", "sq-e5", "sq-i9"}
    assert 'class="maze"' in svg and 'class="ruler"' in svg and "Red rules the maze" in svg
    assert 'class="last-move from' in svg and 'class="last-move to' in svg
    pieces = [e for e in root.iter() if (e.get("class") or "").startswith("piece")]
    assert len(pieces) == 36
    corpse = play(new(), "c1-e1", "g1-e1@f2")
    assert 'data-piece="xx"' in ENGINE.render_svg(corpse) and 'class="last-move place' in ENGINE.render_svg(
        corpse
    )


def _replay(name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(RECORDS / name)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip


def test_records_replay_through_the_command_line() -> None:
    kills = _replay("djambi-opening-kills.jsonl")
    assert kills.returncode == 0, kills.stderr
    summary = json.loads(kills.stdout)
    assert summary["position"].count("xx") == 4 and summary["turn"]["player"] == "Marc"
    assert sum("kills" in v["summary"] for v in summary["verdicts"]) == 4

    maze = json.loads(_replay("djambi-maze-seizure.jsonl").stdout)
    assert maze["ruler"] == {"party": "red", "player": "Anne"}
    assert "Red is in power: its chief holds the maze" in [v["summary"] for v in maze["verdicts"]]

    reporter = json.loads(_replay("djambi-reporter-kill.jsonl").stdout)
    assert any(v["rule"]["id"] == "djambi.reporter.kill" for v in reporter["verdicts"])
    assert reporter["position"].startswith("gCgAgM2yM1yAyC/gRgDgM3yMyDyR/1gMgN3yNyMyM/xx8/rR8")

    three = json.loads(_replay("djambi-three-hostage.jsonl").stdout)
    assert three["parties"][3]["status"] == "hostage" and set(three["scores"]) == {"Anne", "Marc", "Zoé"}


def test_an_illegal_record_names_the_line_and_the_rule() -> None:
    result = _replay("djambi-illegal-militant-vs-ruler.jsonl")
    assert result.returncode == 1
    assert "line 17: illegal move e4-e5@e4: the militant may not kill the chief in power" in result.stderr
    assert "djambi.md §1.5, §1.6 Militant" in result.stderr


def _state(
    pieces: dict[str, str], turn: str = "r", control: str = "rbyg", eliminated: str = "", **options: object
) -> DjambiState:
    return DjambiState(
        PLAYERS, Position.build(pieces, turn, control=control, eliminated=eliminated, options=options)
    )


CORNERS = {"a1": "rC", "i1": "bC", "i9": "yC", "a9": "gC"}


def test_verdicts_name_the_rule_of_each_consequence() -> None:
    """One verdict per consequence: the move, power, elimination and satellites (§1.5, §1.9)."""
    state = _state({**CORNERS, "i1": "bM", "e5": "bC", "c3": "rA"})
    step = ENGINE.apply(state, {"type": "move", "move": "c3-e5>b2"})
    assert [v.rule.id for v in step.verdicts] == [
        "djambi.maze.act-and-leave",
        "djambi.maze.power",
        "djambi.satellites",
    ]
    assert step.verdicts[0].summary == (
        "Anne: Red's assassin c3 enters the maze, kills Blue's chief in the maze, leaves to b2; the corpse lies on c3"
    )
    assert step.verdicts[1].summary == "Blue has lost power"
    assert (
        step.verdicts[2].summary == "Blue's chief is dead: Marc is out; Red takes Blue's pieces as satellites"
    )
    assert ENGINE.summary(step.state)["parties"][1] == {
        "party": "blue", "player": "Marc", "status": "eliminated", "controlled_by": "red", "controls": [], "pieces": 0,
    }  # fmt: skip


def test_verdicts_for_encirclement_the_ruler_claiming_neutrals_and_skips() -> None:
    state = _state({**CORNERS, "h1": "xx", "h2": "xx", "c3": "rN", "c5": "xx", "e2": "bM"})
    step = ENGINE.apply(state, {"type": "move", "move": "c3-c5@i2"})
    assert step.verdicts[-1].rule.id == "djambi.encirclement"
    assert "Blue's chief is encircled" in step.verdicts[-1].summary
    claim = _state(
        {"a1": "xx", "c3": "rC", "e2": "bM", "i9": "yC", "a9": "gC"}, control="r.yg", eliminated="b"
    )
    step = ENGINE.apply(claim, {"type": "move", "move": "c3-e5"})
    assert "Red rules the maze and takes Blue's neutral pieces as satellites" in [
        v.summary for v in step.verdicts
    ]
    boxed = {"a8": "gM", "b8": "gM", "b9": "gM", "a7": "xx", "b7": "xx", "c7": "xx", "c8": "xx", "c9": "xx"}
    skip = _state({**CORNERS, **boxed}, turn="y", encircle="literal8")
    step = ENGINE.apply(skip, {"type": "move", "move": "i9-i8"})
    assert step.verdicts[-1].summary == "Green (Louis) has no legal move and is skipped"
    assert ENGINE.summary(step.state)["turn"]["player"] == "Anne"


def test_victory_ends_the_game() -> None:
    state = _state(
        {"a1": "rC", "c5": "bC", "c3": "rM", "i9": "xx", "a9": "xx"}, control="rbrr", eliminated="yg"
    )
    step = ENGINE.apply(state, {"type": "move", "move": "c3-c5@c3"})
    assert step.verdicts[-1].rule.id == "djambi.victory"
    assert step.verdicts[-1].summary == "Red's chief is the last alive: Anne wins"
    summary = ENGINE.summary(step.state)
    assert summary["winner"] == "Anne" and summary["finished"] and summary["result"] == "win"
    assert ENGINE.actions(step.state) == () and summary["legal"]["count"] == 0


def test_follow_up_steps_follow_the_maze_order_option() -> None:
    """Register A5: with place_then_exit the console asks for the placement first."""
    pieces = {**CORNERS, "i1": "bM", "e5": "bC", "g3": "rD"}
    default = ENGINE.summary(_state(pieces))["legal"]["pieces"]["g3"]["to"]["e5"]["steps"]
    placed_first = ENGINE.summary(_state(pieces, maze_order="place_then_exit"))["legal"]["pieces"]["g3"][
        "to"
    ]["e5"]
    assert default == ["exit", "place"] and placed_first["steps"] == ["place", "exit"]
