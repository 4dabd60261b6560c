"""The physical world: seat buttons (GPIO or the RP2040 link), LEDs and buzzer, camera frames.

Hardware knows nothing of games: seats are numbered 1..8, frames are arrays.
"""
