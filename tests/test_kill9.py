"""Power loss: `kill -9` at random moments of a scripted night, 20 times. After each restart the
state equals the replay of the journal, and every acknowledged input is in it."""

from __future__ import annotations

import http.client
import json
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.conftest import RunningReferee, start_referee

FASTEST = {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc", "Herman"], "options": {}}


def scripted_night(ref: RunningReferee, rng: random.Random, acked: list[str], stop: threading.Event) -> None:
    """Console inputs and contests until the daemon dies; records what was acknowledged."""
    try:
        while not stop.is_set():
            note = f"n{rng.randrange(10**9)}"
            status, _ = ref.post("/api/games/current/events", {"type": "note", "id": note})
            if status == 200:
                acked.append(note)
            if ref.post("/api/contest/arm")[0] == 200:
                time.sleep(rng.uniform(0.2, 0.4))  # the call comes 0.05–0.15 s after arming
                seats = rng.sample([1, 2, 3], 3)  # everyone presses: the contest closes at once
                for seat in seats:
                    ref.post(f"/api/buttons/{seat}", {"pressed": True}, token=False)
                time.sleep(0.03)
                for seat in seats:
                    ref.post(f"/api/buttons/{seat}", {"pressed": False}, token=False)
            if rng.random() < 0.2:
                ref.post("/api/games/current/events", {"type": "undo"})
    except (OSError, http.client.HTTPException):
        return  # the daemon was killed mid-request (refused, reset, or a reply cut short)


def test_kill_minus_nine_loses_no_acknowledged_input(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    data = tmp_path / "data"
    acked: list[str] = []
    for round_no in range(20):
        ref = start_referee(data)
        try:
            if round_no == 0:
                assert ref.post("/api/games", FASTEST)[0] == 201
            # After a restart the state is the replay of the journal …
            _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
            record_file = tmp_path / f"record-{round_no}.jsonl"
            record_file.write_text(record)
            replayed = subprocess.run([sys.executable, "-m", "referee", "replay", str(record_file)],
                                      capture_output=True, text=True, timeout=60)  # fmt: skip
            assert replayed.returncode == 0, replayed.stderr
            live = ref.view()["game"]["summary"]
            assert json.loads(replayed.stdout)["scores"] == live["scores"]
            assert json.loads(replayed.stdout)["verdicts"][-20:] == live["verdicts"]
            assert live["verdicts_total"] == len(json.loads(replayed.stdout)["verdicts"])
            # … and holds every input that was acknowledged before the kill.
            notes = {json.loads(line).get("id") for line in record.splitlines()[1:]}
            missing = [n for n in acked if n not in notes]
            assert not missing, f"acknowledged but lost after kill {round_no}: {missing}"

            stop = threading.Event()
            worker = threading.Thread(target=scripted_night, args=(ref, rng, acked, stop))
            acked_before = len(acked)
            kill_at = time.monotonic() + rng.uniform(0.1, 1.2)
            worker.start()
            # A kill before anything of this round was acknowledged tests nothing: on a busy
            # machine the first answer can take longer than the random moment of the kill.
            deadline = time.monotonic() + 15
            while len(acked) == acked_before and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(acked) > acked_before, f"round {round_no}: the daemon acknowledged nothing in 15 s"
            time.sleep(max(0.0, kill_at - time.monotonic()))
            ref.proc.send_signal(signal.SIGKILL)
            ref.proc.wait(10)
            stop.set()
            worker.join(20)
            assert not worker.is_alive()
        finally:
            ref.stop()
    ref = start_referee(data)
    try:
        _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
        seen_verdicts = record.count('"type": "contest"')
    finally:
        ref.stop()
    assert len(acked) >= 20, "every round should have acknowledged inputs"
    assert seen_verdicts > 0, "some contests should have been decided"
