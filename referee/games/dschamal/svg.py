"""The table as an SVG picture (stub, filled in below)."""

from __future__ import annotations

from referee.games.dschamal.state import DschamalState


def render(state: DschamalState) -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg"></svg>'
