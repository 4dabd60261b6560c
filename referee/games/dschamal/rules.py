"""Every rule the Dschamál referee cites, with the rulebook sentence that decides.

Rules quoted from the rulebook cite ``dschamal.txt, <section>``; where the rulebook is silent,
the reading this referee chose is documented in ``docs/games/dschamal.md`` and cited from there.
"""

from __future__ import annotations

from referee.games.base import Rule

BOOK = "dschamal.txt"
DOCS = "docs/games/dschamal.md"


def _book(rule_id: str, section: str, text: str) -> Rule:
    return Rule(f"dschamal.{rule_id}", f"{BOOK}, {section}", text)


def _docs(rule_id: str, section: str, text: str) -> Rule:
    return Rule(f"dschamal.{rule_id}", f"{DOCS}, {section}", text)


# --- Setting up -------------------------------------------------------------------------------
SETUP_DUEL = _book(
    "setup.duel",
    "Duel for Dschamál, Game Preparation",
    "Each player places one arbitrary blue stone in front of him or her. "
    "The camel and the remaining stones are put into the bag.",
)
SETUP_TOWER = _book("setup.tower", "The Dschamál Tower, Game Preparation", "The four eggs are sorted out.")
SETUP_TRIO = _book(
    "setup.trio",
    "The Dschamál Trio, Game Preparation",
    "Each player places one arbitrary yellow playing stone in front of him or her.",
)
SETUP_QUARTET = _book(
    "setup.quartet",
    "The Dschamál Quartet for Children, Game Preparation",
    "Each player places two arbitrary blue playing stones in front of him or her. "
    "The camel is taken out of the game.",
)
FIRST_DUEL = _book(
    "order.first",
    "Duel for Dschamál, The Duel",
    "The player with the shortest fingers puts the bag down for the first duel between him or her "
    "and his or her left-hand neighbour.",
)
FIRST_TRIO = _book(
    "trio.first",
    "The Dschamál Trio, Game Play",
    "The player with the longest fingers fights out the first contest with his or her left-hand and "
    "right-hand neighbours.",
)
FIRST_QUARTET = _book(
    "quartet.turn",
    "The Dschamál Quartet for Children, Game Play",
    "Play proceeds in turn. Whoever's turn it is duels with his or her left-hand neighbour.",
)

# --- Who was faster ------------------------------------------------------------------------
FASTEST = _book(
    "duel.fastest",
    "Duel for Dschamál, The Duel",
    "The player who believes he or she has one of these stones in his or her hand pulls the hand out "
    "of the bag and quickly places the hand (unopened) on the table.",
)
JUDGED = _book(
    "duel.judged",
    "Duel for Dschamál, The Duel",
    "If both players do this almost simultaneously, the other players decide which of them was the fastest.",
)
TIE = _book(
    "duel.tie",
    "Duel for Dschamál, The Duel",
    "If both players were equally fast, the duel is repeated (both stones are first put back into the "
    "bag without being looked at).",
)
NO_PRESS = _docs(
    "contest.no-press",
    "Buttons",
    "When no duellist places a hand validly (nobody pressed, or every press was a false start), "
    "nobody was faster: the contest is repeated with every stone back in the bag unseen.",
)
FALSE_START = _docs(
    "contest.false-start",
    "Buttons",
    "A false start or a button held down at the call is not ranked: that player counts as slower "
    "than every player who pressed validly (option false_start = repeat: the contest is repeated).",
)
DRAWN = _book(
    "duel.shape",
    "Duel for Dschamál, The Result of the Duel",
    "Now it all depends on the SHAPE of the stone that the fastest player took out of the bag.",
)
SLOWER_BACK = _book(
    "duel.slower-back",
    "Duel for Dschamál, The Duel",
    "The slowest throws his or her stone, without looking, back into the bag.",
)

