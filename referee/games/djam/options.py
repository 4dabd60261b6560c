"""Djam's documented options and how a game header becomes `Settings`.

Each option is a reading where tables differ or a setting of the box; docs/games/djam.md
quotes the rulebook sentence behind each.
"""

from __future__ import annotations

from typing import Any

from referee.games.base import EventError, GameHeader, OptionSpec, resolve_options
from referee.games.djam.model import VARIANTS, Settings
from referee.games.djam.roots import languages
from referee.games.djam.themes import ThemeDataError, cards, check_themes, theme_card

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "pool", 90, (), "tokens in the game (the box holds 90); the game ends when none are left to win"
    ),
    OptionSpec("card", 1, tuple(sorted(cards())), "the theme card used for the whole game"),
    OptionSpec("themes", None, (), "six theme names of your own, replacing the card's (a list of 6 strings)"),
    OptionSpec("language", "french", languages(), "language of the stemmer for the same-root rule"),
    OptionSpec(
        "last_silent",
        "auto",
        ("auto", 0, 1, 2),
        "classic game: how many of the last players to speak score nothing; auto = 1 with 2–4 players, "
        "2 with 5–6 (Unlimited and Open themes have no last speaker)",
    ),
    OptionSpec(
        "black_penalty",
        "up-to-4",
        ("up-to-4", "4-or-nothing"),
        "a wrong word on the black face returns 4 tokens; with fewer, up-to-4 returns all the player has, "
        "4-or-nothing returns none",
    ),
    OptionSpec(
        "theme_ruling",
        "scorekeeper",
        ("scorekeeper", "majority"),
        "who decides whether a word fits the theme: the scorekeeper, or a majority vote of the other players",
    ),
    OptionSpec(
        "close_themes",
        "everyone",
        ("everyone", "speaker"),
        "Open themes: a valid word closes its theme for everyone, or only for the player who said it",
    ),
    OptionSpec(
        "black_centre",
        "keep",
        ("keep", "add"),
        "Unlimited: a round that starts with tokens still in the centre (after a black round) plays for "
        "them as they are (keep) or adds 2 per player on top (add)",
    ),
    OptionSpec(
        "black_penalty_to",
        "supply",
        ("supply", "centre"),
        "Unlimited: a wrong black word's 4 tokens go back to the set-aside supply or to the round's centre",
    ),
    OptionSpec("press_window_s", 10, (), "seconds each button contest collects presses (2–120)"),
    OptionSpec(
        "youngest", None, (), "the youngest player, who rolls first (default: the first player listed)"
    ),
    OptionSpec(
        "root_prefix",
        4,
        (3, 4, 5, 6),
        "same-root rule: words sharing this many first letters (and half the shorter word) are flagged",
    ),
)


def _whole(value: Any, name: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise EventError(f"option {name!r} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def default_silent(players: int) -> int:
    """The rulebook's count of last speakers who score nothing; 2 players read as 3–4 (docs)."""
    return 2 if players >= 5 else 1


def settings_from_header(header: GameHeader) -> Settings:
    """Resolve the header's options; raises EventError naming the bad option."""
    variant = header.variant or VARIANTS[0]
    if variant not in VARIANTS:
        raise EventError(f"Djam has no variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    for name in ("last_silent", "root_prefix"):
        if isinstance(header.options.get(name), bool):
            raise EventError(f"option {name!r} must be a number, not true/false")
    opts = resolve_options(OPTIONS, header.options)
    players = header.players
    n = len(players)
    total = _whole(opts["pool"], "pool", 1, 9999)
    try:
        if opts["themes"] is not None:
            themes, card = check_themes(opts["themes"], "option 'themes'"), None
        else:
            themes, card = theme_card(opts["card"]), opts["card"]
    except ThemeDataError as exc:
        raise EventError(str(exc)) from None
    silent = default_silent(n) if opts["last_silent"] == "auto" else opts["last_silent"]
    if variant == VARIANTS[0] and silent >= n:
        raise EventError(f"with {n} players at most {n - 1} can score nothing; lower option 'last_silent'")
    youngest = opts["youngest"]
    if youngest is None or youngest == "":
        youngest_seat = 0
    elif youngest in players:
        youngest_seat = players.index(youngest)
    else:
        raise EventError(f"option 'youngest' must name a player ({', '.join(players)}), not {youngest!r}")
    return Settings(
        players=players,
        variant=variant,
        total=total,
        themes=themes,
        card=card,
        language=opts["language"],
        silent=silent,
        black_penalty=opts["black_penalty"],
        theme_ruling=opts["theme_ruling"],
        close_themes=opts["close_themes"],
        black_centre=opts["black_centre"],
        black_penalty_to=opts["black_penalty_to"],
        press_window_s=_whole(opts["press_window_s"], "press_window_s", 2, 120),
        youngest=youngest_seat,
        root_prefix=opts["root_prefix"],
    )
