"""What the table sees and hears: a LED per seat and the buzzer.

- the call: every seat LED flashes and the buzzer sounds (`show_call`);
- a verdict: the winner's LED lights; in a tie every tied seat lights and the tie tone plays;
  a false start blinks that seat's LED with a low buzz (`show_verdict`, `show_false_start`);
- `clear` puts everything out for the next contest.

Works on any gpiozero pin factory (MockFactory in tests and the demo). The buzzer is either an
active buzzer (one pitch, gpiozero ``Buzzer``) or a passive piezo (``TonalBuzzer``, PWM tones).
Tunes play on a background thread, except their first note, which starts in the caller's
thread so that the call's timestamp is the moment the sound starts.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from gpiozero import LED, Buzzer, Factory, TonalBuzzer
from gpiozero.tones import Tone


@dataclass(frozen=True)
class Note:
    """A tone of `hz` (None: silence) for `seconds`. An active buzzer ignores the pitch."""

    hz: float | None
    seconds: float


Tune = Sequence[Note]

CALL_TUNE: Tune = (Note(1320.0, 0.30),)  # bright and short: "now!"
TIE_TUNE: Tune = (Note(880.0, 0.12), Note(None, 0.08), Note(880.0, 0.12))  # two equal beeps
FALSE_START_TUNE: Tune = (Note(440.0, 0.60),)  # a low buzz

# A passive piezo is driven within 440..1760 Hz (A4 to A6): loud on small piezos.
_TONAL_MID = Tone(880.0)
_TONAL_OCTAVES = 1

# LED pattern names, as `pattern(seat)` reports them (the display can mirror them).
OFF, ON, BLINK, FLASH = "off", "on", "blink", "flash"


def _blink(led: LED, on_s: float, off_s: float, n: int | None) -> None:
    """gpiozero's blink on a background thread (its signature is typed from int defaults)."""
    cast(Any, led).blink(on_time=on_s, off_time=off_s, n=n, background=True)


