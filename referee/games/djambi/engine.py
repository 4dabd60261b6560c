"""The Djambi engine for the referee: events in, verdicts and a new state out.

Events:

- ``{"type": "move", "move": "g1-e1@f2"}`` (optionally ``"player"``, checked against the turn);
- ``{"type": "draw_offer", "player": name}``, ``draw_accept``, ``draw_decline``: a draw needs
  every surviving player's agreement (register A19); an offer lapses with the next move.

There is no resignation: the rules know none, and a chief cannot leave the board without a
move of the game (a player who must leave can agree to a draw, or keep being skipped).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.games.base import (
    JSON,
    Action,
    ContestRequest,
    EventError,
    Field,
    GameHeader,
    RuleViolation,
    Step,
    Verdict,
)
from referee.games.djambi import rules
from referee.games.djambi.board import Board, Outcome
from referee.games.djambi.describe import describe_move
from referee.games.djambi.movegen import generate
from referee.games.djambi.moves import Move, MoveSyntaxError
from referee.games.djambi.options import OPTION_SPECS, Options
from referee.games.djambi.pieces import HOSTAGE, Kind, Party, Piece
from referee.games.djambi.position import Position
from referee.games.djambi.squares import MAZE, square_name
from referee.games.djambi.validate import why_illegal


@dataclass(frozen=True)
class DjambiState:
    """The engine's state: the position plus who sits where and the table's agreements."""

    players: tuple[str, ...]  # player names, in camp order (Red, Blue, Yellow[, Green])
    position: Position
    plies: int = 0
    last_move: str | None = None
    last_text: str | None = None
    draw_offer: frozenset[Party] = frozenset()
    drawn: bool = False
    history: tuple[str, ...] = field(default=(), repr=False)

    def name(self, party: Party) -> str | None:
        return self.players[party] if party < len(self.players) else None

    def party_of(self, name: Any) -> Party:
        if name not in self.players:
            raise EventError(f"unknown player {name!r}; the players are {', '.join(self.players)}")
        return Party(self.players.index(name))

    @property
    def finished(self) -> bool:
        return self.drawn or self.position.turn is None


_RULE_FOR_KIND = {
    Kind.CHIEF: rules.CHIEF,
    Kind.ASSASSIN: rules.ASSASSIN,
    Kind.REPORTER: rules.REPORTER_MOVE,
    Kind.DIPLOMAT: rules.DIPLOMAT,
    Kind.NECROMOBILE: rules.NECROMOBILE,
    Kind.MILITANT: rules.MILITANT,
}


class DjambiEngine:
    game = "djambi"
    title = "Djambi"
    variants = ("four", "three")
    options = OPTION_SPECS
    min_players = 3
    max_players = 4

    def new_game(self, header: GameHeader) -> DjambiState:
        try:
            options = Options.from_mapping(header.options)
        except ValueError as exc:
            raise EventError(str(exc)) from None
        variant = header.variant or "four"
        wanted = {"four": 4, "three": 3}.get(variant)
        if wanted is None:
            raise EventError(f"Djambi has no variant {variant!r}; choose four or three")
        if len(header.players) != wanted:
            raise EventError(
                f"the {variant}-player game needs {wanted} players, not {len(header.players)}"
                + ("; for three players use the variant three" if len(header.players) == 3 else "")
            )
        hostage = Party.GREEN if variant == "three" else None
        return DjambiState(tuple(header.players), Position.initial(options, hostage))

    # -- events ----------------------------------------------------------------------------

    def apply(self, state: DjambiState, event: Mapping[str, Any]) -> Step[DjambiState]:
        kind = event.get("type")
        if kind == "move":
            return self._move(state, event)
        if kind in ("draw_offer", "draw_accept", "draw_decline"):
            return self._draw(state, event)
        raise EventError(f"Djambi takes move, draw_offer, draw_accept and draw_decline events, not {kind!r}")

    def _move(self, state: DjambiState, event: Mapping[str, Any]) -> Step[DjambiState]:
        if state.finished:
            raise RuleViolation("the game is over: no more moves", rules.GAME_OVER)
        text = event.get("move")
        if not isinstance(text, str):
            raise EventError('a move event needs "move": a move string like "g1-e1@f2"')
        try:
            move = Move.parse(text)
        except MoveSyntaxError as exc:
            raise EventError(str(exc)) from None
        board = Board(state.position)
        mover = board.turn
        assert mover is not None
        if "player" in event and state.party_of(event["player"]) != mover:
            raise RuleViolation(
                f"it is {mover.title}'s turn ({state.name(mover)}), not {event['player']}'s", rules.TURN_ORDER
            )
        refusal = why_illegal(board, move)
        if refusal is not None:
            raise RuleViolation(
                f"illegal move {move}: {refusal.message} ({refusal.rule.source})", refusal.rule
            )
        before = board.fen()
        outcome = board.push(move)
        said = describe_move(Board(state.position), move, outcome)
        new = replace(
            state,
            position=board.position(),
            plies=state.plies + 1,
            last_move=str(move),
            last_text=said,
            draw_offer=frozenset(),
            history=(*state.history, str(move)),
        )
        return Step(new, tuple(self._verdicts(state, new, move, outcome, said, before)))

    def _verdicts(
        self, old: DjambiState, new: DjambiState, move: Move, outcome: Outcome, said: str, before: str
    ) -> list[Verdict]:
        evidence = {"move": str(move), "before": before, "after": new.position.fen()}
        piece = outcome.piece
        assert piece.kind is not None
        rule = _RULE_FOR_KIND[piece.kind]
        if not outcome.kills and not outcome.displaced:  # a plain move
            if piece.kind == Kind.MILITANT:
                rule = rules.MILITANT
            elif move.target == MAZE:
                rule = rules.MAZE_STOP
            else:
                rule = rules.REPORTER_MOVE if piece.kind == Kind.REPORTER else rules.QUEEN_MOVE
        elif move.target == MAZE and move.exit is not None:
            rule = rules.MAZE_ACTION
        elif piece.kind == Kind.REPORTER and outcome.kills:
            rule = rules.REPORTER_KILL
        who = old.name(outcome.mover)
        out = [Verdict(rule, f"{who}: {said}", evidence)]
        if outcome.ruler_before != outcome.ruler_after:
            if outcome.ruler_after is not None:
                text = f"{outcome.ruler_after.title} is in power: its chief holds the maze"
            else:
                assert outcome.ruler_before is not None
                text = f"{outcome.ruler_before.title} has lost power"
            out.append(Verdict(rules.POWER, text, {"ruler": _letter(outcome.ruler_after)}))
        for party, cause, heir in outcome.eliminated:
            name = old.name(party)
            if cause == "killed":
                assert heir is not None
                text = f"{party.title}'s chief is dead: {name} is out; {heir.title} takes {party.title}'s pieces as satellites"
                out.append(Verdict(rules.SATELLITES, text, {"camp": party.letter, "heir": heir.letter}))
            elif cause == "suicide":
                text = f"{party.title} killed its own chief: {name} is out; its pieces are neutral"
                out.append(Verdict(rules.OWN_KILL, text, {"camp": party.letter}))
            elif cause == "encircled":
                text = f"{party.title}'s chief is encircled with no necromobile to rescue him: {name} is out"
                out.append(
                    Verdict(
                        rules.ENCIRCLEMENT,
                        text,
                        {"camp": party.letter, "geometry": new.position.options.encircle},
                    )
                )
            else:
                text = f"{party.title} has no legal move and is eliminated (option no_move=eliminate): {name} is out"
                out.append(Verdict(rules.NO_MOVE, text, {"camp": party.letter}))
        for camp, ruler in outcome.claimed:
            text = f"{ruler.title} rules the maze and takes {camp.title}'s neutral pieces as satellites"
            out.append(Verdict(rules.NEUTRAL, text, {"camp": camp.letter, "to": ruler.letter}))
        for party in outcome.skipped:
            if new.position.options.no_move == "skip":
                out.append(
                    Verdict(
                        rules.NO_MOVE,
                        f"{party.title} ({old.name(party)}) has no legal move and is skipped",
                        {"camp": party.letter},
                    )
                )
        if new.position.turn is None:
            winner = self._winner(new)
            if winner is not None:
                out.append(
                    Verdict(
                        rules.VICTORY,
                        f"{winner.title}'s chief is the last alive: {new.name(winner)} wins",
                        {},
                    )
                )
            elif outcome.blocked:
                out.append(
                    Verdict(
                        rules.BLOCKED,
                        "no surviving player can move any more: the game ends with no winner",
                        {},
                    )
                )
            else:
                out.append(
                    Verdict(rules.GAME_OVER, "no chief is left alive: the game ends with no winner", {})
                )
        return out

    def _draw(self, state: DjambiState, event: Mapping[str, Any]) -> Step[DjambiState]:
        if state.finished:
            raise RuleViolation("the game is over", rules.GAME_OVER)
        if state.position.options.draws == "none":
            raise RuleViolation("draws are not allowed in this game (option draws=none)", rules.DRAW)
        party = state.party_of(event.get("player"))
        name = state.name(party)
        if not state.position.is_playing(party):
            raise RuleViolation(f"{name} is out of the game and has no say in a draw", rules.DRAW)
        kind = event["type"]
        if kind == "draw_decline":
            if not state.draw_offer:
                raise EventError("there is no draw offer to decline")
            return Step(
                replace(state, draw_offer=frozenset()),
                (Verdict(rules.DRAW, f"{name} declines the draw", {}),),
            )
        if kind == "draw_accept" and not state.draw_offer:
            raise EventError("there is no draw offer to accept; offer one with draw_offer")
        if kind == "draw_offer" and state.draw_offer:
            raise EventError("a draw is already offered: accept or decline it")
        agreed = state.draw_offer | {party}
        playing = set(state.position.playing())
        verb = "offers a draw" if kind == "draw_offer" else "accepts the draw"
        verdicts = [Verdict(rules.DRAW, f"{name} {verb}", {"agreed": sorted(p.letter for p in agreed)})]
        if agreed >= playing:
            verdicts.append(Verdict(rules.DRAW, "every surviving player agrees: the game is drawn", {}))
            return Step(replace(state, draw_offer=frozenset(agreed), drawn=True), tuple(verdicts))
        return Step(replace(state, draw_offer=frozenset(agreed)), tuple(verdicts))

    # -- reading the state -------------------------------------------------------------------

    def _winner(self, state: DjambiState) -> Party | None:
        if state.drawn or state.position.turn is not None:
            return None
        playing = state.position.playing()
        return playing[0] if len(playing) == 1 else None

    def summary(self, state: DjambiState) -> JSON:
        position = state.position
        winner = self._winner(state)
        counts = [0, 0, 0, 0]
        for piece in position.squares:
            if piece is not None and piece.party is not None and position.control[piece.party] >= 0:
                counts[position.control[piece.party]] += 1
        parties = []
        for party in Party:
            control = position.control[party]
            status = (
                "hostage"
                if control == HOSTAGE
                else "eliminated"
                if party in position.eliminated
                else "playing"
            )
            parties.append(
                {
                    "party": party.name.lower(),
                    "player": state.name(party),
                    "status": status,
                    "controlled_by": None if control < 0 else Party(control).name.lower(),
                    "controls": [c.name.lower() for c in Party if position.control[c] == party],
                    "pieces": counts[party],
                }
            )
        if state.drawn:
            result = "draw"
        elif winner is not None:
            result = "win"
        elif position.turn is None:
            result = "no winner"
        else:
            result = None
        turn, ruler = position.turn, position.ruler()
        headline = None
        if not state.finished and turn is not None:
            colour, player = turn.name.capitalize(), state.name(turn)
            headline = f"{player} ({colour}) to move" if player else f"{colour} to move"
        return {
            "scores": {state.name(p): counts[p] for p in Party if state.name(p) is not None},
            "scores_label": "Living pieces commanded",
            "winner": state.name(winner) if winner is not None else None,
            "finished": state.finished,
            "result": result,
            "position": position.fen(),
            "turn": _seat(state, turn),
            "headline": headline,
            "ruler": _seat(state, ruler),
            "cursor": position.cursor.name.lower(),
            "parties": parties,
            "plies": state.plies,
            "last_move": state.last_move,
            "last_move_text": state.last_text,
            "moves": list(state.history),
            "draw_offer": [state.name(p) for p in sorted(state.draw_offer)],
            "options": {k: v for k, v in position.options.changed().items()},
            "legal": legal_tree(position) if not state.finished else {"count": 0, "pieces": {}},
        }

    def actions(self, state: DjambiState) -> Sequence[Action]:
        if state.finished:
            return ()
        position = state.position
        turn = position.turn
        assert turn is not None
        moves = sorted(str(m) for m in generate(Board(position)))
        actions = [
            Action(
                "move",
                f"Move for {turn.title} ({state.name(turn)})",
                (Field("move", "Move", "choice", tuple(moves)),),
                help="click the piece, its destination and the follow-ups on the board, or type the move "
                "(from-to, >exit, @placement, +victim: e.g. g1-e1@f2)",
            )
        ]
        if position.options.draws == "agreement":
            playing = tuple(state.name(p) for p in position.playing())
            if not state.draw_offer:
                actions.append(
                    Action("draw_offer", "Offer a draw", (Field("player", "Player", "seat", playing),))
                )
            else:
                waiting = tuple(state.name(p) for p in position.playing() if p not in state.draw_offer)
                actions.append(
                    Action("draw_accept", "Accept the draw", (Field("player", "Player", "seat", waiting),))
                )
                actions.append(
                    Action("draw_decline", "Decline the draw", (Field("player", "Player", "seat", waiting),))
                )
        return actions

    def contest(self, state: DjambiState) -> ContestRequest | None:
        return None

    def render_svg(self, state: DjambiState) -> str:
        from referee.games.djambi.svg import board_svg

        last = Move.parse(state.last_move) if state.last_move else None
        return board_svg(state.position, last)


def _letter(party: Party | None) -> str | None:
    return party.letter if party is not None else None


def _seat(state: DjambiState, party: Party | None) -> JSON | None:
    if party is None:
        return None
    return {"party": party.name.lower(), "player": state.name(party)}


def legal_tree(position: Position) -> JSON:
    """The legal moves grouped by piece and destination, for a click-by-click console.

    ``pieces[from] = {"piece": "rM", "to": {to: {"steps": [...], "moves": [...]}}}`` where
    ``steps`` lists the follow-ups still to choose, in the order the player makes them
    ("exit", "place", "victim"), and ``moves`` the complete move strings; a client filters
    ``moves`` by the choices made so far.
    """
    board = Board(position)
    moves = generate(board)
    pieces: dict[str, JSON] = {}
    order = ["place", "exit"] if position.options.maze_order == "place_then_exit" else ["exit", "place"]
    for move in sorted(moves, key=str):
        origin, target = square_name(move.origin), square_name(move.target)
        piece: Piece | None = board.squares[move.origin]
        entry = pieces.setdefault(origin, {"piece": piece.token if piece else None, "to": {}})
        dest = entry["to"].setdefault(target, {"steps": [], "moves": []})
        dest["moves"].append(str(move))
        for step, value in (("exit", move.exit), ("place", move.place), ("victim", move.victim)):
            if value is not None and step not in dest["steps"]:
                dest["steps"].append(step)
    for entry in pieces.values():
        for dest in entry["to"].values():
            dest["steps"].sort(key=lambda s: [*order, "victim"].index(s))
    return {"count": len(moves), "pieces": pieces}
