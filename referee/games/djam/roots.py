"""The same-root rule: does a new common noun share its root with a word already spoken?

"It is not possible to announce a common noun that uses the same root as a word already
spoken during the same round (éléphant – éléphanteau…)" (djam.txt, Gameplay).

A stemmer alone misses the rulebook's own example: Snowball French stems "éléphant" to
"éleph" but leaves "éléphanteau" whole. So a real stemmer (Snowball, language a setting) is
combined with a shared-prefix rule, and each pair of words gets one of three answers:

- ``same``: refused without asking —
  the two stems are equal and at least 4 letters long (journal – journaux), or
  the stem of one word, at least 5 letters long, begins the other word or its stem
  (éléphant → "eleph" begins "elephanteau"; maison → "maison" begins "maisonnette");
- ``near``: flagged for the scorekeeper, who rules either way —
  equal stems shorter than 4 letters (mer – mère), a 4-letter stem beginning the other word
  (chat – château, chat – chaton), or the two words sharing their first `prefix` letters
  (default 4) when that is at least half of the shorter word (poisson – poison);
- ``different``: nothing in common worth asking about.

Comparisons are made on folded letters (no accents, lowercase), so "Elephant" and
"éléphant" are one word.

>>> compare_roots("éléphanteau", "éléphant").kind
'same'
>>> compare_roots("château", "chat").kind
'near'
>>> compare_roots("dromadaire", "chameau").kind
'different'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import snowballstemmer

from referee.games.djam.letters import fold_letter

SAME_STEM_MIN = 4  # equal stems this long are one root (shorter ones: mer/mère, only flagged)
STEM_PREFIX_MIN = 5  # a stem this long beginning another word is the same root


@dataclass(frozen=True)
class RootCheck:
    """The answer for one pair of words, with the evidence shown to the table."""

    kind: Literal["same", "near", "different"]
    reason: str
    stems: tuple[str, str]


def languages() -> tuple[str, ...]:
    """The stemmer languages available (Snowball's algorithm names)."""
    return tuple(snowballstemmer.algorithms())


@cache
def _stemmer(language: str) -> Any:  # snowballstemmer ships no type hints
    return snowballstemmer.stemmer(language)


def _letters_only(text: str) -> str:
    """Lowercase NFC letters (accents kept, for the stemmer), separators dropped."""
    lowered = unicodedata.normalize("NFC", text).lower()
    return "".join(c for c in lowered if c.isalpha() or unicodedata.combining(c))


def _fold(text: str) -> str:
    return "".join(fold_letter(c) for c in text)


def stem(word: str, language: str = "french") -> str:
    """The folded stem of a word: ``stem("Éléphants") == "eleph"``."""
    return _fold(_stemmer(language).stemWord(_letters_only(word)))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def compare_roots(new: str, old: str, language: str = "french", prefix: int = 4) -> RootCheck:
    """Compare a new word with one already spoken (see the module docstring for the rule)."""
    a, b = _fold(_letters_only(new)), _fold(_letters_only(old))
    sa, sb = stem(new, language), stem(old, language)
    stems = (sa, sb)
    if a == b:
        return RootCheck("same", f"{new!r} is the word {old!r} again", stems)
    if sa == sb:
        if len(sa) >= SAME_STEM_MIN:
            return RootCheck("same", f"{new!r} and {old!r} have the same stem {sa!r}", stems)
        return RootCheck("near", f"{new!r} and {old!r} have the same short stem {sa!r}", stems)
    for s, word_s, other, other_word, other_stem in ((sa, new, b, old, sb), (sb, old, a, new, sa)):
        if len(s) >= SAME_STEM_MIN and (other.startswith(s) or other_stem.startswith(s)):
            kind: Literal["same", "near"] = "same" if len(s) >= STEM_PREFIX_MIN else "near"
            return RootCheck(kind, f"the stem {s!r} of {word_s!r} begins {other_word!r}", stems)
    shared = _common_prefix(a, b)
    if shared >= prefix and 2 * shared >= min(len(a), len(b)):
        return RootCheck(
            "near", f"{new!r} and {old!r} begin with the same {shared} letters {a[:shared]!r}", stems
        )
    return RootCheck("different", f"{new!r} and {old!r} have different roots", stems)
