"""Property tests over random legal games, played only through contest() and actions().

- every stone is accounted for after every event: 59 less what the variant takes out;
- winning stones never move;
- the Duel and the Trio end exactly when somebody holds seven winning stones (or no decision
  stone can be found any more), the Tower at seven tower stones or ten black stones, the
  Quartet at the first quartet; random games do end;
- with four or more players and the lord's order, the previous loser never duels next;
- a game replays from its record to the same result, and its picture is well-formed SVG.
"""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from test_dschamal_support import Table, position, random_game

from referee.games.dschamal.state import DschamalState
from referee.games.dschamal.stones import COLOURED, TOTAL_STONES, shape_of
from referee.record import record_lines, replay_lines

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def check_accounting(state: DschamalState) -> None:
    places = Counter(state.bag)
    for stones in (*state.front, *state.winning):
        places.update(stones)
    if state.decision:
        places[state.decision] += 1
    places.update(s for s in state.removed if "/" in s)
    assert places == Counter(COLOURED), "a coloured stone is missing or counted twice"
    assert state.bag_black + sum(state.black) == 10
    assert state.bag_camel != ("camel" in state.removed)
    in_play = state.bag_count() + sum(map(len, state.front)) + sum(map(len, state.winning)) + sum(state.black)
    in_play += bool(state.decision)
    assert in_play == TOTAL_STONES - len(state.removed)


def check_winning_never_move(before: DschamalState, after: DschamalState) -> None:
    for old, new in zip(before.winning, after.winning, strict=True):
        assert set(old) <= set(new), "a winning stone moved"


def check_end(state: DschamalState) -> None:
    if state.variant in ("duel", "trio"):
        reached = [p for p in state.players if len(state.winning_of(p)) >= 7]
        stalled = "no coloured stone" in state.end
        assert state.finished == (bool(reached) or stalled), (state.finished, reached, state.end)
        if reached:
            assert set(state.winners) <= set(reached)
    elif state.variant == "tower":
        done = any(len(t) >= 7 for t in state.front) or sum(state.black) >= 10
        assert state.finished == done
    else:
        done = any(max(Counter(map(shape_of, t)).values(), default=0) >= 4 for t in state.front)
        assert state.finished == done


def check_loser_sits_out(before: DschamalState, after: DschamalState) -> None:
    if after.contests == before.contests + 1 and not after.finished:
        loser = after.order.last_loser
        assert loser in before.order.next, "the loser took part in the duel"
        assert loser not in after.order.next, f"{loser} lost and duels again at once"


def play_and_check(seed: int, variant: str, n: int, start: Table | None = None, **options: Any) -> None:
    table, states = random_game(seed, variant, n, table=start, **options)
    assert table.state.finished, f"a random {variant} game did not end in {len(states)} states"
    lord_order = variant in ("duel", "tower") and n >= 4 and options.get("duel_order", "lord") == "lord"
    for before, after in itertools.pairwise(states):
        check_accounting(after)
        check_winning_never_move(before, after)
        check_end(after)
        if lord_order:
            check_loser_sits_out(before, after)
    check_accounting(states[0])
    if start is None:  # replay from the record, as `referee replay` does
        fold = replay_lines(record_lines(table.fold.header, table.events))
        assert fold.summary() == table.fold.summary()
    json.dumps(table.fold.summary())
    ET.fromstring(table.fold.engine.render_svg(table.state))


@given(seed=seeds, n=st.integers(3, 8), reading=st.sampled_from(["out-of-bag", "in-front"]))
def test_random_duel_games(seed: int, n: int, reading: str) -> None:
    play_and_check(seed, "duel", n, winning_stones=reading)


@given(
    seed=seeds,
    n=st.integers(4, 8),
    slower=st.sampled_from(["ignored", "forfeits"]),
    only=st.sampled_from(["reach", "nothing"]),
    false_start=st.sampled_from(["slower", "repeat"]),
)
def test_random_duel_games_with_options(seed: int, n: int, slower: str, only: str, false_start: str) -> None:
    play_and_check(
        seed, "duel", n, slower_camel_call=slower, loser_only_winning=only, false_start=false_start
    )


@given(
    seed=seeds,
    n=st.integers(3, 6),
    elsewhere=st.sampled_from(["give", "bag"]),
    two=st.sampled_from(["bag", "opponent"]),
)
def test_random_tower_games(seed: int, n: int, elsewhere: str, two: str) -> None:
    play_and_check(seed, "tower", n, tower_owned_elsewhere=elsewhere, tower_two_stones=two)


@given(seed=seeds, n=st.integers(3, 8), fastest=st.sampled_from(["bag", "winner"]))
def test_random_trio_games(seed: int, n: int, fastest: str) -> None:
    play_and_check(seed, "trio", n, trio_fastest_stone=fastest)


@given(seed=seeds, n=st.integers(3, 6))
def test_random_quartet_games(seed: int, n: int) -> None:
    play_and_check(seed, "quartet", n)


@given(seed=seeds, n=st.integers(3, 8), variant=st.sampled_from(["duel", "trio"]))
def test_random_games_from_an_empty_table(seed: int, n: int, variant: str) -> None:
    # Nobody holds a stone: decision stones, reaching again and empty-handed losers all the time.
    players = tuple(f"P{i}" for i in range(n))
    seats = players[-1:] + players[:2] if variant == "trio" else players[:2]
    play_and_check(seed, variant, n, start=position(variant, {}, next=seats, players=players))
