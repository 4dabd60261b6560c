"""The table referee: timing arbitration, game engines, the journal, the daemon and the display."""

__version__ = "0.1.0"
