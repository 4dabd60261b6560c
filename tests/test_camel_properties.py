"""Property tests over random camel races, checked against an independent card-by-card walk.

The oracle below re-reads the rulebook in the simplest way a person would play it: walk the
camel one card at a time, note when it comes onto the marker card, and settle the landing card.
It shares no code with the engine's ``move``.
"""

from __future__ import annotations

import random
from typing import Any
from xml.etree import ElementTree

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.fold import Fold
from referee.games.base import GameHeader, choice_value
from referee.games.camel import ENGINE
from referee.games.camel.state import CamelState

NAMES = ("Anne", "Bea", "Carl", "Dora", "Emil")
SVG = "{http://www.w3.org/2000/svg}"


def oracle(
    layout: str, cards: dict[str, int], marker: int, mover: str, steps: int, reading: str
) -> tuple[dict[str, int], int]:
    """Cards (1–16) of the living camels and the marker card after `mover` moves `steps`."""
    cards = dict(cards)
    start = cards[mover]
    was_at_back = start == marker
    card, came_past_marker, caught = start, False, []
    for _ in range(steps):
        card = card % 16 + 1
        if card == marker and not was_at_back:
            came_past_marker = True
        if came_past_marker and (reading == "lapped" or card == marker):
            caught += [name for name, at in cards.items() if at == card and name != mover]
    if layout[card - 1] == "S":
        if was_at_back:
            return cards, marker  # back where it came from, with the stone
        behind = (marker - 2) % 16 + 1
        cards[mover] = behind
        return cards, behind  # caught camels are spared: nobody is thrown out
    cards[mover] = card
    if came_past_marker:
        for name in caught:
            del cards[name]
        return cards, card
    while marker not in cards.values():
        marker = marker % 16 + 1
    return cards, marker


def play_turn(state: CamelState, rng: random.Random) -> dict[str, Any]:
    """An event the console could send now, chosen at random among the legal ones."""
    actions = {a.type: a for a in ENGINE.actions(state)}
    if "stop" in actions and rng.random() < 0.2:
        return {"type": "stop"}
    flip = actions["flip"]
    event: dict[str, Any] = {"type": "flip"}
    for field in flip.fields:
        if field.required or rng.random() < 0.5:
            event[field.name] = choice_value(rng.choice(field.choices))
    return event


def check_invariants(state: CamelState, previous_out: list[str]) -> list[str]:
    s = ENGINE.summary(state)
    race = state.race
    assert race is not None
    living = [c.id for c in state.camels if race.pos[c.number] is not None]
    # No camel on two cards, none both racing and out.
    assert sorted(s["positions"]) == sorted(living)
    assert not set(living) & set(s["eliminated"])
    assert len(set(s["eliminated"])) == len(s["eliminated"])
    # Eliminations are never undone: what was out stays out, in the same order.
    assert s["eliminated"][: len(previous_out)] == previous_out
    # The marker stone lies on the card of the rearmost living camel.
    assert s["marker"] in s["positions"].values()
    assert s["caravan"][0]["place"] == 0 and s["caravan"][0]["card"] == s["marker"]
    assert all(0 <= c["place"] < 16 for c in s["caravan"])
    if race.winner is not None:
        alive_players = {state.camels[c].player for c in race.living()}
        assert alive_players == {race.winner}
        assert s["race_winner"] == race.winner and s["turn"] is None
    else:
        assert len({state.camels[c].player for c in race.living()}) >= 2
        assert s["turn"]["camel"] in living
    return s["eliminated"]


