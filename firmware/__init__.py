"""RP2040 button-timer firmware (MicroPython), whose pure modules also run under CPython.

Pure logic, importable anywhere: ``crc16``, ``edges`` (snapshots → confirmed edges),
``framing`` (lines, CRC, the resend ring), ``core`` (the firmware's behaviour), ``config``.
Only ``board`` and ``app`` touch ``machine``/``rp2``; ``main`` is the Pico's entry point.
See docs/protocol.md for the wire protocol and firmware/README.md for flashing and wiring.
"""
