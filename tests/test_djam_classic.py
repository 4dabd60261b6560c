"""The classic game, rule by rule, through the fold as the daemon drives it."""

from __future__ import annotations

import re

import pytest

from referee.games.base import EventError, RuleViolation
from tests.test_djam_support import FOUR, conserved, contest, dice, new_game, play, rules, seats, word


def test_rulebook_example_of_play() -> None:
    """Bono 2, Brejnev 3, Buñuel 1, and the fourth player scores nothing (djam.txt, Example of Play)."""
    game = new_game()
    verdicts = play(
        game,
        dice(),
        contest("Ann", "Bob", "Cat", "Dan"),
        word("Ann", "Bono"),
        word("Bob", "Brejnev"),
        word("Cat", "Buñuel"),
    )
    assert game.summary()["scores"] == {"Ann": 2, "Bob": 3, "Cat": 1, "Dan": 0}
    assert rules(verdicts).count("djam.score") == 3
    silent = next(v for v in verdicts if v.rule.id == "djam.last-silent")
    assert silent.evidence["score_nothing"] == ["Dan"]
    assert game.state.pool == 84 and game.state.round_no == 2
    last = game.summary()["rounds"][0]
    assert [(p["word"], p["scored"]) for p in last["proposals"]] == [
        ("Bono", [0, 1]),
        ("Brejnev", [0, 1, 6]),
        ("Buñuel", [0]),
    ]


@pytest.mark.parametrize(
    ("blue", "typed", "score", "scored"),
    [("A", "Bono", 2, [0, 1]), ("O", "Bono", 3, [0, 1, 3]), ("O", "Bon", 2, [0, 1])],
)
def test_issue_examples_bono_and_bon(blue: str, typed: str, score: int, scored: list[int]) -> None:
    game = new_game()
    play(game, dice(blue=blue), contest("Ann"), word("Ann", typed))
    p = game.summary()["proposals"][0]
    assert (p["score"], p["tokens"], p["scored"]) == (score, score, scored)


def test_folded_letters_score() -> None:
    game = new_game()
    play(
        game,
        dice(colour="white", white="E", yellow="L", red="P", blue="H"),
        contest("Ann"),
        word("Ann", "éléphant"),
    )
    p = game.summary()["proposals"][0]
    assert p["score"] == 4 and p["scored"] == [0, 1, 3, 4]  # É(white) L(yellow) P(red) H(blue)


def test_ligature_counts_as_its_two_letters() -> None:
    game = new_game()
    play(
        game,
        dice(colour="blue", blue="L", white="A", yellow="E", theme=1),
        contest("Ann"),
        word("Ann", "Lætitia"),
    )
    p = game.summary()["proposals"][0]
    assert p["score"] == 3 and p["scored"] == [0, 1]  # L, and both the a and the e of æ


def test_wrong_initial_is_refused_and_the_player_may_speak_again() -> None:
    game = new_game()
    verdicts = play(game, dice(), contest("Ann", "Bob"), word("Ann", "Obama"))
    assert rules(verdicts)[-1] == "djam.initial"
    assert "begins with O, not B" in verdicts[-1].summary
    s = game.summary()
    assert s["scores"]["Ann"] == 0 and s["speaking_order"]["waiting"] == ["Bob"]
    assert "Ann" in seats(game)  # may press again
    play(game, word("Bob", "Bono"), contest("Ann"), word("Ann", "Bizet"))
    assert game.summary()["scores"]["Ann"] == 1


def test_same_root_common_noun_is_refused() -> None:
    game = new_game()
    verdicts = play(
        game,
        dice(colour="yellow", yellow="E", theme=3),
        contest("Ann", "Bob"),
        word("Ann", "éléphant"),
        word("Bob", "éléphanteau"),
    )
    assert rules(verdicts)[-1] == "djam.root"
    assert "eleph" in verdicts[-1].summary
    assert game.summary()["scores"]["Bob"] == 0


def test_proper_nouns_are_exempt() -> None:
    game = new_game()
    verdicts = play(
        game,
        dice(colour="red", red="D", theme=2),
        contest("Ann", "Bob"),
        word("Ann", "Dinan"),
        word("Bob", "Dinard"),
    )
    assert "djam.proper" in rules(verdicts)
    assert game.summary()["scores"]["Bob"] > 0


def test_a_word_said_twice_is_refused_even_a_proper_noun() -> None:
    game = new_game()
    verdicts = play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"), word("Bob", "BONO"))
    assert rules(verdicts)[-1] == "djam.repeat"