# --- The result of the duel ------------------------------------------------------------------
_RESULT = "Duel for Dschamál, The Result of the Duel"
FASTER_OWNS = _book("duel.faster-owns", _RESULT, "He or she owns the drawn shape himself or herself.")
OPPONENT_OWNS = _book(
    "duel.opponent-owns", _RESULT, "Not he or she, but his or her opponent in the duel owns the drawn shape."
)
CAMEL_CALLED = _book(
    "duel.camel",
    _RESULT,
    'He or she has drawn the camel out of the bag and calls "I am the camel!" before placing it on the table.',
)
BLACK_DRAWN = _book("duel.black", _RESULT, "The drawn stone is black (but not the camel).")
NOBODY_OWNS = _book("duel.nobody-owns", _RESULT, "Neither of the two duellists owns the drawn shape.")
CAMEL_UNCALLED = _book(
    "duel.camel-uncalled",
    _RESULT,
    'The camel is drawn, but the faster player does not call "I am the camel!" before placing it on the table.',
)
WRONG_CALL = _book(
    "duel.wrong-call",
    _RESULT,
    'The player who calls "I am the camel!" although he or she did not draw the camel must give the drawn '
    'stone to his or her duel partner. If the "camel caller" has drawn a black stone, his or her opponent '
    "takes an already collected stone away from him or her.",
)
BOTH_WRONG = _book(
    "duel.both-wrong", _RESULT, 'If both players wrongly call "I am the camel!", the duel is repeated.'
)
SEVERAL = _book(
    "duel.several",
    _RESULT,
    "Whoever, as the faster player, has (by mistake) drawn two or more stones out of the bag has lost the "
    "duel. The drawn black stones go back into the bag, the coloured stones are given to the duel opponent.",
)
RECEIVED_NOT_WINNING = _book(
    "duel.no-winning-stones",
    _RESULT,
    "The stones that a winner of the duel receives may not be winning stones",
)
BLACK_BACK = _book(
    "duel.black-back",
    _RESULT,
    "As long as a camel or a black stone is drawn, this object is put back into the bag.",
)
SLOWER_CALL_IGNORED = _docs(
    "duel.slower-call",
    "Ambiguities",
    'Only the faster player\'s hand is opened, so a wrong "I am the camel!" by the slower player alone '
    "changes nothing (option slower_camel_call = ignored); it only counts to find that both called wrongly.",
)
SLOWER_CALL_FORFEITS = _docs(
    "duel.slower-call-forfeits",
    "Ambiguities",
    'With option slower_camel_call = forfeits, a slower player who wrongly calls "I am the camel!" cannot '
    "win the duel: where the faster player's stone would have lost, the faster player wins instead and "
    "receives the slower player's drawn stone (a black one: a stone of his or her choice).",
)
REACH_AGAIN = _book(
    "duel.reach-again",
    "Duel for Dschamál, The Loser of the Duel Owns No Playing Stones",
    "In this case the winner of the duel may reach into the bag again to try to find a coloured (not black) "
    "stone of a shape that no player owns yet. If that succeeds, he or she may keep this stone (otherwise "
    "the stone must be put back into the bag).",
)
ONLY_WINNING_NOTHING = _docs(
    "duel.only-winning",
    "Ambiguities",
    "With option loser_only_winning = nothing, a loser who holds only winning stones hands over nothing "
    "and the winner receives nothing.",
)
ONE_CHOICE = _docs(
    "duel.one-choice",
    "Console",
    "When the loser holds a single stone that may be taken, the choice is made for the winner.",
)

# --- The decision stone ------------------------------------------------------------------------
_DECISION = "Duel for Dschamál, Neither of the Duellists Owns a Stone"
DECISION_STONE = _book(
    "decision.stone",
    _DECISION,
    "If at the start of a duel there are no playing stones in front of either of the two players (or only "
    "winning stones), a coloured stone is taken out of the bag and placed in the middle of the table as the "
    "decision stone. The decision stone must (if possible) have a shape that no player owns yet.",
)
DECISION_SHAPE = _book(
    "decision.shape",
    _DECISION,
    "The duel is won by the faster player if he or she can take a stone of this shape out of the bag. He or "
    "she then receives the drawn stone and the decision stone.",
)
DECISION_CAMEL = _book(
    "decision.camel",
    _DECISION,
    'The faster player also wins the duel if he or she draws the camel out of the bag and calls "I am the '
    'camel!". He or she then receives only the decision stone. The camel goes back into the bag.',
)
DECISION_LOST = _book(
    "decision.lost",
    _DECISION,
    "If the faster player loses the duel, his or her opponent receives the decision stone. The drawn stone "
    "is put back into the bag.",
)

# --- Winning stones and the end ---------------------------------------------------------------
WINNING_OUT_OF_BAG = _book(
    "winning.out-of-bag",
    "Duel for Dschamál, Object of the Game",
    "The collected stones become winning stones as soon as all four stones of the same shape have been "
    "fished out of the bag.",
)
WINNING_IN_FRONT = _book(
    "winning.in-front",
    "Duel for Dschamál, The Winning Stones",
    "As soon as all four stones of one shape lie in front of one player, these stones become winning stones.",
)
SEVEN = _book(
    "end.seven",
    "Duel for Dschamál, End of the Game and Winner",
    "The player who is the first to have gathered seven winning stones wins the game.",
)
SEVEN_AT_ONCE = _docs(
    "end.seven-at-once",
    "Ambiguities",
    "When two or more players reach seven winning stones in the same contest, they are first together: "
    "the one with the most winning stones wins (option simultaneous_seven = most; still level, or option "
    "shared: they share the victory).",
)
STALLED = _docs(
    "end.stalled",
    "Ambiguities",
    "When a decision stone is needed and no coloured stone is left in the bag, no duel can be fought any "
    "more: the game ends and the most winning stones win (level players share).",
)

