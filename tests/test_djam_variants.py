"""The Unlimited proposals and Open themes variants."""

from __future__ import annotations

import pytest

from referee.games.base import EventError
from tests.test_djam_support import conserved, contest, dice, new_game, play, rules, word

# --- Unlimited proposals -------------------------------------------------------------------


def test_unlimited_puts_two_tokens_per_player_in_the_centre() -> None:
    game = new_game("unlimited")
    s = game.summary()
    assert (s["centre"], s["pool"]) == (8, 82)
    assert conserved(game.state)


def test_unlimited_players_keep_proposing_until_the_centre_is_empty() -> None:
    game = new_game("unlimited")
    play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"), word("Bob", "Brel"))
    assert game.state.centre == 4
    request = game.engine.contest(game.state)
    assert request is not None and "Ann" in request.seats  # Ann may speak again
    verdicts = play(game, contest("Ann"), word("Ann", "Brejnev"))  # scores 3
    assert game.state.centre == 1
    verdicts = play(game, contest("Cat"), word("Cat", "Bravo"))  # scores 4, takes the last 1
    assert any("only 1 left in the centre" in v.summary for v in verdicts)
    assert "djam.unlimited.round-end" in rules(verdicts)
    s = game.summary()
    assert s["scores"] == {"Ann": 5, "Bob": 2, "Cat": 1, "Dan": 0}
    assert (s["round"], s["centre"], s["pool"]) == (2, 8, 74)


def test_unlimited_has_no_silent_last_speaker() -> None:
    game = new_game("unlimited", players=("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
    play(game, dice(), contest("Ann", "Bob", "Cat", "Dan"))
    for who, name in zip(["Ann", "Bob", "Cat", "Dan"], ["Bono", "Brel", "Balzac", "Bardot"], strict=True):
        play(game, word(who, name))
    assert game.summary()["last_silent"] == 0
    assert game.state.round_no == 1  # the round goes on while the centre holds tokens


def test_unlimited_black_is_paid_from_the_supply_and_the_centre_stays() -> None:
    game = new_game("unlimited")
    verdicts = play(game, dice(colour="black"), contest("Ann"), word("Ann", "Chuck"))
    assert "djam.unlimited.black" in rules(verdicts)
    s = game.summary()
    assert (s["scores"]["Ann"], s["centre"], s["pool"], s["round"]) == (4, 8, 78, 2)


def test_unlimited_black_centre_add_option_tops_up() -> None:
    game = new_game("unlimited", black_centre="add")
    play(game, dice(colour="black"), contest("Ann"), word("Ann", "Chuck"))
    assert (game.state.centre, game.state.pool) == (16, 70)


def test_unlimited_wrong_black_word_returns_tokens_to_the_supply_or_centre() -> None:
    for where, centre, pool in (("supply", 6, 84), ("centre", 8, 82)):
        game = new_game("unlimited", black_penalty_to=where)
        play(game, dice(), contest("Ann"), word("Ann", "Brel"))  # 2 tokens from the centre
        play(game, {"type": "end_round"})  # the centre (6) carries over
        verdicts = play(game, dice(colour="black"), contest("Ann"), word("Ann", "Rob"))
        assert verdicts[-1].evidence["returned"] == 2  # all Ann has, fewer than 4
        assert (game.state.centre, game.state.pool, game.state.tokens[0]) == (centre, pool, 0)
        assert conserved(game.state)


def test_unlimited_game_ends_when_supply_and_centre_are_empty() -> None:
    game = new_game("unlimited", players=("Ann", "Bob"), pool=6)
    assert (game.state.centre, game.state.pool) == (4, 2)
    play(game, dice(), word("Ann", "Bravo"))
    assert (game.state.round_no, game.state.centre, game.state.pool) == (2, 2, 0)  # only 2 were left
    verdicts = play(game, dice(), word("Bob", "Bono"))
    assert rules(verdicts)[-1] == "djam.end"
    assert game.summary()["winner"] == "Ann" and game.summary()["finished"]


# --- Open themes ---------------------------------------------------------------------------


def test_open_themes_has_no_numbered_die() -> None:
    game = new_game("open-themes")
    with pytest.raises(EventError, match="no numbered die"):
        game.check(dice(theme=1))
    play(game, dice(theme=None))
    assert game.summary()["theme"] is None


def test_open_themes_word_needs_an_open_theme() -> None:
    game = new_game("open-themes")
    play(game, dice(theme=None), contest("Ann", "Bob"))
    with pytest.raises(EventError, match="say which theme"):
        game.check(word("Ann", "Bono"))
    verdicts = play(game, word("Ann", "Bono", theme=1))
    assert "djam.open.close" in rules(verdicts)
    with pytest.raises(EventError, match=r"theme 1 \(Personnalités\) is closed for Bob"):
        game.check(word("Bob", "Brel", theme=1))
    play(game, word("Bob", "Bordeaux", theme=2))
    assert game.summary()["closed_themes"] == {"1": ["Ann"], "2": ["Bob"]}


def test_open_themes_round_ends_when_all_six_are_closed() -> None:
    game = new_game("open-themes", players=("Ann", "Bob"))
    play(game, dice(theme=None))
    entries = ["Bono", "Bordeaux", "Boa", "Boulanger", "Brioche", "Boxe"]
    verdicts = []
    for i, name in enumerate(entries, start=1):
        verdicts = play(game, word("Ann" if i % 2 else "Bob", name, theme=i))
    assert "djam.open.round-end" in rules(verdicts)
    assert game.state.round_no == 2
    assert game.summary()["last_silent"] == 0


def test_open_themes_closing_for_the_speaker_only() -> None:
    game = new_game("open-themes", close_themes="speaker")
    play(game, dice(theme=None), word("Ann", "Bono", theme=1))
    play(game, word("Bob", "Brel", theme=1))  # still open for Bob
    with pytest.raises(EventError, match="closed for Ann"):
        game.check(word("Ann", "Brassens", theme=1))
    assert game.summary()["closed_themes"] == {"1": ["Ann", "Bob"]}


def test_open_themes_speaker_closing_ends_the_round_when_every_theme_has_a_word() -> None:
    game = new_game("open-themes", players=("Ann", "Bob"), close_themes="speaker")
    play(game, dice(theme=None))
    for i, name in enumerate(["Bono", "Bordeaux", "Boa", "Boulanger", "Brioche"], start=1):
        play(game, word("Ann", name, theme=i))
    play(game, word("Bob", "Brel", theme=1))  # theme 1 was closed only for Ann
    assert game.state.round_no == 1
    verdicts = play(game, word("Bob", "Boxe", theme=6))
    assert "djam.open.round-end" in rules(verdicts) and game.state.round_no == 2


def test_open_themes_black_player_picks_the_theme() -> None:
    game = new_game("open-themes")
    verdicts = play(game, dice(colour="black", theme=None), contest("Ann"), word("Ann", "Chuck", theme=4))
    assert "djam.open.black" in rules(verdicts)
    assert game.summary()["rounds"][0]["proposals"][0]["theme_name"] == "Métiers"
    assert game.summary()["scores"]["Ann"] == 4


def test_open_themes_players_keep_playing_after_a_first_word() -> None:
    game = new_game("open-themes")
    play(game, dice(theme=None), word("Ann", "Bono", theme=1))
    play(game, word("Ann", "Bordeaux", theme=2))  # players keep playing after a first word
    assert game.summary()["scores"]["Ann"] == 2 + 4