def test_near_miss_waits_for_the_scorekeeper_who_rules_either_way() -> None:
    for same, bob in ((True, 0), (False, 4)):
        game = new_game()
        play(game, dice(colour="white", white="C", yellow="H", red="T", theme=3), contest("Ann", "Bob"))
        play(game, word("Ann", "chat"))
        verdicts = play(game, word("Bob", "château"))
        assert game.state.pending is not None and game.state.pending.needs == ("root",)
        assert "djam.root" in rules(verdicts)
        kinds = [a.type for a in game.engine.actions(game.state)]
        assert kinds.count("root") == 2 and "word" not in kinds
        with pytest.raises(EventError, match="waits for the same-root question"):
            game.check(word("Cat", "chien"))
        play(game, {"type": "root", "same": same})
        assert game.summary()["scores"]["Bob"] == bob
        assert game.state.pending is None


def test_scorekeeper_may_overrule_the_automatic_refusal() -> None:
    game = new_game()
    play(game, dice(colour="white", white="M", theme=6), contest("Ann", "Bob"), word("Ann", "mer"))
    play(game, word("Bob", "mère", root="different"))
    assert game.summary()["proposals"][1]["status"] == "valid"


def test_theme_rejected_by_the_scorekeeper() -> None:
    game = new_game()
    verdicts = play(game, dice(), contest("Ann"), word("Ann", "Bateau", fits=False))
    assert rules(verdicts)[-1] == "djam.theme"
    assert game.summary()["scores"]["Ann"] == 0


def test_theme_by_majority_vote() -> None:
    game = new_game(theme_ruling="majority")
    play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"))
    assert game.state.pending is not None and game.state.pending.needs == ("theme",)
    with pytest.raises(EventError, match="between 1 and 3 votes"):
        game.check({"type": "vote", "for": 3, "against": 1})
    play(game, {"type": "vote", "for": 2, "against": 1})
    assert game.summary()["scores"]["Ann"] == 2
    verdicts = play(game, word("Bob", "Brel"), {"type": "vote", "for": 1, "against": 1})
    assert rules(verdicts)[-1] == "djam.theme" and "no majority" in verdicts[-1].summary
    with pytest.raises(EventError, match="votes on the theme"):
        game.check(word("Cat", "Brassens", fits=True))


def test_the_display_headline_follows_the_round() -> None:
    game = new_game(theme_ruling="majority")
    assert game.summary()["headline"] == "Ann rolls the dice"
    play(game, dice())
    assert game.summary()["headline"] == "Find a word — press your button"
    play(game, contest("Bob", "Ann"))
    assert game.summary()["headline"] == "Bob speaks"
    play(game, word("Bob", "Bono"))
    assert game.summary()["headline"] == "Bob's word “Bono” awaits a ruling"


def test_a_speaker_queued_again_during_the_vote_leaves_the_queue_when_the_word_stands() -> None:
    """Found by the property test: Ann's word awaits the vote, the order puts her back in line."""
    game = new_game(theme_ruling="majority")
    play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"))
    play(game, {"type": "order", "order": ["Ann", "Bob"]})
    play(game, {"type": "vote", "for": 3, "against": 0})
    assert game.summary()["scores"]["Ann"] == 2
    assert game.state.queue == ("Bob",)
    assert "Ann" not in game.state.eligible()