# --- The order of duels -------------------------------------------------------------------------
_NEXT = "Duel for Dschamál, The Next Duel"
IN_TURN = _book("order.in-turn", _NEXT, "In a game with three players, play always proceeds in turn.")
LORD = _book("order.lord", _NEXT, 'The player who wins a duel becomes the "lord of the stones".')
BEAT_LORD = _book(
    "order.beat-lord",
    _NEXT,
    'Whoever defeats the "lord of the stones" duels with his or her left-hand neighbour.',
)
LORD_WINS = _book(
    "order.lord-wins",
    _NEXT,
    'If the "lord of the stones" wins the duel, the next duel is fought against the left-hand neighbour of '
    "the loser.",
)
ROUND = _book(
    "order.round",
    _NEXT,
    "The player who succeeds in winning once a complete round against all fellow players may not take part "
    'in the next duel. Instead, his or her left-hand neighbour now becomes the new "lord of the stones". He '
    "or she duels with his or her left-hand neighbour.",
)
LOSER_SKIP = _book(
    "order.loser-skip",
    _NEXT,
    "The loser of a duel never takes part in the next duel. If necessary he or she is skipped (meaning that "
    "his or her left-hand neighbour takes part in the duel).",
)

# --- The Tower ----------------------------------------------------------------------------------
_TOWER = "The Dschamál Tower, Game Play"
TOWER_WINNER = _book(
    "tower.winner",
    "The Dschamál Tower, The Next Duel",
    "In this variant the winner of a duel is always the player who was the first to take a playing stone out "
    "of the bag.",
)
TOWER_KEEP = _book(
    "tower.keep",
    _TOWER,
    "keeps this stone if no player yet owns a playing stone of this shape (this also holds for black playing "
    "stones)",
)
TOWER_GIVE = _book(
    "tower.give",
    _TOWER,
    "gives the playing stone to a player of his or her choice if he or she himself or herself owns a stone "
    "of this shape (the receiver of this stone may already own a playing stone of this shape)",
)
TOWER_ELSEWHERE = _docs(
    "tower.owned-elsewhere",
    "Ambiguities",
    "When another player owns the drawn shape but the drawer does not, the drawer gives the stone to a "
    "player of his or her choice (option tower_owned_elsewhere = give; or bag: it goes back into the bag).",
)
TOWER_CAMEL = _book(
    "tower.camel",
    _TOWER,
    "He or she may give an already collected black playing stone to a fellow player of his or her choice or "
    "take a black playing stone (if available) of his or her choice away from a fellow player.",
)
TOWER_SEVERAL = _book(
    "tower.several",
    _TOWER,
    "Whoever, as the fastest player, has (by mistake) drawn two or more playing stones out of the bag has "
    "lost the duel. He or she throws all drawn black playing stones and the top stone of his or her tower "
    'back into the bag. His or her duel opponent now becomes the "lord of the stones".',
)
TOWER_SEVERAL_COLOURED = _docs(
    "tower.several-coloured",
    "Ambiguities",
    "The coloured stones drawn with them go back into the bag too (option tower_two_stones = bag; or "
    "opponent: the duel opponent builds them into his or her tower).",
)
TOWER_BUILD = _book(
    "tower.build",
    "The Dschamál Tower, Building the Tower",
    "Every coloured (not black) playing stone must be built into one's own tower immediately after receipt.",
)
TOWER_BLACK_FRONT = _book(
    "tower.black-front",
    "The Dschamál Tower, Building the Tower",
    "Black playing stones are not built into a tower, but are laid down in front of the players (until the "
    "end of the game).",
)
TOWER_COLLAPSE = _book(
    "tower.collapse",
    "The Dschamál Tower, Building the Tower",
    "If a tower collapses, the affected player throws all coloured playing stones that have fallen off the "
    "foundation back into the bag. The foundation and the stones that still lie on the foundation (without "
    "touching the table) remain standing and form the start of the new tower on which one can continue to "
    "work.",
)
TOWER_END = _book(
    "tower.end",
    "The Dschamál Tower, End of the Game and Winner",
    "The player who is the first to have built seven playing stones into his or her own tower ends the game. "
    "The game also ends when ten black playing stones lie on the table in front of the players.",
)
TOWER_POINTS = _book(
    "tower.points",
    "The Dschamál Tower, End of the Game and Winner",
    "For every playing stone that is in one's own tower at the end of the game, one receives 1 victory point. "
    "The player with the most black playing stones receives 3 victory points. If several players have the "
    "most black playing stones, each of them receives 2 victory points. In this case no victory points are "
    "awarded to the player with the second most black playing stones. The player with the second most black "
    "playing stones receives 1 victory point. This also holds if several players have the second most black "
    "playing stones. The players who do not have the most or the second most black stones must subtract 1 "
    "victory point for every black playing stone. The player with the most victory points wins the game.",
)

