"""The rules of Djam that decide things, each quoted from the rulebook or from our documented reading.

Every verdict of the engine names one of these. Readings chosen where the rulebook is silent
or ambiguous cite ``docs/games/djam.md``, which quotes the sentence they interpret.
"""

from __future__ import annotations

from referee.games.base import Rule

BOOK = "djam.txt"
DOCS = "docs/games/djam.md"

ROLL = Rule(
    "djam.roll",
    f"{BOOK}, Gameplay",
    "At the start of a round, the roller throws the six-sided numbered die. The result indicates the "
    "theme of the round as defined by the theme card. The roller then throws the five letter dice and "
    "the colour die at the same time.",
)
ROLLER = Rule(
    "djam.roller",
    f"{BOOK}, Gameplay",
    "In the first round, the youngest player starts. At the start of each new round, the roller "
    "changes, passing clockwise.",
)
ORDER = Rule(
    "djam.order",
    f"{DOCS}, Speaking order",
    "A player presses their button when they have a word; the order of the presses is the order in "
    "which players speak. Presses tied within the tie window are placed in seat order, and the "
    "scorekeeper may correct the order.",
)
INITIAL = Rule(
    "djam.initial",
    f"{BOOK}, Gameplay, 1",
    "The word must begin with the letter shown on the letter die whose colour was drawn;",
)
THEME = Rule(
    "djam.theme", f"{BOOK}, Gameplay, 1", "The word must match the theme drawn at the start of the round;"
)
ROOT = Rule(
    "djam.root",
    f"{BOOK}, Gameplay, 1",
    "It is not possible to announce a common noun that uses the same root as a word already spoken "
    "during the same round (éléphant – éléphanteau…).",
)
PROPER = Rule(
    "djam.proper",
    f"{BOOK}, Gameplay, 1",
    "This rule does not apply to proper nouns: for example, Dinan and Dinard may be announced by two "
    "different players in the same round. For proper nouns, the family name or the surname is taken "
    "into account.",
)
REPEAT = Rule(
    "djam.repeat",
    f"{DOCS}, The same-root rule (readings)",
    "A word already spoken in the round, proper noun or not, cannot be announced again.",
)
SCORE = Rule(
    "djam.score",
    f"{BOOK}, Gameplay, 1",
    "A player scores 1 point for each letter that is present both on the dice and in the word they "
    "have just found. They immediately take the matching tokens from the centre of the table.",
)
ONE_WORD = Rule(
    "djam.one-word",
    f"{BOOK}, Gameplay",
    "As soon as a player makes a valid proposal, they collect their tokens (points). They do not play "
    "again for the rest of this round.",
)
LAST_SILENT = Rule(
    "djam.last-silent",
    f"{BOOK}, Gameplay",
    "with 3–4 players, the last player to speak during a round does not score points; with 5–6 "
    "players, the last two players to speak do not score points.",
)
ROUND_END = Rule(
    "djam.round-end",
    f"{BOOK}, Gameplay",
    "Once all the players have made their proposals and scored their points, a new round begins.",
)
TABLE_ENDS_ROUND = Rule(
    "djam.table-ends-round",
    f"{DOCS}, Ambiguities and the readings chosen, 13",
    "When the players still in the round give up, the scorekeeper ends the round; they score nothing.",
)
BLACK_WIN = Rule(
    "djam.black.win",
    f"{BOOK}, Gameplay, 2",
    "Players must then immediately find a word that matches the theme of the round and does not "
    "include any of the letters showing on the dice. Only the first player to find such a word wins "
    "the round. They may then take four tokens from the centre of the table.",
)
BLACK_WRONG = Rule(
    "djam.black.wrong",
    f"{BOOK}, Gameplay, 2",
    "If the player's proposal was wrong (the word they announce contains one or more letters showing "
    "on the dice), the player returns 4 points (if they have them) to the centre of the table.",
)
END = Rule(
    "djam.end",
    f"{BOOK}, Gameplay",
    "The game ends when there are no tokens left in the centre of the table. The winner is the player "
    "with the greatest number of tokens at the end of the game.",
)
END_BY_TABLE = Rule(
    "djam.end-by-table",
    f"{DOCS}, Ambiguities and the readings chosen, 13",
    "The table may stop the game early; the player with the most tokens then wins, ties shown.",
)
UNLIMITED_CENTRE = Rule(
    "djam.unlimited.centre",
    f"{BOOK}, Variant: Unlimited Proposals",
    "Set the tokens aside or leave them in the game box. At the start of a round, before determining "
    "the theme of the round, take 2 tokens per player and place them in the centre of the table.",
)
UNLIMITED_ROUND_END = Rule(
    "djam.unlimited.round-end",
    f"{BOOK}, Variant: Unlimited Proposals",
    "The round ends as soon as there are no tokens left in the centre of the table.",
)
UNLIMITED_BLACK = Rule(
    "djam.unlimited.black",
    f"{BOOK}, Variant: Unlimited Proposals",
    "If the black face appears, the player who wins the round may take tokens directly from the "
    "tokens set aside (not from those of the round). A new round then begins, keeping simply the "
    "tokens already in the centre of the table.",
)
OPEN_CLOSE = Rule(
    "djam.open.close",
    f"{BOOK}, Variant: Open Themes",
    "As soon as a player announces a valid word for a theme, they may no longer announce other words "
    "for that theme. Players do not stop playing after making a first proposal; they continue to "
    'play, score points and "close" themes whenever they make a valid proposal.',
)
OPEN_ROUND_END = Rule(
    "djam.open.round-end",
    f"{BOOK}, Variant: Open Themes",
    'The round ends as soon as all six themes on the card have been "closed".',
)
OPEN_BLACK = Rule(
    "djam.open.black",
    f"{BOOK}, Variant: Open Themes",
    "If the black face appears, the player must find a word that includes no letter and matches one "
    "of the themes (player's choice).",
)
