"""The follower and the reader's foreign regions: a small hand the unknown squares do not
show still holds the move back until it has gone, and a "hand" region that never leaves (a
lamp's reflection at the board's edge) is learnt and does not stall the game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board_follower import (
    Ask,
    BoardFollower,
    Commit,
    Flag,
    FollowerSettings,
    Settled,
    Waiting,
    hand_over_board,
    hand_regions,
)
from referee.board_inference import Observation, play
from referee.games.djambi import Move, Position
from referee.games.djambi.squares import SQUARE_NAMES

SETTINGS = FollowerSettings(stable_frames=3, patience=2)
START = Position.initial()
MOVE = "c2-e4"


def with_regions(obs: Observation, *regions: tuple[str, tuple[str, ...]]) -> Observation:
    """``obs`` as the reader would report it with these regions (kind, squares)."""
    named = tuple((kind, tuple(SQUARE_NAMES.index(sq) for sq in squares)) for kind, squares in regions)
    return Observation(obs.tokens, obs.confidence, obs.notes, named)


def board(position: Position, move: str | None = None) -> Observation:
    if move is not None:
        position = play(position, Move.parse(move))[0].position()
    grid = {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(position.squares)}
    return Observation(Observation.from_grid(grid).tokens, Observation.from_grid(grid).confidence, regions=())


def test_a_small_hand_at_the_edge_holds_the_move_until_it_has_gone() -> None:
    """Every square is read (the hand leaves no unknown square), yet the reader sees a hand:
    the follower waits, and commits a few frames after it has left."""
    f = BoardFollower(SETTINGS)
    assert isinstance([f.feed(board(START), START) for _ in range(3)][-1], Settled)
    small_hand = with_regions(board(START, MOVE), ("hand", ("e1", "f1")))
    steps = [f.feed(small_hand, START) for _ in range(6)]
    assert all(isinstance(s, Waiting) for s in steps)
    assert steps[-1].reason == "a hand is over the board"  # type: ignore[union-attr]
    clear = board(START, MOVE)
    steps = [f.feed(clear, START) for _ in range(3)]
    assert [type(s) for s in steps] == [Waiting, Waiting, Commit]
    assert str(steps[-1].move) == MOVE  # type: ignore[union-attr]


def test_a_held_piece_region_is_a_hand_and_other_regions_are_not() -> None:
    f = BoardFollower(SETTINGS)
    [f.feed(board(START), START) for _ in range(3)]
    held = with_regions(board(START, MOVE), ("held piece", ("e5",)))
    assert all(isinstance(f.feed(held, START), Waiting) for _ in range(5))
    g = BoardFollower(SETTINGS)
    [g.feed(board(START), START) for _ in range(3)]
    harmless = with_regions(
        board(START, MOVE), ("piece", ("e6",)), ("glare", ("a5", "a6")), ("other", ("i5",))
    )
    steps = [g.feed(harmless, START) for _ in range(3)]
    assert isinstance(steps[-1], Commit), "a speck, a reflection or an unread piece is not a hand"


def test_a_hand_region_that_never_leaves_is_learnt_and_does_not_stall_the_game() -> None:
    """A reflection at the board's edge the reader reports as a hand in every frame, from
    the set-up on: after a few seconds it is blind, and the next move is committed."""
    f = BoardFollower(SETTINGS)
    lamp = ("hand", ("i4", "i5"))
    setup = [f.feed(with_regions(board(START), lamp), START) for _ in range(30)]
    assert isinstance(setup[-1], Settled)
    assert {SQUARE_NAMES.index("i4"), SQUARE_NAMES.index("i5")} <= f.region_blind
    steps = [f.feed(with_regions(board(START, MOVE), lamp), START) for _ in range(3)]
    assert isinstance(steps[-1], Commit)
    # A real hand reaching in beside the reflection covers a square that is not blind.
    f2 = BoardFollower(SETTINGS)
    [f2.feed(with_regions(board(START), lamp), START) for _ in range(30)]
    arm = with_regions(board(START, MOVE), ("hand", ("h4", "i4", "i5")))
    assert all(isinstance(f2.feed(arm, START), Waiting) for _ in range(4))


def test_observations_not_from_the_reader_rely_on_unknown_squares_alone() -> None:
    obs = Observation.from_placement("9/9/9/9/9/9/9/9/9")
    assert obs.regions is None and hand_regions(obs) == ()


squares = st.lists(st.integers(0, 80), min_size=1, max_size=6, unique=True)
kinds = st.sampled_from(["hand", "held piece", "glare", "piece", "other"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(kinds, squares), max_size=4), st.sets(st.integers(0, 80)), st.sets(st.integers(0, 80))
)
def test_hand_regions_are_the_hand_kinds_hiding_something_not_blind(regions, blind, unknown) -> None:
    """A hand region counts when what it hides (its unknown squares, or all of them if it
    hides none) is not all blind; its squares are then all reported."""
    tokens = tuple("??" if i in unknown else None for i in range(81))
    obs = Observation(tokens, (0.0,) * 81, regions=tuple((k, tuple(s)) for k, s in regions))
    got = {SQUARE_NAMES.index(sq) for sq in hand_regions(obs, blind)}
    want = set()
    for kind, covered in regions:
        hidden = (set(covered) & unknown) or set(covered)
        if kind in ("hand", "held piece") and not hidden <= blind:
            want |= set(covered)
    assert got == want


def test_a_reflection_grown_over_a_read_piece_is_not_a_hand() -> None:
    """The learnt reflection (blind, unknown) now also touches a square whose piece the
    reader reads: what it hides is all blind."""
    obs = board(START)
    tokens = list(obs.tokens)
    tokens[SQUARE_NAMES.index("e1")] = "??"
    seen = Observation(
        tuple(tokens),
        obs.confidence,
        regions=(("hand", (SQUARE_NAMES.index("e1"), SQUARE_NAMES.index("d1"))),),
    )
    assert hand_regions(seen, {SQUARE_NAMES.index("e1")}) == ()
    assert hand_regions(seen, ()) == ("d1", "e1")


def test_a_hand_that_keeps_coming_back_is_asked_about_not_waited_on_for_ever() -> None:
    """A reflection the reader calls a hand every other frame, over a square the move
    changed: no commit ever, and after a few seconds the console is asked, once."""
    f = BoardFollower(SETTINGS)
    [f.feed(board(START), START) for _ in range(3)]
    moved = board(START, MOVE)
    tokens = list(moved.tokens)
    tokens[SQUARE_NAMES.index("e4")] = "??"
    hidden = Observation(tuple(tokens), moved.confidence, regions=(("hand", (SQUARE_NAMES.index("e4"),)),))
    steps = [f.feed(moved if k % 2 else hidden, START) for k in range(24)]
    assert not any(isinstance(s, Commit) for s in steps)
    asks = [s for s in steps if isinstance(s, Ask)]
    assert len(asks) == 1 and str(asks[0].candidates[0].move) == MOVE


def test_a_move_held_back_for_seconds_by_a_flickering_hand_is_asked_about_once() -> None:
    """The landing square is seen only in frames with a "hand" at the edge, and lost in the
    frames between: the move fits all along but is never confirmed. No commit ever; after
    1 + 3 × patience stable frames the console is asked, once."""
    f = BoardFollower(SETTINGS)
    [f.feed(board(START), START) for _ in range(3)]
    moved = board(START, MOVE)
    with_hand = with_regions(moved, ("hand", ("i4", "i5")))
    tokens = list(moved.tokens)
    tokens[SQUARE_NAMES.index("e4")] = "??"
    lost = Observation(tuple(tokens), moved.confidence, regions=())
    steps = [f.feed(with_hand if k % 4 == 0 else lost, START) for k in range(40)]
    assert not any(isinstance(s, Commit) for s in steps)
    asks = [k for k, s in enumerate(steps) if isinstance(s, Ask)]
    assert len(asks) == 1 and asks[0] >= 1 + 3 * SETTINGS.patience
    assert str(steps[asks[0]].candidates[0].move) == MOVE  # type: ignore[union-attr]


def _illegal(*regions: tuple[str, tuple[str, ...]]) -> Observation:
    """A militant moved three squares up (b3 to b6: illegal), with these regions in view."""
    obs = board(START)
    grid = {SQUARE_NAMES[i]: t for i, t in enumerate(obs.tokens)}
    grid["b6"], grid["b3"] = grid["b3"], None
    moved = Observation.from_grid(grid)
    return with_regions(Observation(moved.tokens, moved.confidence, regions=()), *regions)


def test_an_illegal_move_beside_a_persistent_false_hand_is_flagged_once() -> None:
    """A "hand" the reader reports at the far edge in every frame (a reflection not learnt
    yet) does not hide the referee's finding: the confident change no legal move explains is
    flagged once, after 1 + 3 × patience stable frames with the same answer."""
    f = BoardFollower(SETTINGS)
    [f.feed(board(START), START) for _ in range(3)]
    lamp = ("hand", ("h9", "i9", "i8"))
    steps = [f.feed(_illegal(lamp), START) for _ in range(20)]
    flags = [k for k, s in enumerate(steps) if isinstance(s, Flag)]
    assert len(flags) == 1, steps
    # The read is stable from the third frame: the answer has been the same 1 + 3 × patience times.
    assert flags[0] == SETTINGS.stable_frames - 1 + 3 * SETTINGS.patience
    finding = steps[flags[0]].result.findings[0]  # type: ignore[union-attr]
    assert finding.rule is not None and finding.rule.id == "djambi.militant.move"
    assert not any(isinstance(s, Commit | Ask) for s in steps)


def test_an_illegal_move_under_a_hand_over_its_squares_is_still_waited_on() -> None:
    """A hand over a changed square may be in the middle of the move: no flag while it stays
    (for fewer frames than it takes to learn a region that never leaves as blind)."""
    f = BoardFollower(SETTINGS)
    [f.feed(board(START), START) for _ in range(3)]
    steps = [f.feed(_illegal(("hand", ("a6", "b6"))), START) for _ in range(15)]
    assert all(isinstance(s, Waiting) for s in steps)


def test_unknown_squares_the_reader_calls_glare_do_not_make_a_hand() -> None:
    """Four unknown squares at the board's edge look like an arm, unless the reader says they
    are a reflection; a hand region over some of them still counts as a hand."""
    unknown_edge = Observation.from_placement("9/9/9/9/9/9/9/9/3????????2")  # d1–g1
    glare = ("glare", ("d1", "e1", "f1", "g1"))
    assert hand_over_board(unknown_edge) == ("d1", "e1", "f1", "g1")
    assert hand_over_board(with_regions(unknown_edge, glare)) == ()
    assert hand_over_board(with_regions(unknown_edge, ("other", ("d1", "e1", "f1", "g1")))) != ()
    beside = with_regions(unknown_edge, glare, ("hand", ("f1", "g1")))
    assert hand_regions(beside) == ("f1", "g1")


def test_a_move_beside_a_known_reflection_is_committed() -> None:
    """The move's squares are read; the reflection at the edge leaves unknown squares the
    reader calls glare: the follower commits without learning them first."""
    f = BoardFollower(SETTINGS)
    [f.feed(board(START), START) for _ in range(3)]
    after = board(START, MOVE)
    tokens, confidence = list(after.tokens), list(after.confidence)
    for sq in ("d1", "e1", "f1", "g1"):
        tokens[SQUARE_NAMES.index(sq)], confidence[SQUARE_NAMES.index(sq)] = "??", 0.0
    lit = Observation(tuple(tokens), tuple(confidence), after.notes, ())
    lit = with_regions(lit, ("glare", ("d1", "e1", "f1", "g1")))
    steps = [f.feed(lit, START) for _ in range(4)]
    assert any(isinstance(s, Commit) and str(s.move) == MOVE for s in steps), steps
