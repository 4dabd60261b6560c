"""Screenshots of the display at TV and phone sizes, for docs/screenshots/ (Playwright, Chromium).

Starts a real referee on virtual buttons, seats three players by pressing, plays a few rounds
and photographs each screen at 1920×1080 (the TV) and 390×844 (a phone):

    python docs/take_screenshots.py            # writes docs/screenshots/*.png
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, RunningReferee, start_referee  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"tv": (1920, 1080), "phone": (390, 844)}


def tap(ref: RunningReferee, seat: int, hold_s: float = 0.06) -> None:
    ref.post(f"/api/buttons/{seat}", {"pressed": True}, token=False)
    time.sleep(hold_s)
    ref.post(f"/api/buttons/{seat}", {"pressed": False}, token=False)
    time.sleep(0.15)


def contest(ref: RunningReferee, presses: list[tuple[int, float]]) -> None:
    before = (ref.view()["contest"]["last"] or {}).get("verdict")
    ref.post("/api/contest/arm")
    ref.wait_for(lambda v: (v["contest"]["running"] or {}).get("phase") == "called", what="the call")
    start = time.monotonic()
    for seat, at in presses:
        time.sleep(max(0.0, start + at - time.monotonic()))
        ref.post(f"/api/buttons/{seat}", {"pressed": True}, token=False)
    time.sleep(0.05)
    for seat, _ in presses:
        ref.post(f"/api/buttons/{seat}", {"pressed": False}, token=False)
    ref.wait_for(lambda v: v["contest"]["running"] is None
                 and (v["contest"]["last"] or {}).get("verdict") not in (None, before), what="the verdict")  # fmt: skip
    time.sleep(0.2)


def shoot(pages: dict[str, Page], name: str, url: str | None = None, settle_ms: int = 600) -> None:
    for size, page in pages.items():
        if url is not None:
            page.goto(url)
            page.wait_for_load_state("networkidle")
        page.wait_for_timeout(settle_ms)
        page.screenshot(path=str(OUT / f"{name}-{size}.png"))
        print("wrote", OUT / f"{name}-{size}.png")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        ref = start_referee(Path(tmp) / "data", "--sound", "off")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                pages = {
                    size: browser.new_context(
                        viewport={"width": w, "height": h},
                        is_mobile=size == "phone",
                        has_touch=size == "phone",
                    ).new_page()
                    for size, (w, h) in SIZES.items()
                }
                for page in pages.values():
                    page.goto(ref.display_url)
                ref.post("/api/nights", {"name": "Game night at Anne's"})
                ref.post("/api/nights/current/settings", {"close_call_ms": 60})
                ref.post("/api/seating", {"game": "fastest", "players": ["Anne", "Marc", "Carl"],
                                          "options": {"target": 3}})  # fmt: skip
                tap(ref, 3)
                shoot(pages, "seating")
                tap(ref, 1)
                tap(ref, 2)
                ref.post("/api/seating/step", {"do": "sort"})
                ref.post("/api/seating/finish")
                shoot(pages, "new-game")
                time.sleep(0.2)
                for presses in ([(1, 0.25), (3, 0.30), (2, 0.42)], [(3, 0.22), (1, 0.26), (2, 0.5)],
                                [(2, 0.31), (1, 0.33), (3, 0.4)], [(1, 0.24), (2, 0.28), (3, 0.29)]):  # fmt: skip
                    contest(ref, presses)
                shoot(pages, "verdict")
                shoot(pages, "standings", ref.base + "/night")
                for page in pages.values():
                    page.click("#calls button")
                shoot(pages, "close-call", settle_ms=3000)  # the timeline's presses appear one by one
                browser.close()
        finally:
            ref.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
