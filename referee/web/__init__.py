"""The web side of the referee: the live display (read-only) and the scorekeeper's console."""
