"""What the referee says after a contest, in English or French (a pure function of the verdict).

>>> sentence({"ranking": [["Anne"], ["Marc"]], "margins_ns": [37_200_000], "false_starts": []}, "en")
'Anne, by thirty-seven milliseconds.'
>>> sentence({"ranking": [["Anne", "Marc"]], "margins_ns": [], "false_starts": []}, "fr",
...          game_rules=["dschamal.duel.tie"])
'Égalité entre Anne et Marc — on refait le duel.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.numwords import words

TEXT = {
    "en": {
        "and": "and",
        "by": "{winner}, by {margin}.",
        "alone": "{winner}. Nobody else pressed.",
        "tie": "Tie between {names}",
        "repeat": " — repeat the duel",
        "nobody": "No valid press.",
        "false": " False start: {names}.",
        "held": " Held down at the start: {names}.",
        "units": {"s": ("second", "seconds"), "ms": ("millisecond", "milliseconds"),
                  "us": ("microsecond", "microseconds")},
    },
    "fr": {
        "and": "et",
        "by": "{winner}, avec {margin} d'avance.",
        "alone": "{winner}. Personne d'autre n'a appuyé.",
        "tie": "Égalité entre {names}",
        "repeat": " — on refait le duel",
        "nobody": "Aucun appui valable.",
        "false": " Faux départ : {names}.",
        "held": " Bouton déjà enfoncé au départ : {names}.",
        "units": {"s": ("seconde", "secondes"), "ms": ("milliseconde", "millisecondes"),
                  "us": ("microseconde", "microsecondes")},
    },
}  # fmt: skip


def join_names(names: Sequence[str], lang: str) -> str:
    """ "Anne", "Anne and Marc", "Anne, Marc and Carl" (French: "et")."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {TEXT[lang]['and']} {names[-1]}"


def duration(ns: int, lang: str) -> str:
    """A margin in words, in the largest unit that keeps it a whole number above zero."""
    units = TEXT[lang]["units"]
    if ns >= 1_000_000_000:
        n, unit = round(ns / 1e9), "s"
    elif ns >= 1_000_000:
        n, unit = round(ns / 1e6), "ms"
    else:
        n, unit = max(1, round(ns / 1e3)), "us"
    if unit == "ms" and n == 1000:
        n, unit = 1, "s"
    singular, plural = units[unit]
    # The French units are feminine: "une milliseconde", "vingt et une millisecondes".
    return f"{words(n, lang, feminine=True)} {singular if n == 1 else plural}"


def sentence(verdict: Mapping[str, Any], lang: str, game_rules: Sequence[str] = ()) -> str:
    """The spoken verdict of one contest; `game_rules` are the ids of the game's verdicts on it."""
    if lang not in TEXT:
        raise ValueError(f"no spoken verdicts in {lang!r}; choose en or fr")
    t = TEXT[lang]
    ranking = [list(entry) for entry in verdict.get("ranking", [])]
    margins = list(verdict.get("margins_ns", []))
    first = ranking[0] if ranking else []
    if len(first) > 1:
        text = t["tie"].format(names=join_names(first, lang))
        if any(rule.endswith(".tie") for rule in game_rules):
            text += t["repeat"]
        text += "."
    elif first:
        if margins:
            text = t["by"].format(winner=first[0], margin=duration(int(margins[0]), lang))
        else:
            text = t["alone"].format(winner=first[0])
    else:
        text = t["nobody"]
    fouls = list(verdict.get("false_starts", []))
    if fouls:
        text += t["false"].format(names=join_names(fouls, lang))
    held = list(verdict.get("held_at_arm", []))
    if held:
        text += t["held"].format(names=join_names(held, lang))
    return text
