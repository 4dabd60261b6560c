"""The standings of a night: results per game and the reaction-time picture per player.

Pure functions of values: each game's summary (from its engine: ``scores``, ``winner`` or
``winners``, ``finished``) and its standing ``contest`` events (undone ones are left out, as
they are in the game). From the contests: each player's reaction times after the call, wins
and losses in close calls (a margin under the night's setting; a tie is the closest call of
all), and false starts.

>>> g = NightGame(1, "fastest", "Fastest hand", "standard", ("Anne", "Marc"),
...     {"scores": {"Anne": 2, "Marc": 1}, "winner": "Anne", "finished": True},
...     ((0, {"ranking": [["Anne"], ["Marc"]], "margins_ns": [3_000_000],
...           "reaction_ns": {"Anne": 250_000_000, "Marc": 253_000_000}, "false_starts": []}),))
>>> s = standings([g], close_call_ns=5_000_000)
>>> [(p.name, p.wins, p.close_wins) for p in s.players]
[('Anne', 1, 1), ('Marc', 0, 0)]
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NightGame:
    """One game of the night as the standings need it."""

    id: int
    game: str
    title: str
    variant: str
    players: tuple[str, ...]
    summary: Mapping[str, Any]
    contests: tuple[tuple[int, Mapping[str, Any]], ...] = ()  # (event index, contest event)

    @property
    def winners(self) -> tuple[str, ...]:
        return winners_of(self.summary, self.players)

    @property
    def finished(self) -> bool:
        return bool(self.summary.get("finished"))


def winners_of(summary: Mapping[str, Any], players: Sequence[str] = ()) -> tuple[str, ...]:
    """The winners a summary names: ``winners`` (a list), else ``winner`` (a name or a list).

    Only finished games have winners; a name not among the players is ignored.
    """
    if not summary.get("finished"):
        return ()
    found = summary.get("winners")
    if not isinstance(found, list) or not found:
        winner = summary.get("winner")
        found = winner if isinstance(winner, list) else [winner] if isinstance(winner, str) else []
    names = [str(w) for w in found]
    return tuple(n for n in names if not players or n in players)


@dataclass(frozen=True)
class CloseCall:
    """A contest decided by less than the close-call margin (or tied): it can be shown again."""

    game_id: int
    event: int  # the contest event's index in its game
    label: str
    first: tuple[str, ...]  # the winner, or the tied players
    second: tuple[str, ...]
    margin_ns: int  # 0 for a tie
    contest: Mapping[str, Any]

    @property
    def tie(self) -> bool:
        return len(self.first) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "event": self.event,
            "label": self.label,
            "first": list(self.first),
            "second": list(self.second),
            "margin_ns": self.margin_ns,
            "tie": self.tie,
        }


@dataclass
class PlayerNight:
    name: str
    played: int = 0
    wins: int = 0
    results: dict[int, dict[str, Any]] = field(default_factory=dict)  # game id → score, won
    reactions_ns: list[int] = field(default_factory=list)
    contests: int = 0
    firsts: int = 0
    close_wins: int = 0
    close_losses: int = 0
    ties: int = 0
    false_starts: int = 0

    def reaction_stats(self) -> dict[str, int | None]:
        r = sorted(self.reactions_ns)
        if not r:
            return {"n": 0, "best_ns": None, "median_ns": None, "q1_ns": None, "q3_ns": None}
        q1, q3 = (r[0], r[-1]) if len(r) < 2 else _quartiles(r)
        return {
            "n": len(r),
            "best_ns": r[0],
            "median_ns": int(statistics.median(r)),
            "q1_ns": q1,
            "q3_ns": q3,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "played": self.played,
            "wins": self.wins,
            "results": {str(k): v for k, v in self.results.items()},
            "reactions_ns": list(self.reactions_ns),
            "reaction": self.reaction_stats(),
            "contests": self.contests,
            "firsts": self.firsts,
            "close_wins": self.close_wins,
            "close_losses": self.close_losses,
            "ties": self.ties,
            "false_starts": self.false_starts,
        }


def _quartiles(sorted_values: Sequence[int]) -> tuple[int, int]:
    q = statistics.quantiles(sorted_values, n=4, method="inclusive")
    return int(q[0]), int(q[2])


@dataclass(frozen=True)
class Standings:
    games: tuple[NightGame, ...]
    players: tuple[PlayerNight, ...]  # best first: games won, then contests won, then name
    close_calls: tuple[CloseCall, ...]
    close_call_ns: int

    def to_json(self) -> dict[str, Any]:
        return {
            "games": [
                {"id": g.id, "game": g.game, "title": g.title, "variant": g.variant,
                 "players": list(g.players), "scores": dict(g.summary.get("scores") or {}),
                 "winners": list(g.winners), "finished": g.finished, "contests": len(g.contests)}
                for g in self.games
            ],
            "players": [p.to_json() for p in self.players],
            "close_calls": [c.to_json() for c in self.close_calls],
            "close_call_ns": self.close_call_ns,
        }  # fmt: skip


def standings(games: Sequence[NightGame], close_call_ns: int = 5_000_000) -> Standings:
    """Tally a night's games (in the order played)."""
    people: dict[str, PlayerNight] = {}

    def person(name: str) -> PlayerNight:
        return people.setdefault(name, PlayerNight(name))

    close: list[CloseCall] = []
    for game in games:
        winners = set(game.winners)
        scores = game.summary.get("scores") or {}
        for name in game.players:
            p = person(name)
            p.played += 1
            won = name in winners
            p.wins += int(won)
            p.results[game.id] = {"score": scores.get(name), "won": won, "finished": game.finished}
        for index, contest in game.contests:
            call = _close_call(game.id, index, contest, close_call_ns)
            if call is not None:
                close.append(call)
            _tally_contest(contest, person, call)
    order = sorted(people.values(), key=lambda p: (-p.wins, -p.firsts, p.name.casefold()))
    return Standings(tuple(games), tuple(order), tuple(close), close_call_ns)


def _tally_contest(contest: Mapping[str, Any], person: Any, call: CloseCall | None) -> None:
    ranking = [list(map(str, entry)) for entry in contest.get("ranking") or []]
    seats = {s for entry in ranking for s in entry}
    seats |= set(map(str, contest.get("false_starts") or [])) | set(map(str, contest.get("no_press") or []))
    for seat in seats:
        person(seat).contests += 1
    for seat, ns in (contest.get("reaction_ns") or {}).items():
        if isinstance(ns, int) and not isinstance(ns, bool) and ns >= 0:
            person(str(seat)).reactions_ns.append(ns)
    for seat in contest.get("false_starts") or []:
        person(str(seat)).false_starts += 1
    if ranking and len(ranking[0]) == 1:
        person(ranking[0][0]).firsts += 1
    if call is None:
        return
    if call.tie:
        for seat in call.first:
            person(seat).ties += 1
    else:
        person(call.first[0]).close_wins += 1
        for seat in call.second:
            person(seat).close_losses += 1


def _close_call(game_id: int, index: int, contest: Mapping[str, Any], limit_ns: int) -> CloseCall | None:
    ranking = [tuple(map(str, entry)) for entry in contest.get("ranking") or []]
    if not ranking:
        return None
    label = str(contest.get("label") or "")
    second = ranking[1] if len(ranking) > 1 else ()
    if len(ranking[0]) > 1:
        return CloseCall(game_id, index, label, ranking[0], second, 0, contest)
    margins = contest.get("margins_ns") or []
    if not margins or not second:
        return None
    margin = int(margins[0])
    if margin >= limit_ns:
        return None
    return CloseCall(game_id, index, label, ranking[0], second, margin, contest)
