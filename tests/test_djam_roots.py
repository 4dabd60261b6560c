"""The same-root rule's three answers: same (refused), near (the scorekeeper rules), different."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.djam.roots import compare_roots, stem


def test_snowball_alone_misses_the_rulebook_example() -> None:
    # Why the prefix rule exists: the stems differ.
    assert stem("éléphant") == "eleph"
    assert stem("éléphanteau") == "elephanteau"


@pytest.mark.parametrize(
    ("new", "old", "kind"),
    [
        ("éléphanteau", "éléphant", "same"),  # the rulebook's example
        ("éléphant", "éléphanteau", "same"),  # either way round
        ("Éléphants", "éléphant", "same"),
        ("journaux", "journal", "same"),
        ("maisonnette", "maison", "same"),
        ("boulangerie", "boulanger", "same"),
        ("chevaux", "cheval", "same"),
        ("château", "chat", "near"),  # a short stem: the scorekeeper decides
        ("chaton", "chat", "near"),
        ("mère", "mer", "near"),
        ("poison", "poisson", "near"),
        ("chanson", "chanteur", "near"),
        ("dromadaire", "chameau", "different"),
        ("bus", "busard", "different"),  # 3 shared letters: below the prefix rule
        ("bateau", "barque", "different"),
    ],
)
def test_root_kinds(new: str, old: str, kind: str) -> None:
    check = compare_roots(new, old)
    assert check.kind == kind, check.reason


def test_prefix_length_is_a_setting() -> None:
    assert compare_roots("chanson", "chanteur", prefix=5).kind == "different"
    assert compare_roots("bus", "busard", prefix=3).kind == "near"


def test_language_is_a_setting() -> None:
    assert compare_roots("hopeful", "hoping", "english").kind == "same"  # both stem to "hope"
    assert compare_roots("hopeful", "hoping", "french").kind == "different"
    assert compare_roots("Häuser", "Haus", "german").kind == "same"


words = st.text(alphabet="abcdeéilmnorstu", min_size=1, max_size=12)


@given(words, words)
def test_root_comparison_is_symmetric_and_total(a: str, b: str) -> None:
    ab, ba = compare_roots(a, b), compare_roots(b, a)
    assert ab.kind == ba.kind
    assert compare_roots(a, a).kind == "same"
