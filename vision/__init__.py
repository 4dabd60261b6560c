"""Image → facts: pure OpenCV/numpy functions with no device access and no game knowledge.

The dice reader lives in the ``dice_*`` modules (entry point: :func:`vision.dice_read.read_dice`);
the die set it knows is data (:mod:`vision.dieset`, ``vision/data/djam-dice.toml``).
"""
