"""Seats claimed by pressing: the referee asks each player in turn to press their button.

A pure state machine (no clock, no I/O): every function takes a `Seating` and returns a new
one. The daemon (referee.seating_run) feeds it button presses and the time, and shows
`prompt` on the display ("Anne, press your button").

- Players are asked in their listed order; the first button pressed belongs to the player asked.
- A button already claimed is not taken again (a note says whose it is); unwired buttons are ignored.
- A player whose button gives nothing for `timeout_ns` is marked *silent* (the display gives
  the wiring hint) and the next player is asked; `retry` asks a silent or seated player again.
- The order can be changed at any time before the game starts (`move`, `sort_by_button`), so
  the list matches the clockwise seating the rules depend on.

>>> s = start(("Anne", "Marc"), wired=(1, 2, 3), now_ns=0)
>>> s.prompt
'Anne, press your button'
>>> s = press(s, 3, now_ns=10)
>>> s = press(s, 1, now_ns=20)
>>> s.done, s.seats()
(True, {'Anne': 3, 'Marc': 1})
>>> sort_by_button(s).players
('Marc', 'Anne')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

DEFAULT_TIMEOUT_NS = 20_000_000_000


class SeatingError(ValueError):
    """A seating request that cannot be followed; the message says what to do instead."""


@dataclass(frozen=True)
class Seating:
    players: tuple[str, ...]  # the current order (clockwise once arranged)
    wired: tuple[int, ...]  # the seat buttons that exist
    claimed: tuple[tuple[str, int], ...] = ()  # (player, button), in the order claimed
    asking: str | None = None  # the player asked to press now
    asked_at_ns: int = 0
    timeout_ns: int = DEFAULT_TIMEOUT_NS
    silent: tuple[str, ...] = ()  # players whose button never answered
    note: str = ""  # the latest thing people should know ("button 2 is already Marc's")

    # -- reading -------------------------------------------------------------------------------

    def seats(self) -> dict[str, int]:
        """Player → button, for every player who has claimed one."""
        return dict(self.claimed)

    def owner(self, button: int) -> str | None:
        for name, number in self.claimed:
            if number == button:
                return name
        return None

    @property
    def done(self) -> bool:
        return len(self.claimed) == len(self.players)

    @property
    def free_buttons(self) -> tuple[int, ...]:
        taken = {b for _, b in self.claimed}
        return tuple(b for b in self.wired if b not in taken)

    @property
    def prompt(self) -> str:
        if self.asking is not None:
            return f"{self.asking}, press your button"
        if self.done:
            return "Everyone has a seat"
        return "Some buttons did not answer"

    def deadline_ns(self) -> int | None:
        """When the player asked now times out (None: nobody is asked)."""
        return None if self.asking is None else self.asked_at_ns + self.timeout_ns


# -- changes -----------------------------------------------------------------------------------


def start(
    players: Iterable[str], wired: Iterable[int], now_ns: int, timeout_ns: int = DEFAULT_TIMEOUT_NS
) -> Seating:
    """Begin seating `players` on the `wired` buttons; the first player is asked at once."""
    names = tuple(players)
    buttons = tuple(sorted(set(wired)))
    if not names:
        raise SeatingError("list the players first")
    if len(set(names)) != len(names):
        raise SeatingError("two players have the same name; names must be unique")
    if len(names) > len(buttons):
        raise SeatingError(
            f"{len(names)} players but only {len(buttons)} seat buttons are wired; "
            "seat fewer players or wire more buttons (docs/wiring.md)"
        )
    if timeout_ns <= 0:
        raise SeatingError("the seating timeout must be positive")
    return _ask_next(Seating(names, buttons, timeout_ns=timeout_ns), now_ns)


def press(s: Seating, button: int, now_ns: int) -> Seating:
    """A button was pressed: it becomes the seat of the player asked, if it is free."""
    if button not in s.wired:
        return s
    owner = s.owner(button)
    if s.asking is None:
        if owner is not None:
            return replace(s, note=f"button {button} is {owner}'s")
        return replace(s, note=f"button {button} is free; ask again for a player to claim it")
    if owner is not None:
        if owner == s.asking:
            return s
        return replace(s, note=f"button {button} is already {owner}'s; {s.asking}, press your own button")
    claimed = (*s.claimed, (s.asking, button))
    seated = replace(
        s,
        claimed=claimed,
        silent=tuple(p for p in s.silent if p != s.asking),
        note=f"{s.asking} sits at button {button}",
    )
    return _ask_next(seated, now_ns)


def tick(s: Seating, now_ns: int) -> Seating:
    """The time is `now_ns`: a player asked for longer than the timeout is marked silent."""
    deadline = s.deadline_ns()
    if deadline is None or now_ns < deadline:
        return s
    name = s.asking
    assert name is not None
    silent = replace(
        s,
        silent=(*s.silent, name),
        note=f"no button answered for {name}",
    )
    return _ask_next(silent, now_ns)


def retry(s: Seating, name: str, now_ns: int) -> Seating:
    """Ask `name` again (a silent button that was fixed, or a button claimed by mistake)."""
    if name not in s.players:
        raise SeatingError(f"{name!r} is not a player of this game")
    return replace(
        s,
        claimed=tuple(c for c in s.claimed if c[0] != name),
        silent=tuple(p for p in s.silent if p != name),
        asking=name,
        asked_at_ns=now_ns,
        note=f"{name}, press your button again",
    )


def move(s: Seating, name: str, to_index: int) -> Seating:
    """Put `name` at position `to_index` of the order (clamped to the list)."""
    if name not in s.players:
        raise SeatingError(f"{name!r} is not a player of this game")
    rest = [p for p in s.players if p != name]
    at = max(0, min(to_index, len(rest)))
    rest.insert(at, name)
    return replace(s, players=tuple(rest))


def reorder(s: Seating, order: Iterable[str]) -> Seating:
    """Give the whole order at once; it must name every player exactly once."""
    names = tuple(order)
    if sorted(names) != sorted(s.players):
        raise SeatingError("the new order must name every player exactly once")
    return replace(s, players=names)


def sort_by_button(s: Seating) -> Seating:
    """Order players by their button number (buttons laid clockwise give the clockwise order)."""
    seats = s.seats()
    big = max(s.wired, default=0) + 1
    order = sorted(s.players, key=lambda p: (seats.get(p, big), s.players.index(p)))
    return replace(s, players=tuple(order))


def header_seats(s: Seating) -> Mapping[str, int]:
    """The game header's ``"seats"``; raises while a player has no button."""
    missing = [p for p in s.players if p not in s.seats()]
    if missing:
        raise SeatingError(f"not everyone has a button yet: {', '.join(missing)}")
    return {p: s.seats()[p] for p in s.players}


def _ask_next(s: Seating, now_ns: int) -> Seating:
    seated = s.seats()
    for name in s.players:
        if name not in seated and name not in s.silent:
            return replace(s, asking=name, asked_at_ns=now_ns)
    return replace(s, asking=None, asked_at_ns=now_ns)
