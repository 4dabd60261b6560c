"""Snapshots of every input → confirmed edges stamped at their first transition.

A snapshot is ``(t_us, mask)``: the time of one read of all inputs and the inputs' levels
(bit i set = input i is down). Only snapshots that differ from the previous one need to be
fed; between two snapshots the levels are taken to be constant.

Per input, the semantics of the Pi's GPIO path:

- **leading-edge stamp**: a change is stamped with the time of its first transition, not the
  time it was confirmed, so contact bounce never delays the stamp;
- **glitch confirmation**: the change is confirmed once the new level has held for
  ``confirm_us[new level]`` without interruption; it is dismissed (a glitch, counted) once the
  old level has held for ``confirm_us[old level]`` again;
- **lockout until release**: a confirmed press cannot be followed by another press before a
  confirmed release (that is what confirming levels, not transitions, gives).

>>> d = EdgeDetector(2, press_confirm_us=1000, release_confirm_us=5000)
>>> out = []
>>> for t, mask in [(100, 0b10), (130, 0), (160, 0b10)]:  # seat 1 bounces for 60 µs
...     d.feed(t, mask, out)
>>> d.advance(1159, out); out
[]
>>> d.advance(1160, out); out   # down since 160 for 1000 µs: a press stamped at 100
[(1, 1, 100)]
"""

RELEASED = 0
PRESSED = 1


class EdgeDetector:
    """Debounces `inputs` inputs (bits 0..inputs-1) from snapshots; see the module docstring."""

    def __init__(
        self, inputs: int, press_confirm_us: int, release_confirm_us: int, initial_mask: int = 0
    ) -> None:
        if inputs < 1 or inputs > 30:
            raise ValueError("between 1 and 30 inputs")
        if press_confirm_us < 1 or release_confirm_us < 1:
            raise ValueError("confirmation times must be at least 1 µs")
        self.inputs = inputs
        self.all_mask = (1 << inputs) - 1
        self.confirm_us = (release_confirm_us, press_confirm_us)  # indexed by the level held
        self.stable = initial_mask & self.all_mask  # confirmed levels
        self.raw = self.stable  # levels of the latest snapshot
        self.pending = 0  # inputs with a change seen but not yet confirmed nor dismissed
        self.first_t = [0] * inputs  # leading-edge time of each pending change
        self.run_start = [0] * inputs  # when the input took its current raw level
        self.next_deadline = -1  # earliest time a pending change is decided; -1: none
        self.glitches = 0

    def feed(self, t_us: int, mask: int, out: list[tuple[int, int, int]]) -> None:
        """Take the snapshot `mask` read at `t_us`; edges decided meanwhile are appended to `out`.

        Edges are ``(input, level, t_us of the first transition)``. Snapshots must come in
        time order; a snapshot equal to the previous one only advances the time.
        """
        if self.pending and t_us >= self.next_deadline:
            self.advance(t_us, out)
        changed = (mask ^ self.raw) & self.all_mask
        if not changed:
            return
        self.raw = mask & self.all_mask
        i = 0
        while changed:
            if changed & 1:
                self.run_start[i] = t_us
                bit = 1 << i
                if not self.pending & bit:
                    self.pending |= bit  # first transition away from the confirmed level
                    self.first_t[i] = t_us
            changed >>= 1
            i += 1
        self._plan()

    def advance(self, t_us: int, out: list[tuple[int, int, int]]) -> None:
        """No change until `t_us`: decide the pending changes whose level has held long enough."""
        if not self.pending or t_us < self.next_deadline:
            return
        decided: list[tuple[int, int]] = []  # (deadline, input)
        pending = self.pending
        i = 0
        while pending:
            if pending & 1:
                level = (self.raw >> i) & 1
                deadline = self.run_start[i] + self.confirm_us[level]
                if deadline <= t_us:
                    decided.append((deadline, i))
            pending >>= 1
            i += 1
        decided.sort()  # in the order the decisions fell due, then by input
        for _, i in decided:
            bit = 1 << i
            self.pending &= ~bit
            level = (self.raw >> i) & 1
            if level == (self.stable >> i) & 1:
                self.glitches += 1  # back at the confirmed level: the change was a glitch
            else:
                self.stable ^= bit
                out.append((i, level, self.first_t[i]))
        self._plan()

    def _plan(self) -> None:
        """Recompute the time of the next decision."""
        deadline = -1
        pending = self.pending
        i = 0
        while pending:
            if pending & 1:
                d = self.run_start[i] + self.confirm_us[(self.raw >> i) & 1]
                if deadline < 0 or d < deadline:
                    deadline = d
            pending >>= 1
            i += 1
        self.next_deadline = deadline
