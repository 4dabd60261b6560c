"""The colour each seat wears: on its LED cap and button in the wiring guide, and on the display."""

SEAT_COLOURS = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6")
