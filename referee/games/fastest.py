"""Fastest hand: a contest per round and a running tally, nothing else.

The game that makes the referee useful before any rulebook is loaded, and the smallest
example of an engine. Rules (this project's own, docs/games/fastest.md):

- ``fastest.win``: the first press after the call wins the round and scores a point.
- ``fastest.tie``: a tie scores nobody; the round is repeated.
- ``fastest.no-winner``: nobody pressed validly (all false starts, or nobody pressed): no point.
- ``fastest.target``: the first to reach the target score (option ``target``, 0 = endless)
  wins the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.arbitration import PressVerdict, format_ns
from referee.games.base import (
    Action,
    ContestRequest,
    EventError,
    GameHeader,
    OptionSpec,
    Rule,
    Step,
    Verdict,
    resolve_options,
)

SOURCE = "docs/games/fastest.md"
WIN = Rule("fastest.win", SOURCE, "The first press after the call wins the round and scores a point.")
TIE = Rule("fastest.tie", SOURCE, "A tie scores nobody; the round is repeated.")
NO_WINNER = Rule("fastest.no-winner", SOURCE, "When nobody presses validly, nobody scores.")
TARGET = Rule("fastest.target", SOURCE, "The first player to reach the target score wins.")


@dataclass(frozen=True)
class FastestState:
    players: tuple[str, ...]
    target: int
    scores: tuple[int, ...]
    rounds: int = 0
    false_starts: tuple[int, ...] = ()
    winner: str | None = None


class FastestEngine:
    game = "fastest"
    title = "Fastest hand"
    variants = ("standard",)
    options = (OptionSpec("target", 0, (), "points to win the game; 0 plays on until the night ends"),)
    min_players = 1
    max_players = 8

    def new_game(self, header: GameHeader) -> FastestState:
        opts = resolve_options(self.options, header.options)
        target = opts["target"]
        if not isinstance(target, int) or isinstance(target, bool) or target < 0:
            raise EventError("option 'target' must be a whole number of points, 0 or more")
        n = len(header.players)
        return FastestState(header.players, target, (0,) * n, 0, (0,) * n)

    def apply(self, state: FastestState, event: Mapping[str, Any]) -> Step[FastestState]:
        if event.get("type") != "contest":
            raise EventError(f"Fastest hand takes only contest events, not {event.get('type')!r}")
        if state.winner is not None:
            raise EventError(f"the game is over: {state.winner} has won")
        try:
            verdict = PressVerdict.from_json(event)
        except ValueError as exc:
            raise EventError(str(exc)) from None
        unknown = {s for entry in verdict.ranking for s in entry} - set(state.players)
        if unknown:
            raise EventError(f"unknown player(s) in the contest: {', '.join(sorted(unknown))}")
        fouls = list(state.false_starts)
        for seat in verdict.false_starts:
            if seat in state.players:
                fouls[state.players.index(seat)] += 1
        state = replace(state, rounds=state.rounds + 1, false_starts=tuple(fouls))
        evidence = verdict.to_json()
        first = verdict.winners
        if len(first) == 0:
            return Step(state, (Verdict(NO_WINNER, "nobody pressed validly: no point", evidence),))
        if len(first) > 1:
            return Step(state, (Verdict(TIE, f"tie between {' and '.join(first)}: repeat", evidence),))
        seat = first[0]
        scores = list(state.scores)
        scores[state.players.index(seat)] += 1
        state = replace(state, scores=tuple(scores))
        margin = f" by {format_ns(verdict.margins_ns[0])}" if verdict.margins_ns else ""
        verdicts = [Verdict(WIN, f"{seat} wins the round{margin}", evidence)]
        if state.target and max(scores) >= state.target:
            state = replace(state, winner=seat)
            verdicts.append(Verdict(TARGET, f"{seat} reaches {state.target} and wins", {"scores": scores}))
        return Step(state, tuple(verdicts))

    def summary(self, state: FastestState) -> dict[str, Any]:
        return {
            "scores": dict(zip(state.players, state.scores, strict=True)),
            "winner": state.winner,
            "finished": state.winner is not None,
            "rounds": state.rounds,
            "false_starts": dict(zip(state.players, state.false_starts, strict=True)),
        }

    def actions(self, state: FastestState) -> Sequence[Action]:
        return ()

    def contest(self, state: FastestState) -> ContestRequest | None:
        if state.winner is not None:
            return None
        return ContestRequest(state.players, f"Round {state.rounds + 1}", "Go!", "first", 20.0)

    def render_svg(self, state: FastestState) -> str:
        from referee.pictures import bar_chart_svg

        return bar_chart_svg(dict(zip(state.players, state.scores, strict=True)), "points")


ENGINE = FastestEngine()
