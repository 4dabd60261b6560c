"""The fiducial markers of the Djambi set, as data: which ArUco code is which piece face.

Every piece carries two stickers: its *living* face (up while the piece lives) and its *dead*
face (up once it is killed and turned over). The dead face names the piece too, so the reader
can tell whose corpse lies where; the Djambi engine itself only needs "a corpse" (``xx``).
The board carries one marker at each of its four corners.

Codes come from OpenCV's 5×5 ArUco dictionary ``DICT_5X5_100``, ids 0–75:

=========  =====================================  ============================================
ids        meaning                                order
=========  =====================================  ============================================
0–35       living face of piece ``p``             ``p = 9 × party + slot``
36–71      dead face of piece ``p``               ``36 + p``
72–75      board corners a1, i1, i9, a9           Red's, Blue's, Yellow's, Green's corner
=========  =====================================  ============================================

Parties in play order: red (0), blue (1), yellow (2), green (3). Slots: chief (0),
assassin (1), reporter (2), diplomat (3), necromobile (4), militants 1–4 (5–8).

Any two of these 76 codes differ in at least 7 of their 25 bits under every rotation
(checked by a test), so a misread of up to 3 bits still decodes to the right code; the reader
corrects fewer than that and rejects the rest, preferring "unknown" to a wrong piece.

>>> piece_of(9).token, marker_face(9 + 36)
('bC', Face(piece=Piece(index=9), dead=True))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

PARTIES = ("red", "blue", "yellow", "green")
PARTY_LETTERS = ("r", "b", "y", "g")
KINDS = ("chief", "assassin", "reporter", "diplomat", "necromobile", "militant")
KIND_LETTERS = ("C", "A", "R", "D", "N", "M")
# Slot → kind index: five single pieces, then four militants.
SLOT_KINDS = (0, 1, 2, 3, 4, 5, 5, 5, 5)
PIECES_PER_PARTY = len(SLOT_KINDS)
PIECE_COUNT = len(PARTIES) * PIECES_PER_PARTY  # 36

LIVING_BASE = 0
DEAD_BASE = PIECE_COUNT  # 36
CORNER_BASE = 2 * PIECE_COUNT  # 72
CORNER_SQUARES = ("a1", "i1", "i9", "a9")
MARKER_COUNT = CORNER_BASE + len(CORNER_SQUARES)  # 76

ARUCO_DICTIONARY = cv2.aruco.DICT_5X5_100
ARUCO_DICTIONARY_NAME = "DICT_5X5_100"
MARKER_BITS = 5  # data cells per side; with the black border the marker is 7 cells wide
# Bits the reader may correct. The codes are ≥ 7 bits apart, so up to 3 would be safe; 2 keeps
# a margin of 5 bits to the nearest other code, so a smudged sticker becomes "unknown" instead.
CORRECTABLE_BITS = 2


@dataclass(frozen=True)
class Piece:
    """One of the 36 pieces, by index ``9 × party + slot``."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < PIECE_COUNT:
            raise ValueError(f"a piece index is 0–{PIECE_COUNT - 1}, not {self.index}")

    @property
    def party(self) -> str:
        return PARTIES[self.index // PIECES_PER_PARTY]

    @property
    def slot(self) -> int:
        return self.index % PIECES_PER_PARTY

    @property
    def kind(self) -> str:
        return KINDS[SLOT_KINDS[self.slot]]

    @property
    def token(self) -> str:
        """The engine's two-letter token: party lowercase + kind uppercase, e.g. ``rC``."""
        return PARTY_LETTERS[self.index // PIECES_PER_PARTY] + KIND_LETTERS[SLOT_KINDS[self.slot]]

    @property
    def label(self) -> str:
        """For people: ``red chief``, ``blue militant 3``."""
        if self.kind == "militant":
            return f"{self.party} militant {self.slot - 4}"
        return f"{self.party} {self.kind}"

    @property
    def living_id(self) -> int:
        return LIVING_BASE + self.index

    @property
    def dead_id(self) -> int:
        return DEAD_BASE + self.index


@dataclass(frozen=True)
class Face:
    """A piece face lying up: the piece and whether it is the dead (turned-over) face."""

    piece: Piece
    dead: bool

    @property
    def marker_id(self) -> int:
        return self.piece.dead_id if self.dead else self.piece.living_id

    @property
    def token(self) -> str:
        """``xx`` for a corpse, else the piece's token."""
        return "xx" if self.dead else self.piece.token


def piece_of(token_or_index: str | int, militant: int = 1) -> Piece:
    """The piece for an index, or for a token like ``gM`` (militants numbered 1–4).

    >>> piece_of("gM", militant=4).label
    'green militant 4'
    """
    if isinstance(token_or_index, int):
        return Piece(token_or_index)
    if len(token_or_index) != 2:
        raise ValueError(f"a piece token has two letters, like rC; got {token_or_index!r}")
    p, k = token_or_index[0], token_or_index[1]
    if p not in PARTY_LETTERS or k not in KIND_LETTERS:
        raise ValueError(
            f"unknown piece {token_or_index!r}: party one of {''.join(PARTY_LETTERS)}, "
            f"kind one of {''.join(KIND_LETTERS)}"
        )
    party, kind = PARTY_LETTERS.index(p), KIND_LETTERS.index(k)
    if kind == 5:
        if not 1 <= militant <= 4:
            raise ValueError("militants are numbered 1–4")
        slot = 4 + militant
    else:
        slot = kind
    return Piece(party * PIECES_PER_PARTY + slot)


@cache
def marker_face(marker_id: int) -> Face | None:
    """The piece face a marker id stands for; None for corner markers and foreign ids
    (remembered: a frame asks about each of its pieces several times, and a face is frozen)."""
    if LIVING_BASE <= marker_id < DEAD_BASE:
        return Face(Piece(marker_id - LIVING_BASE), dead=False)
    if DEAD_BASE <= marker_id < CORNER_BASE:
        return Face(Piece(marker_id - DEAD_BASE), dead=True)
    return None


def corner_square(marker_id: int) -> str | None:
    """The board corner (a1, i1, i9, a9) a corner marker id marks, else None."""
    if CORNER_BASE <= marker_id < MARKER_COUNT:
        return CORNER_SQUARES[marker_id - CORNER_BASE]
    return None


def corner_id(square: str) -> int:
    return CORNER_BASE + CORNER_SQUARES.index(square)


@cache
def dictionary() -> cv2.aruco.Dictionary:
    """Our 76 codes only, so a stray pattern can never decode to an id the set does not use."""
    full = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    return cv2.aruco.Dictionary(full.bytesList[:MARKER_COUNT].copy(), MARKER_BITS, CORRECTABLE_BITS)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a grey image, ``side_px`` wide (black border included, no quiet zone)."""
    if not 0 <= marker_id < MARKER_COUNT:
        raise ValueError(f"marker ids are 0–{MARKER_COUNT - 1}, not {marker_id}")
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, side_px, borderBits=1)


def marker_bits(marker_id: int) -> np.ndarray:
    """The 5×5 data bits of a marker (1 = white), as printed, unrotated."""
    d = dictionary()
    # The function is exported at module level by the bindings but missing from their stubs.
    get_bits = getattr(cv2.aruco, "Dictionary_getBitsFromByteList")  # noqa: B009
    return np.asarray(get_bits(d.bytesList[marker_id : marker_id + 1], MARKER_BITS))
