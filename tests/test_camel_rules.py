"""Every rule sentence of camel-race.txt about a turn, the marker stone and elimination, as a test.

Positions are set up on one ring, entered clockwise from the top-left corner (card numbers are
the ones people use, 1–16):

    1 O   2 O   3 D   4 D   5 S   6 D   7 O   8 D
    9 D  10 S  11 D  12 O  13 D  14 D  15 S  16 D
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from referee.games.base import GameHeader, RuleViolation, Step, choice_value
from referee.games.camel import ENGINE, rules
from referee.games.camel.state import CamelState, legal_tiles
from referee.games.camel.tiles import parse_tile

LAYOUT = "OODDSDODDSDODDSD"


def at(
    players: Sequence[str],
    cards: Mapping[str, int],
    marker: int,
    turn: str,
    options: Mapping[str, Any] | None = None,
    out: Sequence[str] = (),
) -> CamelState:
    """A race in progress: camels on `cards` (camel id → card 1–16), the stone on `marker`,
    `turn` to play; camels in `out` were eliminated before, in that order."""
    state = ENGINE.new_game(GameHeader("camel", "standard", tuple(players), dict(options or {})))
    state = ENGINE.apply(state, {"type": "layout", "cards": LAYOUT}).state
    state = ENGINE.apply(state, {"type": "start", "card": marker, "first": players[0]}).state
    race = state.race
    assert race is not None
    by_id = {c.id: c for c in state.camels}
    assert set(cards) | set(out) == set(by_id), "place or eliminate every camel"
    pos = [cards[c.id] - 1 if c.id in cards else None for c in state.camels]
    out_numbers = tuple(by_id[name].number for name in out)
    players_out = tuple(
        dict.fromkeys(
            by_id[name].player
            for name in out
            if all(pos[c.number] is None for c in state.camels if c.player == by_id[name].player)
        )
    )
    race = replace(
        race,
        pos=tuple(pos),
        marker=marker - 1,
        turn=race.order.index(by_id[turn].number),
        out=out_numbers,
        players_out=players_out,
        marker_left_start=True,
    )
    return replace(state, races=(race,))


def flip(state: CamelState, shows: int, tile: Any = None, **extra: Any) -> Step[CamelState]:
    """Turn `tile` (or the first legal tile) to show `shows`."""
    if tile is None:
        tile = list(divmod(legal_tiles(state)[0], 6))
        tile = [tile[0] + 1, tile[1] + 1]
    return ENGINE.apply(state, {"type": "flip", "tile": tile, "shows": shows, **extra})


def summary(state: CamelState) -> dict[str, Any]:
    return ENGINE.summary(state)


def rule_ids(step: Step[CamelState]) -> list[str]:
    return [v.rule.id for v in step.verdicts]


THREE = ("Anne", "Bea", "Carl")
FOUR = ("Anne", "Bea", "Carl", "Dora")


# --- a turn ------------------------------------------------------------------------------------


def test_the_number_turned_moves_the_camel_that_many_cards_clockwise() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne")
    step = flip(state, 1)
    assert summary(step.state)["positions"]["Anne"] == 4
    assert step.verdicts[0].rule == rules.DESERT
    assert step.verdicts[0].summary == "tile (1, 1) shows 1: Anne moves 1 to card 4 (desert): turn over"
    assert step.verdicts[0].evidence["steps"] == 1 and step.verdicts[0].evidence["tile"] == [1, 1]


def test_clockwise_wraps_from_card_16_to_card_1() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 14}, marker=3, turn="Carl")
    step = flip(state, 3)
    assert summary(step.state)["positions"]["Carl"] == 1


def test_landing_on_a_desert_card_ends_the_turn() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    step = flip(state, 3)  # 6 → 9, desert
    assert rule_ids(step)[0] == "camel.card.desert"
    assert summary(step.state)["turn"]["camel"] == "Carl"


def test_landing_on_an_oasis_turns_another_tile_and_chains() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    step = flip(state, 1, [1, 1])  # 6 → 7, oasis
    assert rule_ids(step)[0] == "camel.card.oasis"
    s = summary(step.state)
    assert s["turn"] == {"player": "Bea", "camel": "Bea", "card": 7, "on_oasis": True, "turn": 1}
    assert s["headline"] == "Bea is on an oasis: flip again"
    step = flip(step.state, 5, [1, 2])  # 7 → 12, a further oasis
    assert summary(step.state)["turn"]["camel"] == "Bea"
    step = flip(step.state, 1, [1, 3])  # 12 → 13, desert: the chain ends
    assert summary(step.state)["positions"]["Bea"] == 13
    assert summary(step.state)["headline"] == "Carl: flip a tile"
    assert summary(step.state)["turn"]["camel"] == "Carl"


def test_a_tile_turned_by_the_last_player_is_refused_with_the_rule() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne")
    state = flip(state, 1, [2, 4]).state  # Anne turns (2, 4)
    assert [2, 4] not in [choice_value(c) for c in ENGINE.actions(state)[0].fields[0].choices]
    with pytest.raises(RuleViolation) as caught:
        flip(state, 2, [2, 4])
    assert caught.value.rule == rules.ONE_TURN_BETWEEN
    assert "(2, 4)" in str(caught.value) and "last player" in str(caught.value)
    state = flip(state, 2, [3, 3]).state  # Bea turns another tile
    assert flip(state, 2, [2, 4]).state  # one turn has come between: Carl may turn (2, 4)


def test_every_tile_of_the_last_players_oasis_chain_is_barred() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    state = flip(state, 1, [1, 1]).state  # oasis
    state = flip(state, 2, [1, 2]).state  # 7 → 9 desert, turn over
    for tile in ([1, 1], [1, 2]):
        with pytest.raises(RuleViolation):
            flip(state, 3, tile)
    assert summary(state)["barred_tiles"] == [[1, 1], [1, 2]]


def test_a_tile_already_turned_in_this_oasis_chain_is_refused() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    state = flip(state, 1, [1, 1]).state  # oasis: Bea turns again
    with pytest.raises(RuleViolation) as caught:
        flip(state, 5, [1, 1])
    assert caught.value.rule == rules.ONE_TURN_BETWEEN
    assert "this turn" in str(caught.value)


def test_a_camel_on_an_oasis_may_end_its_turn_there() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    state = flip(state, 1).state
    assert [a.type for a in ENGINE.actions(state)] == ["flip", "stop", "end"]
    step = ENGINE.apply(state, {"type": "stop"})
    assert step.verdicts[0].rule == rules.OASIS_STOP
    assert summary(step.state)["turn"]["camel"] == "Carl"
    assert summary(step.state)["positions"]["Bea"] == 7


def test_with_oasis_must_the_camel_turns_again() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea", options={"oasis": "must"})
    state = flip(state, 1).state
    assert [a.type for a in ENGINE.actions(state)] == ["flip", "end"]
    with pytest.raises(RuleViolation):
        ENGINE.apply(state, {"type": "stop"})


def test_stop_is_refused_off_an_oasis() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    with pytest.raises(ValueError, match="only on an oasis"):
        ENGINE.apply(state, {"type": "stop"})


def test_a_snake_puts_the_camel_one_card_behind_the_rearmost_and_it_becomes_the_rearmost() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    step = flip(state, 4)  # 6 → 10, snake
    assert step.verdicts[0].rule == rules.SNAKE
    s = summary(step.state)
    assert s["positions"]["Bea"] == 2 and s["marker"] == 2
    assert [c["camel"] for c in s["caravan"]] == ["Bea", "Anne", "Carl"]
    assert s["turn"]["camel"] == "Carl"  # placed on the oasis on card 2, not landed: turn over


# --- the marker stone ------------------------------------------------------------------------------


def test_the_last_camel_to_leave_the_start_card_takes_the_stone_to_the_rearmost() -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    state = ENGINE.apply(state, {"type": "layout", "cards": LAYOUT}).state
    state = ENGINE.apply(state, {"type": "start", "card": 3, "first": "Anne"}).state
    state = flip(state, 1).state  # Anne 3 → 4
    assert summary(state)["marker"] == 3
    state = flip(state, 3).state  # Bea 3 → 6
    assert summary(state)["marker"] == 3
    step = flip(state, 5)  # Carl, the last to leave, 3 → 8
    assert summary(step.state)["marker"] == 4
    assert rules.MARKER_START in [v.rule for v in step.verdicts]
    assert summary(step.state)["caravan"][0] == {"camel": "Anne", "card": 4, "place": 0}


def test_when_the_rearmost_moves_the_stone_follows_to_the_new_rearmost() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne")
    step = flip(state, 5)  # Anne 3 → 8: Bea on 6 is now the rearmost
    assert summary(step.state)["marker"] == 6
    assert rules.MARKER_FOLLOWS in [v.rule for v in step.verdicts]
    step = flip(state, 1)  # Anne 3 → 4: still the rearmost, the stone goes with her
    assert summary(step.state)["marker"] == 4


def test_the_stone_stays_while_another_camel_is_still_at_the_back() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 3, "Carl": 8}, marker=3, turn="Anne")
    step = flip(state, 1)
    assert summary(step.state)["marker"] == 3
    assert [v.rule for v in step.verdicts] == [rules.DESERT]


def test_a_camels_place_is_its_distance_from_the_marker_not_the_cards_it_travelled() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 16}, marker=3, turn="Carl")
    state = flip(state, 4).state  # Carl overhauls Anne: out, Carl travelled furthest but is rearmost
    s = summary(state)
    assert s["caravan"] == [{"camel": "Carl", "card": 4, "place": 0}, {"camel": "Bea", "card": 6, "place": 2}]


# --- elimination -------------------------------------------------------------------------------------


def test_reaching_the_rearmost_eliminates_it() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 16}, marker=3, turn="Carl")
    step = flip(state, 3)  # 16 → 3: lands on the marker card
    assert step.verdicts[1].rule == rules.ELIMINATION
    assert "reaches" in step.verdicts[1].summary
    s = summary(step.state)
    assert s["eliminated"] == ["Anne"] and "Anne" not in s["positions"]
    assert s["marker"] == 3 and s["caravan"][0]["camel"] == "Carl"


def test_overhauling_the_rearmost_eliminates_it_and_the_stone_moves_to_the_overhauler() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 16}, marker=3, turn="Carl")
    step = flip(state, 4)  # 16 → 4, past the marker card
    assert "overhauls" in step.verdicts[1].summary
    s = summary(step.state)
    assert s["eliminated"] == ["Anne"] and s["marker"] == 4
    assert s["caravan"][0]["camel"] == "Carl"


def test_several_camels_on_the_marker_card_are_all_eliminated() -> None:
    state = at(FOUR, {"Anne": 3, "Dora": 3, "Bea": 6, "Carl": 16}, marker=3, turn="Carl")
    step = flip(state, 3)
    # Both out; Dora's turn comes before Anne's after Carl's, so Dora counts as out first.
    assert summary(step.state)["eliminated"] == ["Dora", "Anne"]
    assert summary(step.state)["players_out"] == ["Dora", "Anne"]


def test_the_overhauler_is_the_rearmost_and_can_be_removed_in_its_turn() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 14, "Carl": 1}, marker=3, turn="Bea")
    state = flip(state, 6, [5, 6]).state  # Bea 14 → 4 overhauls Anne: Bea is the rearmost on 4
    assert summary(state)["caravan"][0]["camel"] == "Bea"
    step = flip(state, 3, [5, 5])  # Carl 1 → 4 reaches Bea
    assert summary(step.state)["eliminated"] == ["Anne", "Bea"]
    assert summary(step.state)["race_winner"] == "Carl"


def test_lapped_reading_eliminates_every_camel_passed_after_the_marker_card() -> None:
    state = at(FOUR, {"Anne": 3, "Bea": 4, "Carl": 16, "Dora": 9}, marker=3, turn="Carl")
    step = flip(state, 6)  # 16 → 6: past the marker card (Anne) and then Bea
    verdict = step.verdicts[1]
    assert verdict.rule == rules.ELIMINATION
    assert verdict.evidence["eliminated"] == ["Anne", "Bea"]
    assert verdict.evidence["reading"] == "lapped"
    s = summary(step.state)
    assert s["eliminated"] == ["Anne", "Bea"] and s["marker"] == 6


def test_marker_card_reading_eliminates_only_the_camels_on_the_marker_card() -> None:
    state = at(
        FOUR,
        {"Anne": 3, "Bea": 4, "Carl": 16, "Dora": 9},
        marker=3,
        turn="Carl",
        options={"elimination": "marker-card"},
    )
    step = flip(state, 6)
    verdict = step.verdicts[1]
    assert verdict.evidence["eliminated"] == ["Anne"]
    assert verdict.evidence["passed_and_staying"] == ["Bea"]
    s = summary(step.state)
    # Bea, passed but not eliminated, is now at the front of the caravan, two cards behind Carl.
    assert [c["camel"] for c in s["caravan"]] == ["Carl", "Dora", "Bea"]
    assert s["caravan"][-1]["place"] == 14


def test_both_readings_agree_when_the_move_stops_on_the_marker_card() -> None:
    for reading in ("lapped", "marker-card"):
        state = at(
            FOUR,
            {"Anne": 3, "Bea": 4, "Carl": 16, "Dora": 9},
            marker=3,
            turn="Carl",
            options={"elimination": reading},
        )
        assert summary(flip(state, 3).state)["eliminated"] == ["Anne"]


# --- the two special cases, exactly -----------------------------------------------------------------


def test_the_rearmost_landing_on_a_snake_returns_to_its_previous_card_with_the_stone() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne")
    step = flip(state, 2)  # 3 → 5, snake
    assert [v.rule for v in step.verdicts] == [rules.REARMOST_ON_SNAKE]
    s = summary(step.state)
    assert s["positions"]["Anne"] == 3 and s["marker"] == 3
    assert s["turn"]["camel"] == "Bea"


def test_the_rearmost_returning_from_a_snake_comes_back_to_the_oasis_it_came_from() -> None:
    # "Previous square" is the card the snake move started from, here the oasis of a chain.
    state = at(THREE, {"Anne": 1, "Bea": 6, "Carl": 8}, marker=1, turn="Anne")
    state = flip(state, 1).state  # 1 → 2, oasis: Anne alone, still the rearmost, stone on 2
    assert summary(state)["marker"] == 2
    step = flip(state, 3)  # 2 → 5, snake: back to card 2 with the stone
    s = summary(step.state)
    assert s["positions"]["Anne"] == 2 and s["marker"] == 2
    assert s["turn"]["camel"] == "Bea"


def test_a_camel_sharing_the_back_that_lands_on_a_snake_is_the_rearmost_too() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 3, "Carl": 8}, marker=3, turn="Anne")
    step = flip(state, 2)
    assert [v.rule for v in step.verdicts] == [rules.REARMOST_ON_SNAKE]
    assert summary(step.state)["positions"]["Anne"] == 3


def test_a_snake_on_the_first_move_of_a_race_leaves_the_camel_on_the_start_card() -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    state = ENGINE.apply(state, {"type": "layout", "cards": LAYOUT}).state
    state = ENGINE.apply(state, {"type": "start", "card": 3, "first": "Anne"}).state
    step = flip(state, 2)
    assert step.verdicts[0].rule == rules.REARMOST_ON_SNAKE
    assert summary(step.state)["positions"] == {"Anne": 3, "Bea": 3, "Carl": 3}


def test_overhauling_the_rearmost_but_ending_on_a_snake_eliminates_nobody() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 16}, marker=3, turn="Carl")
    step = flip(state, 5)  # 16 → 5: past Anne on 3, onto the snake
    assert [v.rule for v in step.verdicts] == [rules.OVERTAKER_ON_SNAKE]
    s = summary(step.state)
    assert s["eliminated"] == []
    assert s["positions"] == {"Anne": 3, "Bea": 6, "Carl": 2}
    assert s["marker"] == 2  # set back one card: Carl is the rearmost
    assert [c["camel"] for c in s["caravan"]] == ["Carl", "Anne", "Bea"]


def test_the_overhauler_on_a_snake_is_spared_under_both_readings_even_past_further_camels() -> None:
    for reading in ("lapped", "marker-card"):
        state = at(
            FOUR,
            {"Anne": 3, "Bea": 4, "Carl": 16, "Dora": 9},
            marker=3,
            turn="Carl",
            options={"elimination": reading},
        )
        s = summary(flip(state, 5).state)
        assert s["eliminated"] == [] and s["positions"]["Carl"] == 2 and s["marker"] == 2


# --- silent cases, decided -----------------------------------------------------------------------


def test_an_oasis_chain_that_eliminates_goes_on() -> None:
    state = at(THREE, {"Anne": 1, "Bea": 8, "Carl": 16}, marker=1, turn="Carl")
    step = flip(state, 2)  # 16 → 2: past Anne, onto an oasis
    s = summary(step.state)
    assert s["eliminated"] == ["Anne"] and s["turn"]["camel"] == "Carl" and s["turn"]["on_oasis"]
    step = flip(step.state, 5)  # 2 → 7, oasis again; Carl is still the rearmost
    assert summary(step.state)["marker"] == 7
    assert summary(step.state)["turn"]["camel"] == "Carl"


def test_an_oasis_chain_stops_when_the_race_is_won() -> None:
    state = at(THREE, {"Anne": 1, "Carl": 16}, marker=1, turn="Carl", out=["Bea"])
    step = flip(state, 2)  # past Anne onto the oasis: Carl is the last camel
    s = summary(step.state)
    assert s["race_winner"] == "Carl" and s["turn"] is None and s["phase"] == "start"
    assert ENGINE.actions(step.state)[0].type == "start"


def test_a_snake_sends_the_camel_onto_the_leaders_card_when_the_caravan_fills_the_ring() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 2}, marker=3, turn="Bea")
    step = flip(state, 4)  # 6 → 10, snake; the card behind the rearmost holds Carl, the leader
    assert [v.rule for v in step.verdicts] == [rules.SNAKE, rules.SNAKE_ONTO_LEADER]
    s = summary(step.state)
    assert s["positions"]["Bea"] == 2 and s["marker"] == 2
    assert {c["camel"] for c in s["caravan"] if c["place"] == 0} == {"Bea", "Carl"}


def test_when_every_tile_is_barred_on_an_oasis_the_turn_ends() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    race = state.races[0]
    state = replace(state, races=(replace(race, before=frozenset(range(2, 30))),))
    state = flip(state, 1, [1, 1]).state  # 6 → 7, oasis; one tile left
    step = flip(state, 5, [1, 2])  # 7 → 12, oasis; no tile left
    assert step.verdicts[-1].rule == rules.NO_TILE_LEFT
    assert summary(step.state)["turn"]["camel"] == "Carl"


def test_with_two_players_a_camel_eliminates_its_owners_other_camel() -> None:
    two = ("Anne", "Marc")
    state = at(two, {"Anne 1": 3, "Anne 2": 16, "Marc 1": 8, "Marc 2": 9}, marker=3, turn="Anne 2")
    step = flip(state, 3)
    assert rules.OWN_CAMEL in [v.rule for v in step.verdicts]
    s = summary(step.state)
    assert s["eliminated"] == ["Anne 1"] and s["players_out"] == []
    assert s["turn"]["camel"] == "Marc 2"


def test_with_two_players_a_player_is_out_when_both_camels_are_out() -> None:
    two = ("Anne", "Marc")
    state = at(two, {"Anne 1": 16, "Anne 2": 9, "Marc 1": 3, "Marc 2": 3}, marker=3, turn="Anne 1")
    step = flip(state, 3)
    s = summary(step.state)
    assert s["players_out"] == ["Marc"] and s["race_winner"] == "Anne"
    assert s["scores"] == {"Anne": 1, "Marc": 0}


def test_loose_tiles_take_only_the_number() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne", options={"tile_grid": "loose"})
    flip_action = ENGINE.actions(state)[0]
    assert [f.name for f in flip_action.fields] == ["shows"]
    step = ENGINE.apply(state, {"type": "flip", "shows": 1})
    assert summary(step.state)["positions"]["Anne"] == 4
    with pytest.raises(ValueError, match="loose tiles"):
        ENGINE.apply(state, {"type": "flip", "tile": [1, 1], "shows": 1})


def test_parse_tile_matches_the_console_forms() -> None:
    assert parse_tile([2, 5]) == parse_tile("2,5") == parse_tile("(2, 5)") == 10
