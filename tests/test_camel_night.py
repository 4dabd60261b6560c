"""Setting up, who starts, a night of races, options, tile memory, and refusals of bad input."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_camel_rules import LAYOUT, THREE, at, flip, summary

from referee.fold import Fold
from referee.games.base import EventError, GameHeader, RuleViolation
from referee.games.camel import ENGINE, rules
from referee.games.camel.ring import deal_layout, oasis_beside_snake, parse_layout
from referee.games.camel.state import CamelState

SVG = "{http://www.w3.org/2000/svg}"


def night(players: tuple[str, ...] = THREE, **options: Any) -> CamelState:
    state = ENGINE.new_game(GameHeader("camel", "standard", players, options))
    return ENGINE.apply(state, {"type": "layout", "cards": LAYOUT}).state


def win_race(state: CamelState, winner: str, loser_first: str) -> CamelState:
    """Finish the running three-player race: `loser_first` is already out, `winner` laps the last other."""
    race = state.races[-1]
    ids = [c.id for c in state.camels]
    third = next(c for c in ids if c not in (winner, loser_first))
    positioned = at(THREE, {winner: 16, third: 3}, marker=3, turn=winner, out=[loser_first])
    race = replace(positioned.races[-1], number=race.number, first=race.first)
    state = replace(state, races=(*state.races[:-1], race))
    return flip(state, 3).state


# --- setting up ----------------------------------------------------------------------------------


def test_the_ring_is_entered_clockwise_from_the_top_left_corner() -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    assert [a.type for a in ENGINE.actions(state)] == ["layout", "deal"]
    step = ENGINE.apply(state, {"type": "layout", "cards": "oodds dodds dodds d"})
    assert summary(step.state)["layout"] == LAYOUT
    assert step.verdicts[0].rule == rules.LAYOUT


def test_an_oasis_beside_a_snake_is_accepted_with_the_rulebooks_advice() -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    step = ENGINE.apply(state, {"type": "layout", "cards": "DOSDDDOSDDDOSDDO"})
    assert len(step.verdicts) == 2 and "advise" in step.verdicts[1].summary
    assert step.verdicts[1].evidence["oasis_beside_snake"] == [[2, 3], [7, 8], [12, 13]]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("DDDDDDDDDDDDDDDD", "9 plain desert cards, 4 oases and 3 snakes"),
        ("OODDSDODDSDODDS", "16 cards, but 15"),
        ("OODDSDODDSDODDSX", "unknown card letter"),
        (17, "16 cards as letters"),
    ],
)
def test_a_wrong_ring_is_refused_with_what_to_do(cards: Any, message: str) -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    with pytest.raises(EventError, match=message):
        ENGINE.apply(state, {"type": "layout", "cards": cards})


@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_a_dealt_ring_is_the_published_set_with_no_oasis_beside_a_snake(seed: int) -> None:
    layout = deal_layout(seed)
    assert parse_layout(layout) == layout  # 9 desert, 4 oases, 3 snakes
    assert oasis_beside_snake(layout) == ()
    assert deal_layout(seed) == layout


def test_the_deal_is_carried_by_its_seed_so_a_replay_deals_the_same_ring() -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    step = ENGINE.apply(state, {"type": "deal", "seed": 2024})
    assert summary(step.state)["layout"] == deal_layout(2024) == "DDDOOOODDDSSDDDS"
    assert summary(step.state)["deal_seed"] == 2024
    assert ENGINE.apply(state, {"type": "deal", "seed": "2024"}).state == step.state
    with pytest.raises(EventError, match="whole number"):
        ENGINE.apply(state, {"type": "deal", "seed": "soon"})


def test_all_camels_and_the_marker_stone_start_on_the_chosen_card() -> None:
    step = ENGINE.apply(night(), {"type": "start", "card": 9, "first": "Bea"})
    s = summary(step.state)
    assert s["positions"] == {"Anne": 9, "Bea": 9, "Carl": 9} and s["marker"] == 9
    assert s["start_card"] == 9 and s["race"] == 1
    assert step.verdicts[0].rule == rules.START


def test_the_youngest_starts_the_first_race_and_play_goes_clockwise() -> None:
    step = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Bea"})
    assert [v.rule for v in step.verdicts] == [rules.START, rules.FIRST_RACE, rules.CLOCKWISE]
    assert step.verdicts[2].evidence["order"] == ["Bea", "Carl", "Anne"]
    state = step.state
    seen = []
    for shows in (1, 1, 1, 1):
        seen.append(summary(state)["turn"]["camel"])
        state = flip(state, shows).state  # 3 → 4 (desert) for each, then Bea 4 → 5 (snake)
    assert seen == ["Bea", "Carl", "Anne", "Bea"]


def test_the_first_race_needs_the_youngest_player() -> None:
    with pytest.raises(EventError, match="youngest"):
        ENGINE.apply(night(), {"type": "start", "card": 9})
    with pytest.raises(EventError, match="youngest"):
        ENGINE.apply(night(), {"type": "start", "card": 9, "first": "Zoe"})


@pytest.mark.parametrize("card", [0, 17, "x", True, None])
def test_the_start_card_must_be_one_of_the_16(card: Any) -> None:
    with pytest.raises(EventError, match="1 to 16"):
        ENGINE.apply(night(), {"type": "start", "card": card, "first": "Anne"})


def test_two_players_run_two_camels_each_in_the_prescribed_order() -> None:
    state = night(("Anne", "Marc"))
    step = ENGINE.apply(state, {"type": "start", "card": 3, "first": "Marc"})
    assert step.verdicts[-1].rule == rules.TWO_PLAYERS
    assert step.verdicts[-1].evidence["order"] == ["Marc 1", "Anne 1", "Marc 2", "Anne 2"]
    assert summary(step.state)["camels"] == {
        "Anne 1": "Anne",
        "Anne 2": "Anne",
        "Marc 1": "Marc",
        "Marc 2": "Marc",
    }


def test_with_two_players_an_eliminated_camel_is_skipped_in_the_order() -> None:
    two = ("Anne", "Marc")
    state = at(two, {"Anne 1": 8, "Marc 1": 9, "Marc 2": 11}, marker=8, turn="Anne 1", out=["Anne 2"])
    seen = []
    for shows in (1, 2, 2, 1):  # 8 → 9, 9 → 11, 11 → 13, all desert
        seen.append(summary(state)["turn"]["camel"])
        state = flip(state, shows).state
    assert seen == ["Anne 1", "Marc 1", "Marc 2", "Anne 1"]


# --- a night of races ------------------------------------------------------------------------------


def test_the_first_player_eliminated_starts_the_next_race() -> None:
    state = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Anne"}).state
    state = win_race(state, "Carl", loser_first="Bea")
    s = summary(state)
    assert s["scores"] == {"Anne": 0, "Bea": 0, "Carl": 1} and s["race_winner"] == "Carl"
    assert s["results"] == [{"race": 1, "winner": "Carl", "players_out": ["Bea", "Anne"], "abandoned": False}]
    start = ENGINE.actions(state)[0]
    assert start.type == "start" and start.fixed == {"first": "Bea"}
    with pytest.raises(RuleViolation) as caught:
        ENGINE.apply(state, {"type": "start", "card": 3, "first": "Anne"})
    assert caught.value.rule == rules.NEXT_RACE
    step = ENGINE.apply(state, {"type": "start", "card": 5})
    assert step.verdicts[1].rule == rules.NEXT_RACE
    assert summary(step.state)["turn"]["camel"] == "Bea" and summary(step.state)["race"] == 2


def test_race_wins_are_tallied_across_the_night_until_the_scorekeeper_ends_it() -> None:
    state = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Anne"}).state
    state = win_race(state, "Carl", loser_first="Bea")
    state = ENGINE.apply(state, {"type": "start", "card": 3}).state
    state = win_race(state, "Carl", loser_first="Anne")
    assert summary(state)["scores"] == {"Anne": 0, "Bea": 0, "Carl": 2}
    assert not summary(state)["finished"]
    assert [a.type for a in ENGINE.actions(state)] == ["start", "layout", "deal", "end"]
    step = ENGINE.apply(state, {"type": "end"})
    s = summary(step.state)
    assert s["finished"] and s["winner"] == "Carl" and s["phase"] == "over"
    assert step.verdicts[-1].rule == rules.NIGHT_END
    assert ENGINE.actions(step.state) == []
    with pytest.raises(EventError, match="night is over"):
        ENGINE.apply(step.state, {"type": "start", "card": 3})


def test_with_a_number_of_races_the_night_ends_after_them() -> None:
    state = ENGINE.apply(night(races=1), {"type": "start", "card": 3, "first": "Anne"}).state
    state = win_race(state, "Carl", loser_first="Bea")
    s = summary(state)
    assert s["finished"] and s["winner"] == "Carl"


def test_a_tie_after_the_set_races_is_settled_by_a_deciding_race() -> None:
    state = ENGINE.apply(night(races=2), {"type": "start", "card": 3, "first": "Anne"}).state
    state = win_race(state, "Carl", loser_first="Bea")
    state = ENGINE.apply(state, {"type": "start", "card": 3}).state
    state = replace(state, last_tile=None)
    race = state.races[-1]
    positioned = at(THREE, {"Anne": 16, "Carl": 3}, marker=3, turn="Anne", out=["Bea"])
    state = replace(state, races=(*state.races[:-1], replace(positioned.races[-1], number=race.number)))
    step = flip(state, 3)
    assert not summary(step.state)["finished"]
    assert "deciding race" in step.verdicts[-1].summary
    state = ENGINE.apply(step.state, {"type": "start", "card": 3}).state
    state = win_race(state, "Anne", loser_first="Bea")
    assert summary(state)["finished"] and summary(state)["winner"] == "Anne"


def test_ending_the_night_during_a_race_abandons_it() -> None:
    state = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Anne"}).state
    step = ENGINE.apply(state, {"type": "end"})
    assert [v.rule for v in step.verdicts] == [rules.ABANDON, rules.NIGHT_END]
    s = summary(step.state)
    assert s["finished"] and s["winner"] is None and s["results"][0]["abandoned"]


def test_ending_a_night_with_a_tie_shares_the_title() -> None:
    state = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Anne"}).state
    state = win_race(state, "Carl", loser_first="Bea")
    state = ENGINE.apply(state, {"type": "start", "card": 3}).state
    state = win_race(state, "Anne", loser_first="Bea")
    step = ENGINE.apply(state, {"type": "end"})
    assert summary(step.state)["winner"] is None
    assert "share" in step.verdicts[-1].summary


def test_the_one_turn_rule_does_not_reach_into_a_new_race() -> None:
    state = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Anne"}).state
    state = win_race(state, "Carl", loser_first="Bea")
    last = summary(state)["last_tile"]
    assert last["camel"] == "Carl"
    state = ENGINE.apply(state, {"type": "start", "card": 3}).state
    assert "tile" in summary(flip(state, 1, last["tile"]).state)["last_tile"]  # not refused


def test_the_ring_cannot_change_during_a_race() -> None:
    state = ENGINE.apply(night(), {"type": "start", "card": 3, "first": "Anne"}).state
    with pytest.raises(EventError, match="between races"):
        ENGINE.apply(state, {"type": "deal", "seed": 1})
    with pytest.raises(EventError, match="between races"):
        ENGINE.apply(state, {"type": "start", "card": 4, "first": "Anne"})


# --- tiles and what the referee remembers ------------------------------------------------------------


def test_a_two_sided_tile_contradicting_its_remembered_underside_is_pointed_out() -> None:
    state = at(
        THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne", options={"remember_under": True}
    )
    action = ENGINE.actions(state)[0]
    assert [f.name for f in action.fields] == ["tile", "shows", "under"]
    assert not action.fields[2].required
    state = flip(state, 1, [3, 3], under=4).state  # Anne: (3, 3) shows 1, 4 underneath
    state = flip(state, 3, [1, 1]).state  # Bea
    state = flip(state, 2, [1, 2]).state  # Carl
    ok = flip(state, 4, [3, 3])  # Anne turns it back: 4 as remembered, 1 now under
    assert [v.rule for v in ok.verdicts if v.rule == rules.TILE_MEMORY] == []
    clash = flip(state, 5, [3, 3])
    memo = [v for v in clash.verdicts if v.rule == rules.TILE_MEMORY]
    assert len(memo) == 1 and "had 4 underneath" in memo[0].summary
    assert summary(clash.state)["positions"]["Anne"] == 9  # the entry stands: 4 + 5


def test_the_number_under_is_refused_unless_the_players_asked_for_it() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne")
    with pytest.raises(EventError, match="remember_under is off"):
        flip(state, 1, [3, 3], under=4)
    assert [f.name for f in ENGINE.actions(state)[0].fields] == ["tile", "shows"]


def test_the_display_never_learns_a_hidden_side() -> None:
    state = at(
        THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne", options={"remember_under": True}
    )
    state = flip(state, 1, [3, 3], under=4).state
    s = summary(state)
    assert s["tiles_up"] == {"3,3": 1}
    tree = ElementTree.fromstring(ENGINE.render_svg(state))
    tile = next(g for g in tree.iter(f"{SVG}g") if g.get("id") == "tile-3-3")
    assert [t.text for t in tile.iter(f"{SVG}text")] == ["1"]


def test_a_card_turned_again_showing_another_number_is_pointed_out() -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne", options={"tiles": "cards"})
    state = flip(state, 1, [3, 3]).state
    state = flip(state, 3, [1, 1]).state
    state = flip(state, 2, [1, 2]).state
    assert not [v for v in flip(state, 1, [3, 3]).verdicts if v.rule == rules.TILE_MEMORY]
    clash = [v for v in flip(state, 2, [3, 3]).verdicts if v.rule == rules.TILE_MEMORY]
    assert len(clash) == 1 and "showed 1" in clash[0].summary
    assert "tiles_up" not in summary(state)  # face-down cards show nothing


def test_reshuffled_tiles_are_forgotten_at_the_next_race() -> None:
    state = ENGINE.apply(night(tiles="cards"), {"type": "start", "card": 3, "first": "Anne"}).state
    state = flip(state, 4, [2, 2]).state
    state = win_race(state, "Carl", loser_first="Bea")
    kept = ENGINE.apply(state, {"type": "start", "card": 3}).state
    assert kept.tiles == state.tiles
    fresh = ENGINE.apply(state, {"type": "start", "card": 3, "reshuffled": True}).state
    assert fresh.tiles.up == (None,) * 30


# --- options and refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"races": -1}, "whole number of races"),
        ({"races": "three"}, "whole number of races"),
        ({"elimination": "all"}, "cannot be 'all'"),
        ({"speed": 2}, "unknown option"),
        ({"tiles": "cards", "remember_under": True}, "two-sided tiles"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(EventError, match=message):
        ENGINE.new_game(GameHeader("camel", "standard", THREE, options))


def test_the_camel_race_is_for_two_to_five_players() -> None:
    with pytest.raises(EventError, match="2 to 5"):
        Fold.start(GameHeader("camel", "standard", ("Anne",), {}))
    with pytest.raises(EventError, match="2 to 5"):
        Fold.start(GameHeader("camel", "standard", tuple("ABCDEF"), {}))


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "flip", "shows": 3}, "say which tile"),
        ({"type": "flip", "tile": [6, 1], "shows": 3}, "no tile"),
        ({"type": "flip", "tile": "the red one", "shows": 3}, "row and column"),
        ({"type": "flip", "tile": [1, 1], "shows": 7}, "1 to 6"),
        ({"type": "flip", "tile": [1, 1], "shows": True}, "1 to 6"),
        ({"type": "flip", "tile": [1, 1]}, "1 to 6"),
        ({"type": "jump"}, "takes layout, deal, start, flip"),
        ({"type": "flip", "tile": [1, 1], "shows": 3, "camel": "Bea"}, "Anne's turn, not Bea's"),
    ],
)
def test_bad_entries_are_refused_and_the_state_is_untouched(event: dict[str, Any], message: str) -> None:
    state = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne")
    before = repr(state)
    with pytest.raises(EventError, match=message):
        ENGINE.apply(state, event)
    assert repr(state) == before


def test_a_flip_before_any_race_says_what_to_do() -> None:
    state = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    with pytest.raises(EventError, match="lay out the ring"):
        ENGINE.apply(state, {"type": "flip", "tile": [1, 1], "shows": 1})
    with pytest.raises(EventError, match="lay out the ring first"):
        ENGINE.apply(state, {"type": "start", "card": 1, "first": "Anne"})
    with pytest.raises(EventError, match="choose the start card"):
        ENGINE.apply(night(), {"type": "flip", "tile": [1, 1], "shows": 1})


def test_no_button_contest_is_wanted() -> None:
    assert ENGINE.contest(night()) is None


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ("cards", "seed", "card", "first", "reshuffled", "tile", "shows", "under", "camel")


@given(
    kind=st.sampled_from(["layout", "deal", "start", "flip", "stop", "end", "undo", "", "FLIP"]),
    fields=st.dictionaries(st.sampled_from(FIELDS), JSON | st.integers(1, 6) | st.just([2, 3]), max_size=5),
    where=st.integers(0, 3),
)
def test_any_console_input_is_applied_or_refused_with_a_message(
    kind: str, fields: dict[str, Any], where: int
) -> None:
    states = [
        ENGINE.new_game(GameHeader("camel", "standard", THREE, {"remember_under": True})),
        night(),
        at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne", options={"remember_under": True}),
        flip(at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea"), 1).state,  # on an oasis
    ]
    state = states[where]
    before = repr(state)
    try:
        step = ENGINE.apply(state, {"type": kind, **fields})
    except EventError as exc:
        assert str(exc)
    else:
        ENGINE.summary(step.state)
        ENGINE.render_svg(step.state)
    assert repr(state) == before