class Feedback:
    """Seat LEDs and a buzzer on one pin factory.

    >>> from hardware.pin_factory import open_factory
    >>> fb = Feedback(open_factory("mock").factory, leds={1: 23, 2: 24}, buzzer=None)
    >>> fb.show_verdict(winners=[2]); fb.pattern(2), fb.pattern(1)
    ('on', 'off')
    >>> fb.close()
    """

    def __init__(
        self,
        factory: Factory,
        leds: Mapping[int, int],
        buzzer: int | None = None,
        *,
        tonal: bool = False,
        blink_s: float = 0.15,
        call_flash_s: float = 0.30,
        time_scale: float = 1.0,
    ) -> None:
        """LEDs by seat and the buzzer pin; `time_scale` < 1 plays everything faster (tests)."""
        self._leds: dict[int, LED] = {}
        self._patterns: dict[int, str] = {}
        self._buzzer: Buzzer | TonalBuzzer | None = None
        self._lock = threading.RLock()
        self._tune_stop = threading.Event()
        self._tune_thread: threading.Thread | None = None
        self.blink_s = blink_s * time_scale
        self.call_flash_s = call_flash_s * time_scale
        self.time_scale = time_scale
        try:
            for seat, pin in leds.items():
                self._leds[seat] = LED(pin, pin_factory=factory)
                self._patterns[seat] = OFF
            if buzzer is not None:
                if tonal:
                    self._buzzer = TonalBuzzer(
                        buzzer, mid_tone=_TONAL_MID, octaves=_TONAL_OCTAVES, pin_factory=factory
                    )
                else:
                    self._buzzer = Buzzer(buzzer, pin_factory=factory)
        except Exception:
            self.close()
            raise

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats that have an LED."""
        return tuple(self._leds)

    def pattern(self, seat: int) -> str:
        """What seat `seat`'s LED shows now: "off", "on", "blink" or "flash" (the call)."""
        return self._patterns.get(seat, OFF)

    def lit(self, seat: int) -> bool:
        """Whether the LED of `seat` is on at this instant."""
        led = self._leds.get(seat)
        return bool(led is not None and led.value)

    # --- LEDs -------------------------------------------------------------------------------

    def light(self, seat: int) -> None:
        """Light one seat's LED steadily (the winner's, the moment the verdict is certain)."""
        with self._lock:
            led = self._leds.get(seat)
            if led is not None:
                led.on()
                self._patterns[seat] = ON

    def blink(self, seat: int) -> None:
        with self._lock:
            led = self._leds.get(seat)
            if led is not None:
                _blink(led, self.blink_s, self.blink_s, None)
                self._patterns[seat] = BLINK

    def clear(self) -> None:
        """All LEDs off and the buzzer silent: ready for the next contest."""
        with self._lock:
            self._stop_tune()
            for seat, led in self._leds.items():
                led.off()
                self._patterns[seat] = OFF

    # --- what the daemon calls --------------------------------------------------------------

    def show_call(self) -> None:
        """The call: the buzzer sounds (before this returns) and every seat LED flashes once."""
        with self._lock:
            self.play(CALL_TUNE)
            for seat, led in self._leds.items():
                _blink(led, self.call_flash_s, 0.0, 1)
                self._patterns[seat] = FLASH

    def show_false_start(self, seat: int) -> None:
        """A press before the call: that seat blinks and the low buzz plays."""
        with self._lock:
            self.blink(seat)
            self.play(FALSE_START_TUNE)

    def show_verdict(
        self,
        winners: Collection[int],
        false_starts: Collection[int] = (),
        *,
        sound: bool = True,
    ) -> None:
        """Show a contest's outcome: winners light (all of them in a tie), false starts blink.

        Other seats go dark. A tie plays the tie tune; a clear winner is silent (the call's
        beep was the sound of the contest, and the display names the winner).
        """
        with self._lock:
            for seat, led in self._leds.items():
                if seat in winners:
                    led.on()
                    self._patterns[seat] = ON
                elif seat in false_starts:
                    self.blink(seat)
                else:
                    led.off()
                    self._patterns[seat] = OFF
            if sound and len(winners) > 1:
                self.play(TIE_TUNE)

    # --- the buzzer -------------------------------------------------------------------------

    def play(self, tune: Tune) -> None:
        """Play `tune`, replacing whatever plays. The first note starts before this returns."""
        with self._lock:
            self._stop_tune()
            if self._buzzer is None or not tune:
                return
            self._sound(tune[0].hz)
            stop = self._tune_stop = threading.Event()
            thread = threading.Thread(target=self._play_rest, args=(tune, stop), daemon=True, name="buzzer")
            self._tune_thread = thread
            thread.start()

    @property
    def sounding(self) -> bool:
        """Whether the buzzer is making a sound right now."""
        b = self._buzzer
        if b is None:
            return False
        if isinstance(b, TonalBuzzer):
            return b.value is not None  # value 0.0 is the mid tone, still sounding
        return bool(b.is_active)

    def _play_rest(self, tune: Tune, stop: threading.Event) -> None:
        for i, note in enumerate(tune):
            if i > 0:
                with self._lock:
                    if stop.is_set():
                        return
                    self._sound(note.hz)
            if stop.wait(note.seconds * self.time_scale):
                return
        with self._lock:
            if not stop.is_set():
                self._sound(None)

    def _sound(self, hz: float | None) -> None:
        b = self._buzzer
        if b is None:
            return
        if isinstance(b, TonalBuzzer):
            if hz is None:
                b.stop()
            else:
                b.play(Tone(frequency=min(max(hz, b.min_tone.frequency), b.max_tone.frequency)))
        elif hz is None:
            b.off()
        else:
            b.on()

    def _stop_tune(self) -> None:
        self._tune_stop.set()
        thread = self._tune_thread
        if thread is not None and thread is not threading.current_thread():
            # the thread takes the lock between notes; it sees `stop` and returns at once
            self._tune_thread = None
        self._sound(None)

    def close(self) -> None:
        with self._lock:
            self._stop_tune()
            for led in self._leds.values():
                led.close()
            if self._buzzer is not None:
                self._buzzer.close()
            self._leds.clear()
            self._buzzer = None
