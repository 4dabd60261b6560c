"""The daemon judging contests from the RP2040 firmware, simulated behind a real pty (issue 4):
the whole path pty → pyserial → SerialButtonSource → journal → arbitration → game → display,
and a Pico reboot in the middle of a contest voiding it with a clear message."""

from __future__ import annotations

import time
from pathlib import Path

from hardware.pico_sim import PicoSimulator
from tests.conftest import start_referee

FASTEST = {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc"], "options": {}}


def test_a_whole_contest_runs_from_the_simulated_firmware(tmp_path: Path) -> None:
    with PicoSimulator(seats=2, link=tmp_path / "pico", seed=4) as pico:
        # After the call Marc presses 250 ms later, Anne 40 µs after him: the Pico's clock decides.
        pico.on_each_call({2: 250_000, 1: 250_040})
        ref = start_referee(tmp_path / "data", "--buttons", f"serial:{pico.path}")
        try:
            ref.wait_for(lambda v: v["input"]["ok"], what="the link to come up")
            assert ref.post("/api/games", FASTEST)[0] == 201
            assert ref.post("/api/contest/arm")[0] == 200
            view = ref.wait_for(lambda v: (v["contest"]["last"] or {}).get("verdict"), what="the verdict")
            verdict = view["contest"]["last"]["verdict"]
            assert verdict["ranking"] == [["Marc"], ["Anne"]]
            assert verdict["margins_ns"] == [40_000]
            assert verdict["tie_window_ns"] == 10_000
            assert verdict["clock"].startswith("rp2040:")
            assert view["game"]["summary"]["scores"] == {"Anne": 0, "Marc": 1}
            assert view["input"]["fit_for_close_calls"] is True
            _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
            assert record.count('"type": "press"') == 2 and '"clock": "rp2040:' in record
        finally:
            ref.stop()


def test_the_display_follows_the_link_coming_up_by_itself(tmp_path: Path) -> None:
    """No game event marks the clock being mapped: the daemon publishes it (this once failed
    the reboot test below when /api/view was read in the instant before the Pico answered)."""
    with PicoSimulator(seats=2, link=tmp_path / "pico", seed=6) as pico:
        pico.faults.drop("PONG", count=1_000_000)  # no clock until the wire is mended
        ref = start_referee(tmp_path / "data", "--buttons", f"serial:{pico.path}")
        try:
            waiting = ref.wait_for(lambda v: "pings sent" in v["input"]["detail"], what="the wait")
            assert not waiting["input"]["ok"] and "0 answers" in waiting["input"]["detail"]
            pico.faults.clear()
            view = ref.wait_for(lambda v: v["input"]["ok"], what="the link to come up")
            assert view["input"]["detail"].startswith("link up, boot")
        finally:
            ref.stop()


def test_a_pico_reboot_mid_contest_voids_it_with_a_message(tmp_path: Path) -> None:
    with PicoSimulator(seats=2, link=tmp_path / "pico", seed=5) as pico:
        ref = start_referee(tmp_path / "data", "--buttons", f"serial:{pico.path}", "--call-delay", "1.5", "2")
        try:
            ref.wait_for(lambda v: v["input"]["ok"], what="the link to come up")
            assert ref.post("/api/games", FASTEST)[0] == 201
            assert ref.post("/api/contest/arm")[0] == 200
            time.sleep(0.3)
            pico.reboot()
            view = ref.wait_for(lambda v: (v["contest"]["last"] or {}).get("void"), what="the void")
            assert view["contest"]["running"] is None
            assert (
                "restarted" in view["contest"]["last"]["void"]
                and "Arm again" in view["contest"]["last"]["void"]
            )
            assert view["game"]["summary"]["rounds"] == 0, "a voided contest decides nothing"
            assert "restarted" in view["contest"]["notice"], "the display says why, beside the link"
            _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
            assert '"type": "void"' in record
            # The link comes back on the new boot and the next contest is judged on its clock.
            pico.on_each_call({1: 200_000})
            ref.wait_for(lambda v: v["input"]["ok"], what="the link after the reboot")
            assert ref.post("/api/contest/arm")[0] == 200
            view = ref.wait_for(
                lambda v: (v["contest"]["last"] or {}).get("verdict"), timeout=20, what="a verdict"
            )
            assert view["contest"]["last"]["verdict"]["ranking"][0] == ["Anne"]
            assert view["contest"]["notice"] is None, "the reboot's notice went with the next contest"
        finally:
            ref.stop()
