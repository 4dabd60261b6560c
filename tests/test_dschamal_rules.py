"""Every rule the referee cites quotes its source faithfully."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.games.base import Rule
from referee.games.dschamal import rules

ROOT = Path(__file__).resolve().parents[1]
# The rulebooks ship with the referee (referee/data/rules/), copied from the team's shared/rules/.
RULEBOOK = ROOT / "referee" / "data" / "rules" / "dschamal.txt"
DOCS = ROOT / "docs" / "games" / "dschamal.md"
ALL = [r for r in vars(rules).values() if isinstance(r, Rule)]


def flat(text: str) -> str:
    """Bullets and line breaks removed, whitespace collapsed: the rulebook as running text."""
    return re.sub(r"\s+", " ", text.replace("•", " ")).strip()


def test_rule_ids_are_unique() -> None:
    ids = [r.id for r in ALL]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("dschamal.") for i in ids)


@pytest.mark.parametrize("rule", [r for r in ALL if r.source.startswith("dschamal.txt")], ids=lambda r: r.id)
def test_quotes_from_the_rulebook_are_verbatim(rule: Rule) -> None:
    book = flat(RULEBOOK.read_text(encoding="utf-8"))
    section = rule.source.split(", ", 1)[1].split(", ")[-1]
    assert section in book, f"no section {section!r} in the rulebook"
    for fragment in rule.text.split("..."):  # "..." marks words left out of a bulleted list
        fragment = flat(fragment)
        if fragment:
            assert fragment in book, f"{rule.id}: not in the rulebook: {fragment!r}"


@pytest.mark.parametrize("rule", [r for r in ALL if r.source.startswith("docs/")], ids=lambda r: r.id)
def test_readings_cite_a_section_of_the_rules_documentation(rule: Rule) -> None:
    section = rule.source.split(", ", 1)[1]
    assert f"\n## {section}\n" in DOCS.read_text(encoding="utf-8")
