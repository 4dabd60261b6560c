"""Image → facts: pure OpenCV/numpy readers of the table, with no device access and no game rules.

- The dice reader: the ``dice_*`` modules (entry point :func:`vision.dice_read.read_dice`); the die
  set it knows is data (:mod:`vision.dieset`, ``vision/data/djam-dice.toml``).
- The board reader: the ``board_*`` modules and :mod:`vision.markers` (the fiducial ids of the
  pieces and the board's corners).
"""
