"""The firmware's main loop on core 0: drain snapshots, confirm edges, obey the host.

Runs on a Pico only (``firmware.board``); ``main.py`` calls ``run()`` at boot.
"""

import gc

import machine

from firmware import config
from firmware.board import Board
from firmware.core import Firmware


def run() -> None:
    """Run until Ctrl-C from the USB console (mpremote sends one), then stop core 1 cleanly."""
    board = Board()
    firmware = Firmware(
        board.boot_id(),
        now_us=board.now_us,
        write=board.write,
        set_call=board.set_call,
        set_leds=board.set_leds,
        initial_mask=board.read_inputs(),
    )
    board.start_sampler()
    firmware.boot()
    housekeeping_at = board.now_us() + 1_000_000
    try:
        while True:
            horizon = board.drain(firmware.feed_sample)
            firmware.note_overflow(board.overflows())
            firmware.advance(horizon)
            data = board.read_host()
            if data:
                firmware.receive(data)
            if horizon >= housekeeping_at and not firmware.detector.pending:
                # Once a second, while no press is being confirmed: measure the sampling loop
                # and collect garbage now rather than in the middle of a burst of edges.
                housekeeping_at = horizon + 1_000_000
                firmware.loop_ns = board.loop_period_ns()
                gc.collect()
    finally:
        board.stop_sampler()
        board.set_call(0)
        board.set_leds(0)


def safe_mode_requested() -> bool:
    """The caller's button held at power-up skips the firmware and leaves the REPL free."""
    pin = machine.Pin(config.CALLER_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0
