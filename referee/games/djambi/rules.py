"""The rules of Djambi that decide things, each quoting docs/shared rules file djambi.md.

Every refusal of an illegal move and every verdict of the engine names one of these.
"""

from __future__ import annotations

from referee.games.base import Rule

_SRC = "djambi.md"


def _rule(rule_id: str, section: str, text: str) -> Rule:
    return Rule(f"djambi.{rule_id}", f"{_SRC} {section}", text)


TURN = _rule(
    "turn",
    "§1.4",
    "Only pieces the player controls can move (own pieces plus satellites). Exactly one piece moves per turn.",
)
QUEEN_MOVE = _rule(
    "move.line",
    "§1.4",
    "Every piece moves like a chess queen, any distance in the 8 directions, except the militant, "
    "which moves 1 or 2 squares. Every move goes in a straight line.",
)
NO_JUMP = _rule("move.no-jump", "§1.4", "No jumping. Any living or dead piece is an impassable obstacle.")
ACTIONS = _rule(
    "move.actions",
    "§1.4",
    "A move that ends on an occupied square is an action on that piece, and only the actions listed "
    "for each piece in §1.6 are allowed.",
)
MAZE_STOP = _rule(
    "maze.stop",
    "§1.5",
    "Only a chief may stop in the maze and stay there. When the maze is empty, every piece, militants "
    "included, may cross it without stopping.",
)
MAZE_ACTION = _rule(
    "maze.act-and-leave",
    "§1.5",
    "The Assassin, the Diplomat and the Necromobile may move into the maze only to act on its occupant. "
    "In the same turn they must then make an additional exit move: the action; leave the maze with an "
    "extra move that may not kill or relocate any piece; place the displaced chief or corpse back on the field.",
)
POWER = _rule(
    "maze.power",
    "§1.5",
    "A chief in the maze is in power. When the chief leaves the maze, or is displaced or killed, "
    "power is lost at once.",
)
CHIEF = _rule(
    "chief.kill",
    "§1.6 Chief",
    "Kills by replacement: it moves onto the victim's square, and the owner then places the corpse on "
    "any free square except the maze. The square the chief just vacated counts as free.",
)
ASSASSIN = _rule(
    "assassin.kill",
    "§1.6 Assassin",
    "Kills by replacement any enemy piece, including a chief in power. The victim's corpse is put on the "
    "square the assassin started from; the player has no choice.",
)
REPORTER_MOVE = _rule(
    "reporter.move",
    "§1.6 Reporter",
    "Moves like a queen, only onto empty squares. It never takes a piece's place. It cannot stop in the maze.",
)
REPORTER_KILL = _rule(
    "reporter.kill",
    "§1.6 Reporter",
    "After moving, it may kill one enemy piece on one of the 4 orthogonally adjacent squares. The corpse "
    "stays where it is. It can kill only at the end of its own move.",
)
DIPLOMAT = _rule(
    "diplomat.manipulate",
    "§1.6 Diplomat",
    "It kills nothing. It moves onto a living piece not belonging to its own camp. That piece, still "
    "alive, is then placed by the diplomat's owner on any free square; not into the maze, except for a chief.",
)
NECROMOBILE = _rule(
    "necromobile.relocate",
    "§1.6 Necromobile",
    "It kills nothing. It moves onto a corpse and places that corpse on any free square except the maze.",
)
MILITANT = _rule(
    "militant.move",
    "§1.6 Militant",
    "Moves 1 or 2 squares in any of the 8 directions. It may cross the empty maze but not stop in it. "
    "It kills by replacement and places the corpse on any free square except the maze.",
)
MILITANT_RULER = _rule(
    "militant.not-the-ruler",
    "§1.5, §1.6 Militant",
    "The militant may not kill a chief who is in the maze.",
)
CORPSES = _rule(
    "corpse",
    "§1.7",
    "A corpse stays on the board forever. It is an obstacle for every piece, and only a necromobile can "
    "move onto it. Corpses may not be placed in the maze.",
)
PLACEMENT = _rule(
    "placement",
    "§1.7",
    "Where a corpse goes depends on the killer: chief or militant, any free square except the maze; "
    "assassin, its departure square; reporter, the victim's own square. The vacated departure square is free.",
)
OWN_KILL = _rule(
    "own-kill",
    "§1.11 A2",
    "Killing own or satellite pieces: the assassin kills 'any enemy piece', the reporter an 'opponent's "
    "piece'; by default no player kills pieces he controls (option own_kill).",
)
SATELLITES = _rule(
    "satellites",
    "§1.9",
    "Chief killed directly: the victim's player is out at once. The killer's player takes all the "
    "victim's living pieces, including any satellites the victim already controlled, as satellites.",
)
ENCIRCLEMENT = _rule(
    "encirclement",
    "§1.9",
    "If a Leader becomes completely immobilized, fully encircled by corpses either friend or foe that "
    "prevent him from moving, and does not have a remaining Necromobile to rescue him, he likewise "
    "perishes and is eliminated. It never applies to a chief in the maze.",
)
NEUTRAL = _rule(
    "neutral",
    "§1.9",
    "Pieces of an encircled player become satellites only when a chief first occupies the maze, or at "
    "once if a chief already rules there. Meanwhile they are neutral: immune, they simply act as obstacles.",
)
HOSTAGE = _rule(
    "hostage",
    "§1.10",
    "Three players on the 9×9 board: one camp is a hostage. Its pieces cannot act and have no power to "
    "kill, but all three players may kill or manipulate them. A hostage leader placed in the maze just "
    "blocks the seat.",
)
TURN_ORDER = _rule(
    "turn-order",
    "§1.8",
    "No ruler: the next alive player after the cursor plays. With a ruler P: if the player who just "
    "moved is not P, P plays next; if P just moved, the next alive player after the cursor who is not P. "
    "With two players left the ruler gains two consecutive moves.",
)
NO_MOVE = _rule(
    "no-move",
    "§1.11 A18",
    "No voluntary pass; a player with no legal move is skipped (option no_move=eliminate: he is "
    "eliminated, his chief dying where he stands).",
)
BLOCKED = _rule(
    "blocked",
    "§1.10",
    "No legal move: not covered by [RB]. When no surviving player can move at all, the game can never "
    "go on: it ends with no winner (the [JF] stalemate).",
)
VICTORY = _rule("victory", "§1.10", "Victory: the last chief alive wins.")
DRAW = _rule("draw", "§1.11 A19", "Draws: unanimous agreement among the surviving players.")
GAME_OVER = _rule("game-over", "§1.10", "The game ends when one chief is left alive, or by a draw.")