@given(
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
    reading=st.sampled_from(["lapped", "marker-card"]),
    tiles=st.sampled_from(["two-sided", "cards"]),
    oasis=st.sampled_from(["may", "must"]),
    play=st.integers(min_value=0, max_value=2**32),
)
def test_random_races_keep_every_rule(
    players: int, seed: int, reading: str, tiles: str, oasis: str, play: int
) -> None:
    rng = random.Random(play)  # the players' choices; hypothesis' own randoms are too slow here
    names = NAMES[:players]
    options = {"elimination": reading, "tiles": tiles, "oasis": oasis}
    state = ENGINE.new_game(GameHeader("camel", "standard", names, options))
    state = ENGINE.apply(state, {"type": "deal", "seed": seed}).state
    layout = state.layout
    assert layout is not None
    first_out = ""
    for number in (1, 2):  # two races: the tally and who starts the second
        start: dict[str, Any] = {"type": "start", "card": rng.randint(1, 16)}
        if number == 1:
            start["first"] = rng.choice(names)
        state = ENGINE.apply(state, start).state
        out: list[str] = []
        for _ in range(1500):
            race = state.race
            assert race is not None
            if race.over:
                break
            s = ENGINE.summary(state)
            before = dict(s["positions"]), s["marker"], s["turn"]["camel"]
            event = play_turn(state, rng)
            step = ENGINE.apply(state, event)
            state = step.state
            if event["type"] == "flip":
                expected = oracle(layout, before[0], before[1], before[2], event["shows"], reading)
                after = ENGINE.summary(state)
                assert (after["positions"], after["marker"]) == expected, (before, event, step.verdicts)
            out = check_invariants(state, out)
        race = state.race
        assert race is not None and race.winner is not None, "a race ends within 1500 moves"
        assert sum(state.wins) == number
        if number == 1:
            assert ENGINE.summary(state)["results"][0]["players_out"][0] == race.players_out[0]
            first_out = race.players_out[0]
        else:
            assert race.first == first_out


@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**32), play=st.integers(min_value=0, max_value=2**32))
def test_undo_takes_back_exactly_one_entry_and_nothing_else(seed: int, play: int) -> None:
    rng = random.Random(play)
    fold = Fold.start(GameHeader("camel", "standard", NAMES[:3], {}))
    fold.apply({"type": "deal", "seed": seed})
    fold.apply({"type": "start", "card": rng.randint(1, 16), "first": "Bea"})
    history = [fold.state]
    while fold.state.phase in ("turn", "oasis") and len(history) < 400:
        fold.apply(play_turn(fold.state, rng))
        history.append(fold.state)
    for expected in reversed(history[:-1]):
        fold.apply({"type": "undo"})
        assert fold.state == expected
    # An elimination comes back only through undo: replaying the same entries gives it again.


@settings(max_examples=20)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(2, 5),
    play=st.integers(min_value=0, max_value=2**32),
)
def test_the_picture_shows_every_camel_once_where_the_summary_has_it(
    seed: int, players: int, play: int
) -> None:
    rng = random.Random(play)
    state = ENGINE.new_game(GameHeader("camel", "standard", NAMES[:players], {}))
    state = ENGINE.apply(state, {"type": "deal", "seed": seed}).state
    state = ENGINE.apply(state, {"type": "start", "card": rng.randint(1, 16), "first": NAMES[0]}).state
    for move in range(400):
        if state.phase not in ("turn", "oasis"):
            break
        state = ENGINE.apply(state, play_turn(state, rng)).state
        if move % 7:
            continue
        svg = ENGINE.render_svg(state)
        assert svg == ENGINE.render_svg(state)  # a pure function of state
        tree = ElementTree.fromstring(svg)
        camels = [g for g in tree.iter(f"{SVG}g") if "camel" in (g.get("class") or "").split()]
        assert sorted(g.get("data-camel") or "" for g in camels) == sorted(c.id for c in state.camels)
        s = ENGINE.summary(state)
        on_cards = {
            g.get("data-camel"): int(g.get("data-card") or 0)
            for g in camels
            if g.get("data-status") == "racing"
        }
        assert on_cards == s["positions"]
        marker = next(g for g in tree.iter(f"{SVG}g") if g.get("id") == "marker")
        assert int(marker.get("data-card") or 0) == s["marker"]