@pytest.mark.parametrize(("n", "silent"), [(2, 1), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_last_speakers_score_nothing(n: int, silent: int) -> None:
    players = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")[:n]
    game = new_game(players=players)
    names = ["Bono", "Brel", "Balzac", "Bardot", "Bach", "Borg"]
    play(game, dice(), contest(*players))
    for who, name in zip(players[: n - silent], names, strict=False):
        play(game, word(who, name))
    assert game.state.round_no == 2
    last = game.summary()["rounds"][0]
    assert last["ended_by"] == "djam.last-silent"
    assert [p["player"] for p in last["proposals"]] == list(players[: n - silent])
    assert all(game.summary()["scores"][p] == 0 for p in players[n - silent :])


def test_last_silent_can_be_set_to_zero() -> None:
    game = new_game(players=("Ann", "Bob"), last_silent=0)
    verdicts = play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"), word("Bob", "Brel"))
    assert rules(verdicts).count("djam.round-end") == 1
    assert game.summary()["scores"] == {"Ann": 2, "Bob": 2}


def test_a_player_who_scored_is_out_for_the_round() -> None:
    game = new_game()
    play(game, dice(), contest("Ann"), word("Ann", "Bono"))
    with pytest.raises(RuleViolation, match="already scored") as caught:
        game.check(word("Ann", "Brel"))
    assert caught.value.rule is not None and caught.value.rule.id == "djam.one-word"
    assert "Ann" not in seats(game)
    verdicts = play(game, contest("Ann", "Bob"))
    assert game.state.queue == ("Bob",)
    assert "Ann cannot speak again" in str(verdicts[0].evidence["ignored"])


def test_black_face_first_valid_word_wins_four() -> None:
    game = new_game()
    verdicts = play(game, dice(colour="black"), contest("Ann", "Bob"), word("Ann", "Chuck"))
    assert rules(verdicts)[-3:] == ["djam.black.win", "djam.black.win", "djam.roller"]
    assert game.summary()["scores"]["Ann"] == 4 and game.state.round_no == 2


def test_black_face_wrong_word_returns_four_or_what_the_player_has() -> None:
    game = new_game()
    play(
        game,
        dice(),
        contest("Ann", "Bob", "Cat"),
        word("Ann", "Bono"),
        word("Bob", "Brel"),
        word("Cat", "Bach"),
    )
    assert game.summary()["scores"]["Ann"] == 2
    verdicts = play(game, dice(colour="black"), contest("Ann", "Bob"), word("Ann", "Obama"))
    assert rules(verdicts)[-1] == "djam.black.wrong"
    assert verdicts[-1].evidence["returned"] == 2
    s = game.summary()
    assert s["scores"]["Ann"] == 0 and s["proposals"][0]["faults"] == [0, 1, 2, 4]
    play(game, word("Bob", "Chuck"))  # the round goes on: Bob's is the first valid word
    assert game.summary()["scores"]["Bob"] == 2 + 4


def test_black_penalty_four_or_nothing() -> None:
    game = new_game(black_penalty="4-or-nothing")
    play(
        game,
        dice(),
        contest("Ann", "Bob", "Cat"),
        word("Ann", "Bono"),
        word("Bob", "Brel"),
        word("Cat", "Bach"),
    )
    verdicts = play(game, dice(colour="black"), contest("Ann"), word("Ann", "Obama"))
    assert verdicts[-1].evidence["returned"] == 0
    assert game.summary()["scores"]["Ann"] == 2


def test_the_game_ends_when_the_pool_is_empty_and_a_larger_score_takes_what_is_left() -> None:
    game = new_game(pool=4)
    verdicts = play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"), word("Bob", "Brejnev"))
    assert game.summary()["scores"] == {"Ann": 2, "Bob": 2, "Cat": 0, "Dan": 0}
    assert rules(verdicts)[-1] == "djam.end"
    s = game.summary()
    assert s["finished"] and s["winner"] == ["Ann", "Bob"] and s["pool"] == 0
    assert game.engine.actions(game.state) == [] and game.engine.contest(game.state) is None
    with pytest.raises(EventError, match="game is over"):
        game.check(dice())


def test_single_winner() -> None:
    game = new_game(pool=5)
    play(game, dice(), contest("Ann", "Bob"), word("Ann", "Bono"), word("Bob", "Brejnev"))
    assert game.summary()["winner"] == "Bob"


def test_roller_passes_clockwise_from_the_youngest() -> None:
    game = new_game(youngest="Cat")
    rollers = []
    for _ in range(5):
        rollers.append(game.summary()["roller"])
        play(game, dice(), {"type": "end_round"})
    assert rollers == ["Cat", "Dan", "Ann", "Bob", "Cat"]


def test_tied_presses_take_seat_order_and_the_scorekeeper_corrects() -> None:
    game = new_game()
    verdicts = play(game, dice(), contest(("Dan", "Bob"), "Ann"))
    assert game.state.queue == ("Bob", "Dan", "Ann")
    assert "tied" in verdicts[-1].summary
    with pytest.raises(EventError, match="Bob's turn"):
        game.check(word("Dan", "Bono"))
    play(game, {"type": "order", "order": ["Dan", "Bob", "Ann"]})
    play(game, word("Dan", "Bono"))
    assert game.summary()["scores"]["Dan"] == 2


def test_presses_arrive_in_several_contests() -> None:
    game = new_game()
    play(game, dice(), contest("Cat"), contest("Ann", "Cat"))
    assert game.state.queue == ("Cat", "Ann")
    request = game.engine.contest(game.state)
    assert (
        request is not None
        and request.seats == ("Bob", "Dan")
        and request.needs == "each"
        and request.key == "round 1"
        and request.auto_arm
    )
    assert request.call == "Djam!"


def test_pass_leaves_the_queue() -> None:
    game = new_game()
    play(game, dice(), contest("Ann", "Bob"), {"type": "pass", "player": "Ann"})
    assert game.state.queue == ("Bob",)


def test_without_buttons_the_scorekeeper_names_the_speaker() -> None:
    game = new_game()
    play(game, dice(), word("Cat", "Bono"))
    assert game.summary()["scores"]["Cat"] == 2


def test_dice_may_be_corrected_until_a_word_is_judged() -> None:
    game = new_game()
    play(game, dice(green="P"), dice())
    assert game.summary()["required_letter"] == "B"
    play(game, word("Ann", "Bono"))
    with pytest.raises(EventError, match="undo them"):
        game.check(dice(green="P"))


def test_undo_takes_back_a_word() -> None:
    game = new_game()
    play(game, dice(), contest("Ann"), word("Ann", "Bono"))
    play(game, {"type": "undo"})
    assert game.summary()["scores"]["Ann"] == 0 and game.state.queue == ("Ann",)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (word("Ann", "Bo\u200bno"), "U+200B ZERO WIDTH SPACE"),
        (word("Ann", "Bono 2"), "digit"),
        (word("Ann", "😀"), "GRINNING FACE"),
        (word("Ann", "   "), "no letters"),
        (word("Ann", "\u0301"), "no letter before it"),
        (word("Zoe", "Bono"), "not a player"),
        (word("Ann", "Bono", noun="maybe"), '"noun" must be one of'),
        (word("Ann", "Bono", fits="yes"), '"fits" must be true or false'),
        (word("Ann", "Bono", theme=2), "the theme of this round is 1"),
        ({"type": "vote", "for": 1, "against": 0}, "no theme vote"),
        ({"type": "root", "same": True}, "no same-root question"),
        ({"type": "order", "order": ["Ann", "Ann"]}, "twice"),
        ({"type": "pass", "player": "Bob"}, "not waiting"),
        ({"type": "shout"}, "no event 'shout'"),
        ({"type": "contest", "ranking": [["Zoe"]], "margins_ns": []}, "unknown player"),
        ({"type": "contest", "ranking": "Ann"}, "not a contest verdict"),
        (dice(colour="purple"), "colour die"),
        (dice(theme=7), '"theme" must be a whole number from 1 to 6'),
        (dice(green="BO"), "one letter"),
    ],
)
def test_bad_input_is_refused_with_the_state_intact(event: dict, message: str) -> None:
    game = new_game()
    play(game, dice(), contest("Ann"))
    before = game.state
    with pytest.raises(EventError, match=re.escape(message)):
        game.apply(event)
    assert game.state is before and game.state.queue == ("Ann",) and conserved(game.state)


