"""The game as JSON for the display, the console and records: scores, stones, bag, lord, next pairing."""

from __future__ import annotations

from typing import Any

from referee.games.dschamal import console, quartet, tower
from referee.games.dschamal.state import DschamalState


def scores(state: DschamalState) -> dict[str, int]:
    """Winning stones (Duel, Trio), victory points (Tower), the most stones of one shape (Quartet)."""
    if state.variant == "tower":
        points = tower.victory_points(state.players, state.front, state.black)
        return {p: points[p]["total"] for p in state.players}
    if state.variant == "quartet":
        return {p: quartet.best_count(state.stones_of(p)) for p in state.players}
    return {p: len(state.winning_of(p)) for p in state.players}


def winner_text(state: DschamalState) -> str | None:
    """The winner's name; a shared victory joins the names with " and "."""
    return " and ".join(state.winners) if state.winners else None


def summary(state: DschamalState) -> dict[str, Any]:
    wait = console.awaiting(state)
    players: dict[str, Any] = {}
    for p in state.players:
        if state.variant == "tower":
            players[p] = {"tower": list(state.stones_of(p)), "black": state.black_of(p)}
        else:
            players[p] = {"stones": list(state.stones_of(p)), "winning": list(state.winning_of(p))}
    result: dict[str, Any] = {
        "scores": scores(state),
        "scores_label": {"tower": "Victory points", "quartet": "Most stones of one shape"}.get(
            state.variant, "Winning stones"
        ),
        "winner": winner_text(state),
        "winners": list(state.winners),
        "finished": state.finished,
        "end": state.end or None,
        "variant": state.variant,
        "players": players,
        "bag": {
            "count": state.bag_count(),
            "coloured": len(state.bag),
            "black": state.bag_black,
            "camel": state.bag_camel,
        },
        "decision_stone": state.decision or None,
        "lord": state.order.lord or None,
        "next": list(state.order.next) if not state.finished else [],
        "sits_out": state.order.sits_out or None,
        "awaiting": wait.to_json(),
        "contests": state.contests,
        "last": state.last or None,
        "out_of_game": list(state.removed),
        "shape_names": dict(state.options.names.names),
    }
    if state.variant == "tower":
        result["victory_points"] = tower.victory_points(state.players, state.front, state.black)
    return result
