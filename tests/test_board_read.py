"""The placement notation and the read's text and JSON forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.board_geometry import ALL_SQUARES, square_index, square_name
from vision.board_read import BoardRead, PlacementError, SquareRead, format_placement, parse_placement

TOKENS = st.sampled_from([p + k for p in "rbyg" for k in "CARDNM"] + ["xx", "??"])


@given(st.dictionaries(st.sampled_from(ALL_SQUARES), TOKENS))
def test_placement_round_trips(tokens: dict[str, str]) -> None:
    text = format_placement(tokens)
    assert parse_placement(text) == tokens
    assert text.count("/") == 8


def test_placement_orientation_matches_the_engine() -> None:
    # Rank 9 first, files a→i: Green's chief on a9 comes first, Blue's on i1 last.
    assert format_placement({"a9": "gC", "i1": "bC", "e5": "xx"}) == "gC8/9/9/9/4xx4/9/9/9/8bC"
    assert parse_placement("9/9/9/9/9/9/9/9/rC8") == {"a1": "rC"}


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "9/9/9",
        "9/9/9/9/9/9/9/9/10",
        "9/9/9/9/9/9/9/9/8",
        "9/9/9/9/9/9/9/9/rC9",
        "9/9/9/9/9/9/9/9/rQ8",
        "9/9/9/9/9/9/9/9/?8",
    ],
)
def test_bad_placements_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(PlacementError):
        parse_placement(bad)


@given(st.text(alphabet="rbygCARDNMx?0123456789/", max_size=60))
def test_placement_parser_never_crashes(text: str) -> None:
    try:
        tokens = parse_placement(text)
    except PlacementError:
        return
    assert set(tokens) <= set(ALL_SQUARES)


def test_square_names() -> None:
    assert [square_name(*square_index(s)) for s in ALL_SQUARES] == list(ALL_SQUARES)
    assert square_index("e5") == (4, 4)
    for bad in ("j1", "a0", "a10", "E5", ""):
        with pytest.raises(ValueError):
            square_index(bad)


def _read() -> BoardRead:
    squares = []
    for sq in ALL_SQUARES:
        if sq == "a1":
            squares.append(
                SquareRead(sq, "living", 0.9, party="red", kind="chief", piece="red chief", marker_id=0)
            )
        elif sq == "e5":
            squares.append(
                SquareRead(
                    sq, "corpse", 0.8, party="blue", kind="militant", piece="blue militant 2", marker_id=51
                )
            )
        elif sq == "i9":
            squares.append(SquareRead(sq, "unknown", 0.0, note="hidden"))
        else:
            squares.append(SquareRead(sq, "empty", 0.95))
    return BoardRead(tuple(squares), "still", ("a1", "i1"), ((1, 0, 0), (0, 1, 0), (0, 0, 1)))


def test_read_forms() -> None:
    read = _read()
    assert read.placement == "8??/9/9/9/4xx4/9/9/9/rC8"
    assert read.unknown == ("i9",) and not read.complete
    lines = read.grid_text().splitlines()
    assert lines[0].startswith("9") and lines[0].endswith("??")
    assert lines[8].startswith("1  rC")
    data = read.to_json()
    assert data["placement"] == read.placement
    e5 = data["squares"][ALL_SQUARES.index("e5")]
    # A corpse has no party in the engine's sense; whose it was is kept apart.
    assert e5 == {
        "square": "e5",
        "state": "corpse",
        "party": None,
        "kind": None,
        "confidence": 0.8,
        "was": "blue militant 2",
        "marker": 51,
    }
    assert data["squares"][0]["party"] == "red" and data["squares"][0]["kind"] == "chief"


def test_read_needs_all_squares_in_order() -> None:
    with pytest.raises(ValueError):
        BoardRead(_read().squares[:80], "still", (), ())
