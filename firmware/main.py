"""The Pico's entry point: copy as ``:main.py`` (see firmware/README.md).

Hold the caller's button while plugging the Pico in to skip the firmware (safe mode).
"""

from firmware import app

if not app.safe_mode_requested():
    app.run()
