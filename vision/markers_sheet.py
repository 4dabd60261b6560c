"""The printable sticker sheet: every piece face and the four board corners, with a legend.

Pages are A4 at ``dpi``. For each piece diameter asked for, all 72 piece stickers (36 living
faces, 36 dead faces) are drawn at that diameter: a white disc with the marker in its middle
(``piece_marker_ratio`` of the diameter wide), a rim in the party's colour (grey for a dead
face), the piece's token under the marker and its name above, and a dashed cutting circle.
The corner page draws the four board-corner stickers for a board whose squares are
``square_mm`` wide (marker ``corner_side`` squares wide plus one cell of white border: cut on
the dashed square, and the inner corner lands where `BoardGeometry` expects it).

>>> pages = sheet_pages(diameters_mm=(25,), dpi=60)
>>> len(pages) >= 2, pages[0].size
(True, (496, 702))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.board_geometry import DEFAULT_GEOMETRY, BoardGeometry
from vision.markers import (
    ARUCO_DICTIONARY_NAME,
    CORNER_SQUARES,
    KIND_LETTERS,
    KINDS,
    PARTIES,
    PARTY_LETTERS,
    PIECE_COUNT,
    Face,
    Piece,
    corner_id,
    marker_image,
)

A4_MM = (210.0, 297.0)
MARGIN_MM = 10.0
GAP_MM = 4.0
COMMON_DIAMETERS_MM = (20.0, 25.0, 30.0, 35.0)
DEFAULT_SQUARE_MM = 40.0
PARTY_RGB = {"red": (200, 40, 40), "blue": (30, 90, 190), "yellow": (230, 190, 30), "green": (40, 150, 60)}
CORNER_NAMES = {"a1": "Red", "i1": "Blue", "i9": "Yellow", "a9": "Green"}


@cache
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(path, px)
        except OSError:
            continue
    return ImageFont.load_default(size=px)


class _Pages:
    """Flows boxes onto A4 pages, row by row."""

    def __init__(self, dpi: int) -> None:
        self.dpi = dpi
        self.pages: list[Image.Image] = []
        self.y = 0.0
        self.x = 0.0
        self.row_h = 0.0
        self.new_page()

    def px(self, mm: float) -> int:
        return round(mm * self.dpi / 25.4)

    def new_page(self) -> None:
        w, h = (self.px(v) for v in A4_MM)
        self.pages.append(Image.new("RGB", (w, h), "white"))
        self.x = self.y = MARGIN_MM
        self.row_h = 0.0

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        return ImageDraw.Draw(self.pages[-1])

    def newline(self) -> None:
        self.x = MARGIN_MM
        self.y += self.row_h + GAP_MM
        self.row_h = 0.0

    def place(self, w_mm: float, h_mm: float) -> tuple[float, float]:
        """Top-left (mm) of a free w × h box, starting a new row or page as needed."""
        if self.x + w_mm > A4_MM[0] - MARGIN_MM and self.x > MARGIN_MM:
            self.newline()
        if self.y + h_mm > A4_MM[1] - MARGIN_MM:
            self.new_page()
        pos = (self.x, self.y)
        self.x += w_mm + GAP_MM
        self.row_h = max(self.row_h, h_mm)
        return pos

    def text(self, lines: Sequence[str], size_mm: float = 4.0) -> None:
        if self.x > MARGIN_MM:
            self.newline()
        for line in lines:
            x, y = self.place(A4_MM[0] - 2 * MARGIN_MM, size_mm * 1.3)
            self.draw.text((self.px(x), self.px(y)), line, fill="black", font=_font(self.px(size_mm)))
            self.newline()
            self.y -= GAP_MM - 0.5


def _paste_marker(page: Image.Image, marker_id: int, cx: int, cy: int, side: int) -> None:
    img = Image.fromarray(marker_image(marker_id, side))
    page.paste(img, (cx - side // 2, cy - side // 2))


def _dashed_circle(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, width: int) -> None:
    for a in range(0, 360, 12):
        draw.arc((cx - r, cy - r, cx + r, cy + r), a, a + 7, fill=(120, 120, 120), width=width)


def _sticker(pages: _Pages, face: Face, d_mm: float, ratio: float) -> None:
    x, y = pages.place(d_mm, d_mm)
    draw = pages.draw
    cx, cy, r = pages.px(x + d_mm / 2), pages.px(y + d_mm / 2), pages.px(d_mm / 2)
    rim = (150, 150, 150) if face.dead else PARTY_RGB[face.piece.party]
    # The rim stays at the edge: anything dark near the marker's corners would spoil its outline.
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=rim)
    inner = round(r * 0.94)
    draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill="white")
    _dashed_circle(draw, cx, cy, r + max(1, pages.px(0.4)), max(1, pages.px(0.15)))
    side = pages.px(ratio * d_mm)
    _paste_marker(pages.pages[-1], face.marker_id, cx, cy, side)
    token = ("\u2020 " if face.dead else "") + face.piece.token
    f = _font(max(6, pages.px(d_mm * 0.1)))
    draw.text((cx, cy + side // 2 + pages.px(d_mm * 0.09)), token, fill="black", font=f, anchor="mm")
    name = face.piece.label.split(" ", 1)[1]  # "militant 3": the party shows in the rim and token
    name = "dead " + name if face.dead else name
    small = _font(max(5, pages.px(d_mm * 0.065)))
    draw.text((cx, cy - side // 2 - pages.px(d_mm * 0.08)), name, fill="black", font=small, anchor="mm")


def _corner(pages: _Pages, square: str, square_mm: float, geometry: BoardGeometry) -> None:
    side_mm = geometry.corner_side * square_mm
    cell = side_mm / 7
    cut = side_mm + 2 * cell
    x, y = pages.place(cut + 2, cut + 14)
    draw = pages.draw
    x0, y0 = pages.px(x + 1), pages.px(y + 1)
    c = pages.px(cut)
    for k in range(0, c, max(2, pages.px(2))):  # dashed cutting square
        seg = min(k + pages.px(1), c)
        for a, b in (((x0 + k, y0), (x0 + seg, y0)), ((x0 + k, y0 + c), (x0 + seg, y0 + c))):
            draw.line((a, b), fill=(120, 120, 120))
        for a, b in (((x0, y0 + k), (x0, y0 + seg)), ((x0 + c, y0 + k), (x0 + c, y0 + seg))):
            draw.line((a, b), fill=(120, 120, 120))
    _paste_marker(pages.pages[-1], corner_id(square), x0 + c // 2, y0 + c // 2, pages.px(side_mm))
    f = _font(pages.px(3.2))
    draw.text((x0, y0 + c + pages.px(2)), f"corner {square} ({CORNER_NAMES[square]})", fill="black", font=f)
    draw.text((x0, y0 + c + pages.px(6.5)), "top: away from Red", fill="black", font=f)


def sheet_pages(
    diameters_mm: Sequence[float] = COMMON_DIAMETERS_MM,
    square_mm: float = DEFAULT_SQUARE_MM,
    dpi: int = 300,
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
) -> list[Image.Image]:
    """All pages of the sheet as RGB images."""
    if not diameters_mm:
        raise ValueError("give at least one piece diameter")
    for d in diameters_mm:
        if not 8 <= d <= 80:
            raise ValueError(f"a piece diameter of {d} mm is not plausible; use 8–80 mm")
    if not 15 <= square_mm <= 120:
        raise ValueError(f"a board square of {square_mm} mm is not plausible; use 15–120 mm")
    if not 50 <= dpi <= 1200:
        raise ValueError("print resolution must be 50–1200 dpi")
    pages = _Pages(dpi)
    parties = ", ".join(f"{p} = {letter}" for p, letter in zip(PARTIES, PARTY_LETTERS, strict=True))
    kinds = ", ".join(f"{k} = {letter}" for k, letter in zip(KINDS, KIND_LETTERS, strict=True))
    pages.text(
        [
            "Djambi referee: piece and board markers",
            f"Parties: {parties}.",
            f"Kinds: {kinds}.",
            "Each piece gets two stickers: its living face (coloured rim) on top, its dead face",
            "(grey rim, \u2020) underneath, so that turning a killed piece over shows the dead face.",
            "Militants are numbered 1-4 per party. Print at 100 % (no 'fit to page'): the bar below",
            f"must measure 50 mm. Markers: ArUco {ARUCO_DICTIONARY_NAME}, ids 0-35 living (9 x party +",
            "slot), 36-71 dead, 72-75 corners a1, i1, i9, a9. Corners: cut on the dashed square and",
            "stick each diagonally outside its grid corner, inner corner touching the grid corner,",
            "text upright as read from Red's seat (Red's corner a1 bottom left).",
        ],
        size_mm=3.6,
    )
    x, y = pages.place(50, 4)
    pages.draw.rectangle((pages.px(x), pages.px(y), pages.px(x + 50), pages.px(y + 2)), fill="black")
    pages.newline()
    pages.text(
        [
            f"Board corners, for squares of {square_mm:g} mm (markers {geometry.corner_side * square_mm:.1f} mm)"
        ]
    )
    for sq in CORNER_SQUARES:
        _corner(pages, sq, square_mm, geometry)
    for d in diameters_mm:
        pages.new_page()
        pages.text([f"Pieces of {d:g} mm diameter: living faces, then dead faces"])
        for dead in (False, True):
            for i in range(PIECE_COUNT):
                _sticker(pages, Face(Piece(i), dead), d, geometry.piece_marker_ratio)
            pages.newline()
    return pages.pages


def write_sheet(path: Path, pages: Sequence[Image.Image], dpi: int) -> None:
    """PDF (one page per page) or PNG (pages stacked top to bottom), by the file's suffix."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        pages[0].save(path, "PDF", resolution=float(dpi), save_all=True, append_images=list(pages[1:]))
    elif suffix == ".png":
        w = pages[0].width
        gap = max(2, dpi // 25)
        tall = Image.new("RGB", (w, sum(p.height for p in pages) + gap * (len(pages) - 1)), (160, 160, 160))
        y = 0
        for p in pages:
            tall.paste(p, (0, y))
            y += p.height + gap
        tall.save(path, "PNG", dpi=(dpi, dpi))
    else:
        raise ValueError(f"write a .pdf or a .png, not {path.suffix or 'a file without suffix'}")


def as_array(page: Image.Image) -> np.ndarray:
    """A page as an OpenCV BGR array (for checking that its markers read back)."""
    return np.asarray(page.convert("RGB"))[:, :, ::-1].copy()
