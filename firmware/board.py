"""The Pico's side of the firmware: pins, the sampling loop on core 1, the USB serial port.

MicroPython on an RP2040 only; everything that decides anything lives in the pure modules.

Sampling: core 1 runs ``_sample``, a viper loop that reads the SIO ``GPIO_IN`` register (every
pin in one load, so all seats and the caller are sampled in the same instant) right after the
low word of the 1 µs system timer, and stores a ``(time, pins, missed)`` slot into a ring of
``SAMPLE_SLOTS`` slots only when something changed since the previous read. Core 0 drains the
ring, extends the times to 64 bits and feeds the snapshots to ``Firmware``. Core 1 never
waits for core 0, for USB or for the garbage collector, so a bouncing button costs a few
ring slots, never another seat's first edge; if the ring ever fills, the change is retried on
the next turn (its stamp is late, not lost) and the overflow is reported as ``ERR overflow``.

Short first contacts: a bouncing contact can close and open again between two reads. The
RP2040 latches every falling edge of every pin in IO_BANK0's raw interrupt registers (INTR0,
INTR1: 4 bits per pin, EDGE_LOW write-to-clear), whatever the interrupt enables. Each turn
the loop reads them too: a pin whose falling edge is latched but which reads high again was
pressed since the last read ("missed"), and core 0 feeds it as a press at this read followed
by the release, so the stamp of a first contact is never later than one read.
"""

import _thread
import os
import select
import sys
from array import array

import machine
import micropython

from firmware import config

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython has no typing module
    TYPE_CHECKING = False  # pyright: ignore[reportConstantRedefinition]
if TYPE_CHECKING:
    from collections.abc import Callable

TIMERAWH = 0x40054024  # system timer, high word, no latching
TIMERAWL = 0x40054028  # system timer, low word
INTR0 = 0x400140F0  # IO_BANK0 raw interrupts of GPIO 0-7 (INTR1, next word: GPIO 8-15)
SLOT_WORDS = 4  # time, GPIO_IN, missed presses in INTR0, missed presses in INTR1

# Words of the control array shared by the two cores.
HEAD = 0  # next ring slot core 1 will fill (written by core 1)
TAIL = 1  # next ring slot core 0 will read (written by core 0)
STOP = 2  # set by core 0 to end the loop
NOW = 3  # timer low word of the latest read: every change up to it is in the ring
LOOPS = 4  # loop turns (wraps), for the loop period shown by STAT
OVERFLOWS = 5  # times the ring was full
RUNNING = 6  # 1 while the loop runs
HIGH0 = 8  # LEVEL_HIGH bits of our pins in INTR0 (their EDGE_LOW bits are one place up)
HIGH1 = 9  # the same in INTR1


@micropython.viper
def _sample(ring: ptr32, ctl: ptr32, pin_mask: int, slot_mask: int):  # noqa: F821 (viper type)
    gpio_in = ptr32(0xD0000004)  # noqa: F821  SIO GPIO_IN: all 30 pins in one read
    timer = ptr32(0x40054028)  # noqa: F821  TIMERAWL: µs since boot, low 32 bits
    intr = ptr32(0x400140F0)  # noqa: F821  IO_BANK0 INTR0, INTR1: latched edges, current levels
    high0 = ctl[8]
    high1 = ctl[9]
    fall0 = high0 << 1  # EDGE_LOW bits
    fall1 = high1 << 1
    intr[0] = fall0  # forget edges latched before the start
    intr[1] = fall1
    last = gpio_in[0] & pin_mask
    head = 0
    full = 0
    ctl[6] = 1
    while ctl[2] == 0:
        t = timer[0]
        pins = gpio_in[0] & pin_mask
        r0 = intr[0]
        r1 = intr[1]
        missed0 = (r0 >> 1) & r0 & high0  # fell since the last turn, yet high again now
        missed1 = (r1 >> 1) & r1 & high1
        if (r0 & fall0) | (r1 & fall1):
            intr[0] = r0 & fall0  # write-to-clear the edges just seen
            intr[1] = r1 & fall1
        if pins != last or (missed0 | missed1) != 0:
            nxt = (head + 1) & slot_mask
            if nxt == ctl[1]:
                if full == 0:
                    ctl[5] = ctl[5] + 1
                    full = 1
            else:
                slot = head * 4
                ring[slot] = t
                ring[slot + 1] = pins
                ring[slot + 2] = missed0
                ring[slot + 3] = missed1
                head = nxt
                ctl[0] = head
                last = pins
                full = 0
        ctl[3] = t
        ctl[4] = ctl[4] + 1
    ctl[6] = 0


