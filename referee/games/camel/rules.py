"""The rules of the camel race, each quoted from the rulebook or from this project's house rules.

Every verdict and every refusal of the camel engine names one of these. Rulebook rules quote
``camel-race.txt`` (the English translation of Kameltreiber AG); the house rules decide what
the rulebook leaves open and are explained in ``docs/games/camel.md``.
"""

from __future__ import annotations

from referee.games.base import Rule

BOOK = "camel-race.txt"
HOUSE = "docs/games/camel.md"


def _book(rule_id: str, section: str, text: str) -> Rule:
    return Rule(rule_id, f"{BOOK}, {section}", text)


def _house(rule_id: str, section: str, text: str) -> Rule:
    return Rule(rule_id, f"{HOUSE}, {section}", text)


# --- setting up -------------------------------------------------------------------------------

LAYOUT = _book(
    "camel.setup.layout",
    "setting up",
    "First lay out the 16 desert cards face-up, into a 5 x 5 square track as shown on page 2 of "
    "the rules. It's not important in what order they're laid out, but it's probably better not "
    "to have an oasis card and a snake card next to one another.",
)
START = _book(
    "camel.setup.start",
    "setting up",
    "The players now choose where they want to start and put all the camels onto that card. "
    "The marker stone is put down onto the same card.",
)
FIRST_RACE = _book(
    "camel.order.first-race",
    "who starts",
    "The first round, the youngest camel, (sorry, we mean player), starts.",
)
NEXT_RACE = _book(
    "camel.order.next-race",
    "who starts",
    "In subsequent rounds, the player who was the first to be eliminated in the previous race gets the first go.",
)
CLOCKWISE = _book(
    "camel.order.clockwise", "who starts", "Each player in clockwise order then gets their turn."
)
TWO_PLAYERS = _book(
    "camel.two-players",
    "two players",
    "If there are only two players then each should take two camels, and they should play in turn, "
    "ie player 1 camel 1, player 2 camel 1, player 1 camel 2, player 2 camel 2 and so on.",
)

# --- a turn -----------------------------------------------------------------------------------

ONE_TURN_BETWEEN = _book(
    "camel.turn.one-turn-between",
    "a turn",
    "The only exception is that he may not turn over the card that has been turned over by the "
    "last player, ie at least one turn must come between two turnings of the same card.",
)
MOVE = _book(
    "camel.turn.move",
    "a turn",
    "The number card so turned shows how many squares, in a clockwise direction, the camel must move.",
)
DESERT = _book(
    "camel.card.desert",
    "a turn",
    "If a player lands on a desert card then his turn is over and the next player takes their turn.",
)
OASIS = _book(
    "camel.card.oasis",
    "a turn",
    "If a player lands on an oasis card then his camel is refreshed and revivified and he may turn "
    "over another number card and go galloping off again, perhaps to a further oasis card and so on!",
)
SNAKE = _book(
    "camel.card.snake",
    "a turn",
    "If a player lands on a snake card then he's had bad luck, his camel has been bitten and must "
    "go to the back of the caravan, that means that the camel is placed one square behind the rearmost camel.",
)

# --- the marker stone and elimination -----------------------------------------------------------

MARKER_START = _book(
    "camel.marker.start",
    "the marker stone",
    "The marker stone shows where the back of the caravan is. The last player to move away from "
    "the start field also moves the marker stone onto the square of the camel who's at the back of the pack.",
)
MARKER_FOLLOWS = _book(
    "camel.marker.follows",
    "the marker stone",
    "When the owner of this camel moves the stone is also moved forward to the rearmost camel and so on.",
)
ELIMINATION = _book(
    "camel.eliminate",
    "the marker stone",
    "It can be pretty bad to be the last, because when another camel reaches or overhauls the "
    "rearmost, then that camel is removed from the game. If several camels are all reached or "
    "overhauled in the same turn, perhaps they're all on the same square, then they're all eliminated. "
    "Now the marker stone is moved forward to the square of the overhauling camel, and he now "
    "becomes the rearmost, possibly to be removed in his turn.",
)
REARMOST_ON_SNAKE = _book(
    "camel.special.rearmost-on-snake",
    "special cases",
    "If a player is the rearmost, and then lands on a snake square, then he returns to his "
    "previous square along with the marker stone.",
)
OVERTAKER_ON_SNAKE = _book(
    "camel.special.overtaker-on-snake",
    "special cases",
    "If a player overhauls the rearmost but then finishes on a snake square, then nobody's thrown "
    "out of the game, but the overhauling player is put one square behind the rearmost and the "
    "stone is set back one square so that the overhauler becomes the rearmost.",
)
RACE_WINNER = _book(
    "camel.race.winner",
    "the end",
    "The race continues until only one player is left, all the others having fallen by the "
    "wayside ... The winner is the last player in the race.",
)

# --- house rules: where the rulebook is silent ----------------------------------------------------

TILE_MEMORY = _house(
    "camel.house.tile-memory",
    "Tiles and memory",
    "The tile on the table decides: when an entry contradicts what the referee saw of that tile "
    "before, the new entry stands and the referee points out the contradiction, so that a mistyped "
    "entry can be undone.",
)
LOOSE_TILES = _house(
    "camel.house.loose-tiles",
    "Tiles and memory",
    "With loose tiles (the harder variants: tiles mixed up, or put back elsewhere) only the number "
    "is entered; the players themselves keep the one-turn-between rule.",
)
NO_TILE_LEFT = _house(
    "camel.house.no-tile-left",
    "Silent cases",
    "If every tile is barred by the one-turn-between rule when a camel stands on an oasis, its turn ends there.",
)
OASIS_STOP = _house(
    "camel.house.oasis-stop",
    "Silent cases",
    "The rulebook says a camel on an oasis 'may' turn another card: with the option oasis = may, "
    "the player may end the turn on the oasis instead.",
)
SNAKE_ONTO_LEADER = _house(
    "camel.house.snake-onto-leader",
    "Silent cases",
    "A camel's place in the caravan is its clockwise distance from the marker card. When the card "
    "one behind the rearmost already holds the leader (the caravan fills the whole ring), the "
    "bitten camel is placed there all the same, the stone is set back onto that card, and every "
    "camel on it is at the back of the caravan.",
)
OWN_CAMEL = _house(
    "camel.house.own-camel",
    "Silent cases",
    "With two players, a camel that reaches or overhauls its owner's other camel at the back "
    "eliminates it like any other: the rulebook makes no exception.",
)
SAME_MOVE_ORDER = _house(
    "camel.house.same-move-order",
    "Silent cases",
    "Camels eliminated by one move are eliminated in the order the move reaches them; camels on "
    "the same card count in turn order after the overhauling camel. The first of them is the "
    "first eliminated for who starts the next race.",
)
NIGHT_END = _house(
    "camel.house.night-end",
    "A night of races",
    "Each race won scores one race win. With the option races = N, the night ends after N races "
    "with the player of most race wins as the winner; a tie for most wins is settled by further "
    "deciding races. With races = 0 the night ends when the scorekeeper ends it; a tie then shares the title.",
)
NEW_RACE_RESETS = _house(
    "camel.house.new-race",
    "A night of races",
    "A new race starts afresh: the one-turn-between rule does not reach back into the previous race, "
    "and the ring and the tiles stay as they lie unless the players lay them out again.",
)
ABANDON = _house(
    "camel.house.abandon",
    "A night of races",
    "Ending the night during a race abandons that race: nobody wins it.",
)
