"""Property tests: a generic form console plays random games from `actions()` and the buttons.

Whatever is entered, tokens are conserved (pool + centre + players = total), no score goes
negative, refused input leaves the state untouched, every offered action with legal values is
accepted (only a typed word or a vote count can be refused), and the record replays to the
same result.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import event as label_example
from hypothesis import given
from hypothesis import strategies as st

from referee.fold import Fold
from referee.games.base import Action, EventError, GameHeader, choice_value
from referee.record import record_lines, replay_lines

VOCABULARY = (
    "Bono", "Brel", "Bravo", "Brejnev", "Obama", "Chuck", "éléphant", "éléphanteau", "chat",
    "château", "Rome", "Avril", "Vador", "Zorro", "Lætitia", "Straße", "orage", "radis", "vélo",
    "arbre", "boa", "Oslo", "gin", "Bo\u200bno", "😀", "7 nains", "",
)  # fmt: skip
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
WEIGHTS = {"end_game": 1, "end_round": 2, "dice": 10, "word": 30}  # others 10: play mostly words

games = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(("classic", "unlimited", "open-themes")),
        "players": st.integers(2, 6),
        "options": st.fixed_dictionaries(
            {},
            optional={
                "pool": st.integers(1, 40),
                "black_penalty": st.sampled_from(("up-to-4", "4-or-nothing")),
                "theme_ruling": st.sampled_from(("scorekeeper", "majority")),
                "close_themes": st.sampled_from(("everyone", "speaker")),
                "black_centre": st.sampled_from(("keep", "add")),
                "black_penalty_to": st.sampled_from(("supply", "centre")),
                "last_silent": st.sampled_from(("auto", 0, 1)),
            },
        ),
    }
)


def _fill(action: Action, data: st.DataObject) -> dict[str, Any]:
    """What a form-based console would post for this action, with values from its legal choices."""
    event: dict[str, Any] = {"type": action.type, **action.fixed}
    for field in action.fields:
        if not field.required and data.draw(st.booleans()):
            continue
        if field.kind == "text":
            event[field.name] = data.draw(st.sampled_from(VOCABULARY))
        elif field.kind == "bool":
            event[field.name] = data.draw(st.booleans())
        elif field.kind == "seats":
            event[field.name] = data.draw(
                st.permutations(field.choices).flatmap(
                    lambda p: st.sampled_from([p[:k] for k in range(len(p) + 1)])
                )
            )
            event[field.name] = list(event[field.name])
        else:
            assert field.choices, f"{action.type}.{field.name} offers no choices"
            event[field.name] = choice_value(data.draw(st.sampled_from(field.choices)))
    return event


def _contest(seats: tuple[str, ...], data: st.DataObject) -> dict[str, Any]:
    pressed = data.draw(st.permutations(seats))[: data.draw(st.integers(0, len(seats)))]
    ranking: list[list[str]] = []
    for seat in pressed:
        if ranking and data.draw(st.integers(0, 5)) == 0:
            ranking[-1].append(seat)  # a tie
        else:
            ranking.append([seat])
    return {
        "type": "contest",
        "ranking": ranking,
        "margins_ns": [20_000_000] * max(len(ranking) - 1, 0),
        "no_press": [s for s in seats if s not in pressed],
        "clock": "mock",
    }


def _weighted(moves: list[tuple[int, Any]], data: st.DataObject) -> Any:
    ticket = data.draw(st.integers(0, sum(w for w, _ in moves) - 1))
    for weight, move in moves:
        if ticket < weight:
            return move
        ticket -= weight
    raise AssertionError("unreachable")


@given(games, st.data())
def test_random_console_games_keep_every_invariant(game: dict[str, Any], data: st.DataObject) -> None:
    header = GameHeader("djam", game["variant"], NAMES[: game["players"]], game["options"])
    fold = Fold.start(header)
    accepted: list[dict[str, Any]] = []
    for _ in range(40 + data.draw(st.integers(0, 40))):
        engine, state = fold.engine, fold.state
        offered = list(engine.actions(state))
        request = engine.contest(state)
        if request is not None:
            assert request.needs == "each" and request.call == "Djam!" and request.call_delay == "none"
            assert set(request.seats) <= set(state.eligible()) and not set(request.seats) & set(state.queue)
        if state.finished:
            assert offered == [] and request is None
            break
        moves: list[tuple[int, Any]] = [(WEIGHTS.get(a.type, 10), a) for a in offered]
        if request is not None:
            moves.append((10, request))
        if fold.applied:  # something stands that undo can take back
            moves.append((1, "undo"))
        move = _weighted(moves, data)
        if isinstance(move, Action):
            event = _fill(move, data)
        elif move == "undo":
            event = {"type": "undo"}
        else:
            event = _contest(move.seats, data)
        try:
            step = fold.check(event)
        except EventError:
            assert event["type"] in ("word", "vote"), f"an offered action was refused: {event}"
            assert fold.state is state
            continue
        fold.commit(event, step)
        accepted.append(event)
        s = fold.state
        assert s.pool + s.centre + sum(s.tokens) == s.settings.total
        assert min(s.tokens) >= 0 and s.pool >= 0 and s.centre >= 0
        assert len(set(s.queue)) == len(s.queue) and set(s.queue) <= set(s.eligible())
        assert all(v.rule.id and v.summary for v in step.verdicts)
    summary = fold.summary()
    label_example(f"rounds played: {min(summary['round'] - 1, 3)}")
    label_example("finished" if summary["finished"] else "still playing")
    json.dumps(summary)
    if summary["finished"]:
        assert summary["winner"] in summary["leaders"] or summary["winner"] == summary["leaders"]
    ET.fromstring(fold.engine.render_svg(fold.state))
    replayed = replay_lines(record_lines(header, accepted))
    assert replayed.summary() == summary


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 9),
    st.text(max_size=3),
    st.lists(st.text(max_size=2), max_size=3),
)


@given(
    st.fixed_dictionaries(
        {"type": st.sampled_from(("dice", "word", "order", "pass", "root", "vote", "contest"))},
        optional={
            key: junk
            for key in ("green", "white", "yellow", "red", "blue", "colour", "theme", "player", "word", "noun",
                        "fits", "root", "order", "same", "for", "against", "ranking")
        },
    ),
    st.sampled_from(("classic", "unlimited", "open-themes")),
    st.booleans(),
)  # fmt: skip
def test_malformed_events_are_refused_cleanly(event: dict[str, Any], variant: str, rolled: bool) -> None:
    """Any shape of event either applies or raises EventError; nothing else escapes, nothing changes."""
    fold = Fold.start(GameHeader("djam", variant, ("Ann", "Bob", "Cat"), {}))
    if rolled:
        roll = {"green": "B", "white": "O", "yellow": "R", "red": "V", "blue": "A", "colour": "green"}
        fold.apply({"type": "dice", **roll, **({} if variant == "open-themes" else {"theme": 1})})
    before = fold.state
    try:
        step = fold.engine.apply(before, event)
    except EventError as exc:
        assert str(exc)
        assert fold.state is before
    else:
        s = step.state
        assert s.pool + s.centre + sum(s.tokens) == s.settings.total