class Board:
    """Pins, the sampler and the USB link of one Pico wired as in firmware/config.py."""

    def __init__(self) -> None:
        self.inputs = config.SEATS + 1
        self.shift = config.CALLER_PIN
        if self.shift + self.inputs > 16:
            raise ValueError("the caller's and seats' pins must lie within GP0..GP15 (config.py)")
        self.pin_mask = ((1 << self.inputs) - 1) << self.shift
        for k in range(self.inputs):
            machine.Pin(config.CALLER_PIN + k, machine.Pin.IN, machine.Pin.PULL_UP)
        self.leds = [machine.Pin(p, machine.Pin.OUT, value=0) for p in config.SEAT_LED_PINS[: config.SEATS]]
        self.call_pin = machine.Pin(config.CALL_PIN, machine.Pin.OUT, value=0)
        self.status = machine.Pin(config.STATUS_LED_PIN, machine.Pin.OUT, value=1)
        self.slots = config.SAMPLE_SLOTS
        self.ring = array("I", [0] * (SLOT_WORDS * self.slots))
        self.ctl = array("I", [0] * 10)
        for pin in range(self.shift, self.shift + self.inputs):
            self.ctl[HIGH0 + pin // 8] |= 1 << (4 * (pin % 8) + 1)
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)  # pyright: ignore[reportUnknownMemberType]
        self.loop_mark = (0, 0)  # (time µs, loop count) of the latest loop-period measurement

    # -- time and inputs ----------------------------------------------------------------------

    def now_us(self) -> int:
        """The 64-bit system timer (µs since boot); the clock of every stamp."""
        mem32 = machine.mem32
        while True:
            high = mem32[TIMERAWH] & 0xFFFFFFFF
            low = mem32[TIMERAWL] & 0xFFFFFFFF
            if mem32[TIMERAWH] & 0xFFFFFFFF == high:  # no carry between the two reads
                return (high << 32) | low

    def levels(self, pins: int) -> int:
        """GPIO_IN bits → input mask (bit 0 caller, bit k seat k; 1 = down: buttons pull low)."""
        return ((pins ^ self.pin_mask) & self.pin_mask) >> self.shift

    def missed_pins(self, missed0: int, missed1: int) -> int:
        """INTR0/INTR1 LEVEL_HIGH-position bits → a GPIO_IN-style mask of those pins."""
        pins = 0
        for pin in range(self.shift, self.shift + self.inputs):
            word = missed1 if pin >= 8 else missed0
            if word >> (4 * (pin % 8) + 1) & 1:
                pins |= 1 << pin
        return pins

    def read_inputs(self) -> int:
        return self.levels(machine.mem32[0xD0000004] & 0xFFFFFFFF)

    def boot_id(self) -> int:
        """A random 32-bit id for this boot (ring-oscillator entropy)."""
        return int.from_bytes(os.urandom(4), "big") or 1

    # -- sampler ------------------------------------------------------------------------------

    def start_sampler(self) -> None:
        self.ctl[STOP] = 0
        args = (self.ring, self.ctl, self.pin_mask, self.slots - 1)
        _thread.start_new_thread(_sample, args)  # pyright: ignore[reportUnknownMemberType]
        while self.ctl[RUNNING] == 0:
            pass

    def stop_sampler(self) -> None:
        self.ctl[STOP] = 1
        while self.ctl[RUNNING]:
            pass

    def drain(self, feed: "Callable[[int, int], None]") -> int:
        """Feed every snapshot in the ring to `feed(t_us, mask)`; return the time read up to."""
        ctl = self.ctl
        horizon_low = ctl[NOW]  # read first: every change up to it is already in the ring
        head = ctl[HEAD]
        ref = self.now_us()  # later than every stamp below: extends them to 64 bits
        ref_low = ref & 0xFFFFFFFF
        tail = ctl[TAIL]
        ring = self.ring
        slot_mask = self.slots - 1
        while tail != head:
            slot = SLOT_WORDS * tail
            t = ref - ((ref_low - ring[slot]) & 0xFFFFFFFF)
            pins = ring[slot + 1]
            if ring[slot + 2] | ring[slot + 3]:
                # A contact came and went between two reads: a press at this read, then
                # the levels as read, so its stamp is no later than one read.
                feed(t, self.levels(pins & ~self.missed_pins(ring[slot + 2], ring[slot + 3])))
            feed(t, self.levels(pins))
            tail = (tail + 1) & slot_mask
            ctl[TAIL] = tail
        return ref - ((ref_low - horizon_low) & 0xFFFFFFFF)

    def overflows(self) -> int:
        return self.ctl[OVERFLOWS]

    def loop_period_ns(self) -> int:
        """The sampling loop's period over the time since the previous call (0 the first time)."""
        now = self.now_us()
        loops = self.ctl[LOOPS]
        t0, n0 = self.loop_mark
        self.loop_mark = (now, loops)
        turns = (loops - n0) & 0xFFFFFFFF
        if t0 == 0 or turns == 0:
            return 0
        return (now - t0) * 1000 // turns

    # -- outputs and USB ----------------------------------------------------------------------

    def set_call(self, on: int) -> None:
        self.call_pin.value(1 if on else 0)

    def set_leds(self, mask: int) -> None:
        for k, led in enumerate(self.leds):
            led.value((mask >> k) & 1)

    def write(self, line: bytes) -> None:
        sys.stdout.buffer.write(line)

    def read_host(self) -> bytes:
        """The bytes the host sent so far (at most 64, never blocking)."""
        data = bytearray()
        while len(data) < 64 and self.poller.poll(0):  # pyright: ignore[reportUnknownMemberType]
            data.extend(sys.stdin.buffer.read(1))
        return bytes(data)
