"""A piece's sticker under a hand's fingers: its colours are not the hand's.

A hand that covers part of a piece whose marker cannot be read joins the piece's foreign
pixels into its own region, and the hand's palette (`vision.board_surface._under_hands`: the
colours of the region's core) then learns the sticker's white paper and black ink as "hand
colours". Beside a pale board the white passes for a light square, so every light square the
hand could reach looks like the hand (tune scene 483: a piece at b2 under the fingers, b1 and
c2 flagged "beside a hand of the board's colour").

The sticker is found by its marker's ink: a patch of the hand's region whose brightest
channel is at most a quarter (INK_CONTRAST) of the darkest channel of a white pixel within
INK_NEAR px (the sticker's white field or border; white: its darkest channel at least WHITE
of its brightest, which paper under a tinted lamp is and skin is not), whose surroundings are
mostly that white (INK_ENCLOSED of the ring of INK_NEAR px round it: ink lies *in* a field
of white, while the dark edge of a sleeve beside a light square has the sleeve on its other
side) and which is compact (no wider than INK_SPAN squares, a marker's size). The pixels
within STICKER squares of such ink are the sticker's. They are left out of the hand's
palette only: they are not declared board, nor hand. All in linear light.

Real-world assumption: a hand shows no black patch inside a white field (a ring, a watch
face, a printed sleeve could; their colours are then only left out of the palette, which the
rest of the hand's core in that square still teaches). The hand's regions are cut by the grid
lines, so a hand's part in one square may be mostly a sticker and then teach almost no colour
(tune 483's b2): the zone is kept small (at 0.3 square, tune 269 read a piece under a hand as
an empty square).

>>> import numpy as np
>>> lin = np.full((48, 48, 3), 0.3, np.float32)          # a hand region, skin-grey
>>> lin[10:24, 10:24] = 0.8                                # a sticker's white field
>>> lin[14:20, 14:20] = 0.01                               # its marker's ink
>>> hand = np.ones((48, 48), bool)
>>> faces = sticker_faces(lin, hand, 24)
>>> bool(faces[17, 17]), bool(faces[11, 11]), bool(faces[40, 40])
(True, True, False)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_fast import box_around, channel_max, channel_min, median, share

INK_CONTRAST = 4.0  # the sticker's white is this many times brighter than its ink, every channel
WHITE = 0.4  # white (paper, under a tinted light): its darkest channel this share of its brightest
INK_NEAR = 2  # px: ... within this distance of the ink
INK_ENCLOSED = 0.5  # share of the ring round an ink patch that must be that white
INK_SPAN = 0.7  # squares: an ink patch is no wider than a marker (0.55 of a 0.7–0.85 piece)
INK_MIN = 4  # px: smaller dark specks say nothing
STICKER = 0.2  # squares: pixels this close to the ink are the sticker's


def sticker_faces(lin: np.ndarray, hands: np.ndarray, ppu: int) -> np.ndarray:
    """The pixels within STICKER squares of a marker's ink seen inside the ``hands`` (the
    hand-sized foreign regions); ``lin``: the top view in linear light (see the module doc).

    Worked out in the box around the hands, widened by as far as anything reaches from them
    (the ink's white within INK_NEAR px, the sticker STICKER squares round the ink): every
    step is a pixel's own or looks that far at most, so the box holds the view's answer."""
    out = np.zeros(hands.shape, bool)
    if not hands.any():
        return out
    box = box_around(hands, max(INK_NEAR, round(STICKER * ppu)) + 1)
    out[box] = _sticker_faces(lin[box], hands[box], ppu)
    return out


def _sticker_faces(lin: np.ndarray, hands: np.ndarray, ppu: int) -> np.ndarray:
    """`sticker_faces` in a box around the ``hands``."""
    brightest, darkest = channel_max(lin), channel_min(lin)
    # How bright each pixel is as white: its darkest channel, where it is white at all.
    whiteness = np.where(darkest >= WHITE * brightest, darkest, 0).astype(darkest.dtype)
    near = np.ones((2 * INK_NEAR + 1,) * 2, np.uint8)
    ink = hands & (cv2.dilate(whiteness, near) >= INK_CONTRAST * brightest)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    h, w = hands.shape
    found = np.zeros(count, bool)
    for k in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[k])
        if area < INK_MIN or max(bw, bh) > INK_SPAN * ppu:
            continue
        y0, y1 = max(0, y - INK_NEAR), min(h, y + bh + INK_NEAR)
        x0, x1 = max(0, x - INK_NEAR), min(w, x + bw + INK_NEAR)
        patch = labels[y0:y1, x0:x1] == k
        ring = (cv2.dilate(patch.astype(np.uint8), near) > 0) & ~patch
        level = median(brightest[y0:y1, x0:x1][patch])  # np.median's, bit for bit
        found[k] = share(whiteness[y0:y1, x0:x1][ring] >= INK_CONTRAST * level) >= INK_ENCLOSED
    if not found[1:].any():
        return np.zeros(hands.shape, bool)
    r = round(STICKER * ppu)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
    return cv2.dilate(found[labels].astype(np.uint8), disc) > 0