def test_words_before_the_dice_are_refused() -> None:
    game = new_game()
    with pytest.raises(EventError, match="has no dice yet"):
        game.check(word("Ann", "Bono"))
    verdicts = play(game, contest("Ann"))  # a late contest verdict is kept but changes nothing
    assert game.state.queue == () and "ignored" in verdicts[0].summary


def test_header_errors() -> None:
    with pytest.raises(EventError, match="2 to 6 players"):
        new_game(players=("Ann",))
    with pytest.raises(EventError, match="youngest"):
        new_game(youngest="Zoe")
    with pytest.raises(EventError, match="at most 1 can score nothing"):
        new_game(players=("Ann", "Bob"), last_silent=2)
    with pytest.raises(EventError, match="pool"):
        new_game(pool=0)
    with pytest.raises(EventError, match="exactly 6 themes"):
        new_game(themes=["Animaux"])
    with pytest.raises(EventError, match="cannot be 9"):
        new_game(card=9)
    with pytest.raises(EventError, match="no variant"):
        new_game("speed")


def test_own_themes_and_card() -> None:
    game = new_game(themes=["A", "B", "C", "D", "E", "F"])
    play(game, dice(theme=4))
    assert game.summary()["theme"] == {"number": 4, "name": "D"}
    game = new_game(card=2)
    assert game.summary()["themes"][4] == "Moyens de transport"
    assert new_game().summary()["themes"][0] == "Personnalités"


def test_players_keep_their_seats() -> None:
    assert new_game().summary()["scores"] == dict.fromkeys(FOUR, 0)