# --- The Trio ---------------------------------------------------------------------------------
_TRIO = "The Dschamál Trio, Game Play"
TRIO_COND_A = _book(
    "trio.condition-a",
    _TRIO,
    "Condition A: His or her drawn playing stone already lies in the same shape in front of one of the "
    "participants in the three-way contest.",
)
TRIO_COND_B = _book(
    "trio.condition-b",
    _TRIO,
    'Condition B: He or she has drawn the camel and called "I am the camel!" while doing so.',
)
TRIO_SECOND = _book(
    "trio.second",
    _TRIO,
    "If the fastest player, however, has fulfilled neither of the two conditions, it is checked whether the "
    "second fastest player has fulfilled one of the two conditions. If so, he or she wins this three-way "
    "contest. Otherwise the slowest player wins (although he or she has no stone).",
)
TRIO_RECEIVES = _book(
    "trio.receives",
    _TRIO,
    "If the fastest or the second fastest player becomes the winner of the three-way contest, he or she "
    "receives: his or her drawn coloured playing stone; a playing stone of the drawn shape from each "
    "participant in the three-way contest who owns at least one such playing stone.",
)
TRIO_SLOWEST = _book(
    "trio.slowest",
    _TRIO,
    "If the slowest player becomes the winner of the three-way contest, he or she receives the coloured "
    "playing stones that his or her two opponents have drawn.",
)
TRIO_CAMEL = _book(
    "trio.camel",
    _TRIO,
    'If the winner of the three-way contest has drawn the camel and has called "I am the camel!" while doing '
    "so, he or she receives from both participants in the three-way contest a playing stone of his or her "
    "choice (not a winning stone).",
)
TRIO_TIE_SECOND = _docs(
    "trio.tie-second",
    "Buttons",
    "When the fastest player fails both conditions and the second and slowest places cannot be told apart "
    "(tied, or neither pressed validly), the contest is repeated as a tied duel is.",
)
TRIO_FASTEST_STONE = _docs(
    "trio.fastest-stone",
    "Ambiguities",
    "When the second fastest wins, the fastest player's drawn stone goes back into the bag (option "
    "trio_fastest_stone = bag; or winner: the winner receives it too).",
)
TRIO_NO_OWNER = _book(
    "trio.no-owner",
    "The Dschamál Trio, No Participant in the Three-Way Contest Owns a Stone",
    'Here the rules of the "Duel for Dschamál" apply. If the fastest player loses the three-way contest, the '
    "second fastest player receives the decision stone. The slowest player receives the drawn coloured "
    "playing stone of the fastest player.",
)
TRIO_NEXT = _book(
    "trio.next",
    "The Dschamál Trio, The Next Three-Way Contest",
    "Play proceeds in turn. Whoever sat next to both of his or her participants in the last three-way contest "
    "fights the next three-way contest with his or her two left-hand neighbours.",
)
TRIO_SEVERAL = _docs(
    "trio.several",
    "Ambiguities",
    "A Trio player who drew two or more stones fulfils neither condition; black stones go back into the bag, "
    "coloured ones count as his or her drawn stones.",
)

# --- The Quartet ------------------------------------------------------------------------------
_QUARTET = "The Dschamál Quartet for Children, Game Play"
QUARTET_KEEP = _book(
    "quartet.keep",
    _QUARTET,
    "The faster player ... keeps the drawn stone if he or she already owns this shape.",
)
QUARTET_BACK = _book(
    "quartet.back",
    _QUARTET,
    "The faster player ... throws the drawn stone back into the bag if he or she does not own this shape. Black "
    "stones are always thrown back into the bag.",
)
QUARTET_SLOWER = _book(
    "quartet.slower",
    _QUARTET,
    "In that case it is checked which playing stone the slower player has drawn out of the bag. If he or she "
    "has drawn a stone that he or she already owns, he or she may keep this stone. Otherwise the stone is put "
    "back into the bag.",
)
QUARTET_END = _book(
    "quartet.end",
    "The Dschamál Quartet for Children, End of the Game",
    "The player who is the first to have collected four playing stones of the same shape (a quartet) wins the "
    "game.",
)
