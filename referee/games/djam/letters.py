"""Words as the dice see them: Unicode and case folding, and the letters a word shares with the dice.

The dice show the 26 Latin letters. A spoken word is typed by the scorekeeper as it is spelled
("Buñuel", "éléphant", "Œdipe") and compared letter by letter after folding:

- accents and other diacritics are dropped (é → e, ñ → n, ç → c, å → a);
- case is folded (B = b);
- letters written as one glyph but spelled as several count as several: æ → ae, œ → oe,
  ß → ss, ĳ → ij, þ → th (so "Lætitia" scores like "Laetitia", docs/games/djam.md);
- spaces, hyphens, apostrophes and full stops separate parts of a name and count for nothing.

Anything else is refused with a message naming the character: digits, emoji and symbols,
invisible characters (zero-width spaces, joiners, variation selectors), stray or stacked
combining marks, letters of other scripts, control characters.

>>> w = fold_word("Buñuel")
>>> w.letters, w.positions
('bunuel', (0, 1, 2, 3, 4, 5))
>>> fold_word("Lætitia").letters
'laetitia'
>>> common_letters("bono", {"green": "B", "white": "O", "yellow": "R", "red": "V", "blue": "A"}, "green")
((0, 'green'), (1, 'white'))
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("green", "white", "yellow", "red", "blue")
BLACK = "black"
MAX_WORD_CHARS = 64

# Letters that Unicode does not decompose but that are spelled with plain Latin letters.
_SPELLED = {
    "æ": "ae",
    "œ": "oe",
    "ø": "o",
    "đ": "d",
    "ð": "d",
    "ł": "l",
    "þ": "th",
    "ı": "i",
    "ŀ": "l",
    "ħ": "h",
    "ŧ": "t",
    "ƀ": "b",
    "ɨ": "i",
    "ʼ": "",  # left by ŉ (ʼn)
}
_SPACES = frozenset(" \u00a0\u202f\u2007\u2009")  # no-break spaces come from French keyboards
_SEPARATORS = frozenset("-\u2010\u2011'\u2019\u02bc.")  # hyphens, apostrophes, the full stop of "St."
_INVISIBLE_MARKS = frozenset("\u034f\u180b\u180c\u180d\u180e")  # grapheme joiner, Mongolian selectors
# Combining marks used on Latin letters (accents); others belong to other scripts.
_LATIN_MARK_RANGES = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0xFE20, 0xFE2F))
_MAX_MARKS_PER_LETTER = 2  # Vietnamese stacks two (ế); more is decoration, not spelling


class WordError(ValueError):
    """A typed word that cannot be read as letters; the message names the character and the fix."""


@dataclass(frozen=True)
class FoldedWord:
    """A word as typed (NFC, trimmed, spaces tidied) and its folded letters.

    `positions[i]` is the index in `text` of the character that gave `letters[i]`; a letter
    spelled as two ("æ") gives two letters at the same position.
    """

    text: str
    letters: str
    positions: tuple[int, ...]

    @property
    def initial(self) -> str:
        """The first letter, folded ("Œdipe" → "o")."""
        return self.letters[0]


def describe(ch: str) -> str:
    """A character for an error message: ``'😀' (U+1F600 GRINNING FACE)``."""
    name = unicodedata.name(ch, "unnamed character")
    shown = ch if unicodedata.category(ch)[0] in "LNPS" else ""
    return f"{shown!r} (U+{ord(ch):04X} {name})" if shown else f"U+{ord(ch):04X} {name}"


def fold_letter(ch: str) -> str:
    """The Latin letters one letter is spelled with, lowercase ('' when it has none)."""
    decomposed = unicodedata.normalize("NFKD", ch)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return "".join(_SPELLED.get(c, c) for c in bare)


def _is_latin_mark(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _LATIN_MARK_RANGES)


def _tidy(raw: str) -> str:
    """NFC (so that e + U+0301 becomes é), trimmed, every space-like run made one space."""
    text = unicodedata.normalize("NFC", raw).strip()
    out: list[str] = []
    for ch in text:
        if ch in _SPACES:
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def fold_word(raw: object) -> FoldedWord:
    """Read a typed word; raise WordError naming the first character that is not part of a word."""
    if not isinstance(raw, str):
        raise WordError("the word must be text")
    text = _tidy(raw)
    if len(text) > MAX_WORD_CHARS:
        raise WordError(f"the word is {len(text)} characters long; a word has at most {MAX_WORD_CHARS}")
    letters: list[str] = []
    positions: list[int] = []
    marks_on_letter = 0
    previous_is_letter = False
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if ch == " " or ch in _SEPARATORS:
            previous_is_letter = False
            continue
        if (
            ch in _INVISIBLE_MARKS
            or category == "Cf"
            or 0xFE00 <= ord(ch) <= 0xFE0F
            or 0xE0100 <= ord(ch) <= 0xE01EF
        ):
            raise WordError(
                f"the word holds an invisible character, {describe(ch)}, at position {i + 1}; "
                "retype the word without pasting it"
            )
        if category == "Mn":
            if not previous_is_letter:
                raise WordError(
                    f"the accent {describe(ch)} at position {i + 1} has no letter before it; retype the word"
                )
            if not _is_latin_mark(ch):
                raise WordError(
                    f"the mark {describe(ch)} at position {i + 1} is not an accent of Latin letters; "
                    "the dice only show A–Z"
                )
            marks_on_letter += 1
            if marks_on_letter > _MAX_MARKS_PER_LETTER:
                raise WordError(
                    f"more than {_MAX_MARKS_PER_LETTER} accents are stacked on {text[i - marks_on_letter]!r} "
                    f"(position {i + 1 - marks_on_letter}); retype the word"
                )
            continue
        marks_on_letter = 0
        if category in ("Me", "Mc"):
            raise WordError(f"the mark {describe(ch)} at position {i + 1} is not part of a Latin word")
        if category[0] == "N":
            raise WordError(
                f"the word holds the digit or number {describe(ch)} at position {i + 1}; "
                "spell numbers out in letters (Cinq, not 5)"
            )
        if category[0] == "S":
            raise WordError(
                f"the word holds the symbol {describe(ch)} at position {i + 1}, which is not a letter; "
                "type only the letters of the word"
            )
        if category[0] == "C":
            raise WordError(f"the word holds the control character {describe(ch)} at position {i + 1}")
        if category[0] == "P" or category[0] == "Z":
            raise WordError(
                f"{describe(ch)} at position {i + 1} is not part of a word; letters, spaces, hyphens "
                "and apostrophes only"
            )
        spelled = fold_letter(ch)
        if not spelled or not all("a" <= c <= "z" for c in spelled):
            raise WordError(
                f"{describe(ch)} at position {i + 1} is not a Latin letter; the dice only show A–Z, "
                "so spell the word in Latin letters"
            )
        letters.extend(spelled)
        positions.extend([i] * len(spelled))
        previous_is_letter = True
    if not letters:
        raise WordError("the word has no letters; type the word as it was spoken")
    return FoldedWord(text, "".join(letters), tuple(positions))


def fold_die_letter(raw: object, colour: str) -> str:
    """One die face as an uppercase letter A–Z ("b" → "B"); raises WordError otherwise."""
    if not isinstance(raw, str):
        raise WordError(f"the {colour} die must show a letter, not {raw!r}")
    text = unicodedata.normalize("NFC", raw.strip())
    spelled = fold_letter(text) if len(text) == 1 else ""
    if len(spelled) != 1 or not "a" <= spelled <= "z":
        raise WordError(f"the {colour} die must show one letter A–Z, not {raw!r}")
    return spelled.upper()


def common_letters(
    letters: str, dice: Mapping[str, str], required: str | None
) -> tuple[tuple[int, str], ...]:
    """The letters a word shares with the dice: (index in `letters`, die colour) pairs.

    The size of the multiset intersection: each die scores at most once, each letter of the
    word at most once. The required die (the colour drawn) is matched to the initial letter
    first, so it is always the one that counts for it. Other letters take the dice in colour
    order, left to right, which only decides which die is highlighted, never the score.
    """
    free = [c for c in COLOURS if c in dice]
    pairs: list[tuple[int, str]] = []
    used_index: set[int] = set()
    if required is not None and letters and dice.get(required, "").lower() == letters[0]:
        pairs.append((0, required))
        free.remove(required)
        used_index.add(0)
    for i, letter in enumerate(letters):
        if i in used_index:
            continue
        for colour in free:
            if dice[colour].lower() == letter:
                pairs.append((i, colour))
                free.remove(colour)
                break
    return tuple(sorted(pairs))


def letters_on_dice(letters: str, dice: Mapping[str, str]) -> tuple[tuple[int, str], ...]:
    """Every letter of the word that shows on some die (the black face's faults)."""
    pairs = []
    for i, letter in enumerate(letters):
        for colour in COLOURS:
            if dice.get(colour, "").lower() == letter:
                pairs.append((i, colour))
                break
    return tuple(pairs)
