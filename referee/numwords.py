"""Whole numbers in words, in English and French, for spoken verdicts.

Small and exact for what the referee says (0 to 999 999 999). French follows the traditional
spelling: "vingt et un", "soixante et onze", "quatre-vingts" but "quatre-vingt-un", "deux
cents" but "deux cent un", "mille" invariable; `feminine` gives "une" for a feminine unit
("vingt et une millisecondes").

>>> words(37, "en"), words(37, "fr")
('thirty-seven', 'trente-sept')
>>> words(71, "fr"), words(80, "fr"), words(281, "fr")
('soixante et onze', 'quatre-vingts', 'deux cent quatre-vingt-un')
>>> words(1, "fr", feminine=True), words(101, "en")
('une', 'one hundred and one')
"""

from __future__ import annotations

LIMIT = 1_000_000_000

_EN_SMALL = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

_FR_SMALL = [
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
]
_FR_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}


def words(n: int, lang: str, feminine: bool = False) -> str:
    """`n` in words in `lang` ("en" or "fr")."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < LIMIT:
        raise ValueError(f"only whole numbers from 0 to {LIMIT - 1} are spoken, not {n!r}")
    if lang == "en":
        return _en(n)
    if lang == "fr":
        text = _fr(n)
        if feminine and (text == "un" or text.endswith((" un", "-un"))):
            text = text[:-2] + "une"
        return text
    raise ValueError(f"no number words for language {lang!r}; use en or fr")


# -- English -----------------------------------------------------------------------------------


def _en_below_100(n: int) -> str:
    if n < 20:
        return _EN_SMALL[n]
    tens, unit = divmod(n, 10)
    return _EN_TENS[tens] + (f"-{_EN_SMALL[unit]}" if unit else "")


def _en_below_1000(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    if not hundreds:
        return _en_below_100(rest)
    head = f"{_EN_SMALL[hundreds]} hundred"
    return head + (f" and {_en_below_100(rest)}" if rest else "")


def _en(n: int) -> str:
    if n == 0:
        return "zero"
    parts: list[str] = []
    millions, rest = divmod(n, 1_000_000)
    thousands, rest = divmod(rest, 1000)
    if millions:
        parts.append(f"{_en_below_1000(millions)} million")
    if thousands:
        parts.append(f"{_en_below_1000(thousands)} thousand")
    if rest:
        # "two thousand and five": British usage keeps "and" before a last part under a hundred.
        parts.append(("and " if parts and rest < 100 else "") + _en_below_1000(rest))
    return " ".join(parts)


# -- French ------------------------------------------------------------------------------------


def _fr_below_100(n: int, final: bool) -> str:
    if n <= 16:
        return _FR_SMALL[n]
    if n < 20:
        return f"dix-{_FR_SMALL[n - 10]}"
    tens, unit = divmod(n, 10)
    if tens in (7, 9):  # soixante-dix…, quatre-vingt-dix…: the base plus 10–19
        base = "soixante" if tens == 7 else "quatre-vingt"
        rest = n - (60 if tens == 7 else 80)
        joiner = " et " if rest == 11 and tens == 7 else "-"
        return base + joiner + _fr_below_100(rest, final)
    if tens == 8:
        if unit == 0:
            return "quatre-vingts" if final else "quatre-vingt"
        return f"quatre-vingt-{_FR_SMALL[unit]}"
    base = _FR_TENS[tens]
    if unit == 0:
        return base
    if unit == 1:
        return f"{base} et un"
    return f"{base}-{_FR_SMALL[unit]}"


def _fr_below_1000(n: int, final: bool) -> str:
    hundreds, rest = divmod(n, 100)
    if not hundreds:
        return _fr_below_100(rest, final)
    # "deux cents" takes its s only at the very end of the number.
    plural = "s" if rest == 0 and final else ""
    head = "cent" if hundreds == 1 else f"{_FR_SMALL[hundreds]} cent{plural}"
    return head + (f" {_fr_below_100(rest, final)}" if rest else "")


def _fr(n: int) -> str:
    if n == 0:
        return "zéro"
    parts: list[str] = []
    millions, rest = divmod(n, 1_000_000)
    thousands, rest = divmod(rest, 1000)
    if millions:
        parts.append(f"{_fr_below_1000(millions, True)} million" + ("s" if millions > 1 else ""))
    if thousands:
        parts.append("mille" if thousands == 1 else f"{_fr_below_1000(thousands, False)} mille")
    if rest:
        parts.append(_fr_below_1000(rest, True))
    return " ".join(parts)
