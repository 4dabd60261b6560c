"""Putting one boot's frames back in sequence: duplicates dropped, gaps held and reported.

Pure bookkeeping, no I/O: the link offers every valid frame of the current boot, asks for
the gap to request with RESEND, and tells the tracker what can never come (a LOST answer,
or resends that failed too many times).

>>> from hardware.serial_frames import Frame
>>> t = SequenceTracker("1A2B3C4D", first_seq=1)
>>> f = lambda seq: Frame("1A2B3C4D", seq, "E", ("1", "1", str(seq)))
>>> [g.seq for g in t.offer(f(1))[1]], [g.seq for g in t.offer(f(3))[1]], t.gap()
([1], [], (2, 2))
>>> [g.seq for g in t.offer(f(2))[1]], t.gap(), t.offer(f(2))[0], t.duplicates
([2, 3], None, False, 1)
"""

from __future__ import annotations

from hardware.serial_frames import SEQ_MASK, Frame, seq_diff


class SequenceTracker:
    """In-order delivery of the frames of boot `boot`, starting at `first_seq`."""

    def __init__(self, boot: str, first_seq: int, max_held: int = 1024) -> None:
        self.boot = boot
        self.expected = first_seq & SEQ_MASK  # the next sequence number to deliver
        self.max_held = max_held
        self.held: dict[int, Frame] = {}  # frames after a gap, waiting for it to fill
        self.duplicates = 0
        self.lost = 0  # sequence numbers given up on

    def offer(self, frame: Frame) -> tuple[bool, list[Frame]]:
        """``(is_new, frames now deliverable in order)``; a duplicate gives ``(False, [])``."""
        ahead = seq_diff(frame.seq, self.expected)
        if ahead < 0 or frame.seq in self.held:
            self.duplicates += 1
            return False, []
        if ahead > 0:
            self.held[frame.seq] = frame
            if len(self.held) > self.max_held:
                return True, self.give_up()  # a gap this long will not be filled in time
            return True, []
        self.expected = (self.expected + 1) & SEQ_MASK
        return True, [frame, *self._drain()]

    def gap(self) -> tuple[int, int] | None:
        """The first missing range ``(first, last)`` to request, or None when nothing is missing."""
        if not self.held:
            return None
        nearest = min(self.held, key=lambda s: seq_diff(s, self.expected))
        return self.expected, (nearest - 1) & SEQ_MASK

    def skip(self, first: int, last: int) -> list[Frame]:
        """Frames `first`..`last` will never come: move past them; returns what is now deliverable.

        A range that starts beyond the next expected frame leaves the frames before it awaited.
        """
        if seq_diff(first, self.expected) > 0:
            return []  # the frames before `first` may still come; the range is reported again
        end = (last + 1) & SEQ_MASK
        if seq_diff(end, self.expected) <= 0:
            return []  # already past it
        out: list[Frame] = []
        inside = sorted(
            (s for s in self.held if seq_diff(s, end) < 0), key=lambda s: seq_diff(s, self.expected)
        )
        self.lost += seq_diff(end, self.expected) - len(inside)
        out.extend(self.held.pop(s) for s in inside)
        self.expected = end
        out.extend(self._drain())
        return out

    def give_up(self) -> list[Frame]:
        """Declare the current gap lost; returns the frames that become deliverable."""
        gap = self.gap()
        return [] if gap is None else self.skip(*gap)

    def _drain(self) -> list[Frame]:
        out: list[Frame] = []
        while self.expected in self.held:
            out.append(self.held.pop(self.expected))
            self.expected = (self.expected + 1) & SEQ_MASK
        return out
