"""Wiring and timing of the button timer. Edit here, copy again with mpremote, reboot.

Input bit numbering, used everywhere in the firmware and on the wire: bit 0 is the caller's
button, bit k (1..8) is seat k. The caller pin and the seat pins must be consecutive GPIOs
(``CALLER_PIN``, ``CALLER_PIN + 1``, ...) so that one shift of the SIO GPIO_IN word gives the
input mask: every input is read in the same instruction. They must lie within GP0..GP15,
whose edges the sampling loop also reads from the INTR0/INTR1 latches (see board.py).
"""

FIRMWARE_VERSION = "1.0.0"
PROTOCOL_VERSION = 1

SEATS = 8  # seats wired, 1..8
CALLER_PIN = 2  # GP2: the caller's button (optional); seats 1..8 are GP3..GP10
SEAT_LED_PINS = (11, 12, 13, 14, 15, 16, 17, 18)  # GP11..GP18: one LED per seat (active high)
CALL_PIN = 19  # GP19: buzzer or lamp driven at the call (active high)
STATUS_LED_PIN = 25  # the Pico's own LED: lit while the firmware runs

# Press semantics, the same as the Pi's GPIO path: the stamp is the first transition; a change
# is confirmed once the new level has held this long without interruption, and dismissed as a
# glitch once the old level has held this long again. A confirmed press locks the seat out of
# further presses until a confirmed release.
PRESS_CONFIRM_US = 1_000  # a press must read "down" for 1 ms in a row (filters EMI spikes)
RELEASE_CONFIRM_US = 5_000  # "up" for 5 ms ends a press, or dismisses a pending press as a glitch

CALL_PULSE_US = 300_000  # how long the call output stays on
TIE_WINDOW_US = 10  # the winner lamp lights every seat within this of the first press

RING_FRAMES = 256  # sent frames kept for resends (about 15 KB)
SAMPLE_SLOTS = 1024  # snapshot ring between the sampling core and the main core (power of two)
