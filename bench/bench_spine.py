"""Spine benchmark: edge → verdict on a display client, daemon memory and start-up, journal speed.

    .venv/bin/python bench/bench_spine.py [--contests 1000] [--runs 5]

Prints a Markdown table (paste it into docs/performance.md). Every figure is the median of
several runs or a percentile over many samples; each has a baseline measured in the same run:

- edge → verdict (mock pin driven over HTTP → debounce → journal → arbitration → engine → SSE
  message on a connected display) vs a console note (HTTP → journal → SSE), the web path alone;
- cold start to ready vs a bare `python -c pass`;
- journal appends per second with fsync (synchronous=FULL) vs without (synchronous=OFF);
- replay of a 10,000-event night vs parsing its JSON alone.
"""

from __future__ import annotations

import argparse
import http.client
import json
import queue
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.fold import fold_events  # noqa: E402
from referee.games.base import GameHeader  # noqa: E402
from referee.journal import Journal  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def start_daemon(data: Path) -> tuple[subprocess.Popen[str], int, str, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--data", str(data), "--host", "127.0.0.1", "--port", "0",
         "--buttons", "mock", "--call-delay", "0", "0", "--min-reaction-ms", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    port, token = 0, ""
    while not token:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the daemon did not start")
        m = re.search(r"console: http://[^:]+:(\d+)/console\?token=(\S+)", line)
        if m:
            port, token = int(m.group(1)), m.group(2)
    return proc, port, token, time.perf_counter() - t0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Client:
    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def post(self, path: str, body: dict, token: bool = True) -> dict:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Referee-Token"] = self.token
        self.conn.request("POST", path, json.dumps(body), headers)
        res = self.conn.getresponse()
        data = json.loads(res.read() or b"{}")
        if res.status >= 300:
            raise RuntimeError(f"{path}: {res.status} {data}")
        return data


class Display(threading.Thread):
    """A display client on /api/stream; every message is queued with its arrival time."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.messages: queue.Queue[tuple[float, dict]] = queue.Queue()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        conn.request("GET", "/api/stream")
        res = conn.getresponse()
        while True:
            line = res.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                self.messages.put((time.perf_counter(), json.loads(line[6:])))

    def wait(self, predicate, timeout: float = 10.0) -> tuple[float, dict]:
        deadline = time.perf_counter() + timeout
        while True:
            t, view = self.messages.get(timeout=max(0.01, deadline - time.perf_counter()))
            if predicate(view):
                return t, view


def contest_latency(contests: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port, token, _ = start_daemon(Path(tmp) / "data")
        try:
            rss_start = rss_mb(proc.pid)
            client = Client(port, token)
            client.post("/api/games", {"game": "fastest", "players": ["Anne"]})
            display = Display(port)
            display.start()
            display.wait(lambda v: v.get("game") is not None)
            edge_ms: list[float] = []
            note_ms: list[float] = []
            for i in range(contests):
                client.post("/api/contest/arm", {})
                display.wait(lambda v: (v["contest"]["running"] or {}).get("phase") == "called")
                t0 = time.perf_counter()
                client.post("/api/buttons/1", {"pressed": True}, token=False)
                t1, _ = display.wait(lambda v, n=i + 1: v["game"]["summary"]["rounds"] == n)
                edge_ms.append((t1 - t0) * 1000)
                time.sleep(0.002)  # hold the button past the glitch time, then let go
                client.post("/api/buttons/1", {"pressed": False}, token=False)
                t0 = time.perf_counter()
                client.post("/api/games/current/events", {"type": "note", "i": i})
                t1, _ = display.wait(lambda v, n=i: v["game"]["summary"]["events"] > 0)
                note_ms.append((t1 - t0) * 1000)
                time.sleep(0.035)  # the seat stays locked until released and quiet (30 ms)
            rss_end = rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    return {
        "edge_p50": statistics.median(edge_ms),
        "edge_p99": percentile(edge_ms, 99),
        "note_p50": statistics.median(note_ms),
        "note_p99": percentile(note_ms, 99),
        "rss_start": rss_start,
        "rss_end": rss_end,
    }


def cold_start(runs: int) -> dict[str, float]:
    starts, bare = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            proc, _, _, elapsed = start_daemon(Path(tmp) / "data")
            proc.terminate()
            proc.wait(10)
            starts.append(elapsed)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - t0)
    return {"start": statistics.median(starts), "bare": statistics.median(bare)}


def journal_speed(runs: int, n: int = 500) -> dict[str, float]:
    synced, unsynced = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            journal = Journal(Path(tmp) / "j.sqlite3")
            gid = journal.create_game({"game": "fastest", "players": ["Anne"]})
            t0 = time.perf_counter()
            for i in range(n):
                journal.append(gid, {"type": "note", "i": i})
            synced.append(n / (time.perf_counter() - t0))
            journal._db.execute("PRAGMA synchronous=OFF")
            t0 = time.perf_counter()
            for i in range(n):
                journal.append(gid, {"type": "note", "i": i})
            unsynced.append(n / (time.perf_counter() - t0))
            journal.close()
    return {"synced": statistics.median(synced), "unsynced": statistics.median(unsynced)}


def replay_speed(runs: int, n: int = 10_000) -> dict[str, float]:
    header = GameHeader("fastest", "standard", ("Anne", "Marc", "Herman", "Carl"))
    rows = []
    for i in range(n):
        if i % 10 == 9:
            rows.append(json.dumps({"type": "undo"}))
        else:
            a, b = header.players[i % 4], header.players[(i + 1) % 4]
            rows.append(json.dumps({"type": "contest", "ranking": [[a], [b]], "margins_ns": [1000 + i],
                                    "tie_window_ns": 100_000, "reaction_ns": {a: 2e8, b: 3e8}}))  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "night.sqlite3"
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE e(seq INTEGER PRIMARY KEY, payload TEXT)")
        db.executemany("INSERT INTO e(payload) VALUES (?)", [(r,) for r in rows])
        db.commit()
        full, parse = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            events = [json.loads(r) for (r,) in db.execute("SELECT payload FROM e ORDER BY seq")]
            parse.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            events = [json.loads(r) for (r,) in db.execute("SELECT payload FROM e ORDER BY seq")]
            fold_events(header, events)
            full.append(time.perf_counter() - t0)
    return {"replay": statistics.median(full), "parse": statistics.median(parse), "events": n}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--contests", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    lat = contest_latency(args.contests)
    start = cold_start(args.runs)
    journal = journal_speed(args.runs)
    replay = replay_speed(args.runs)
    print(f"Command: python bench/bench_spine.py --contests {args.contests} --runs {args.runs}\n")
    print("| measure | result | baseline (same run) | ratio | goal |")
    print("|---|---|---|---|---|")
    print(f"| mock pin edge → verdict on a display client, p50 ({args.contests} contests) | "
          f"{lat['edge_p50']:.1f} ms | console note → display, p50: {lat['note_p50']:.1f} ms | "
          f"{lat['edge_p50'] / lat['note_p50']:.2f}× | |")  # fmt: skip
    print(f"| mock pin edge → verdict on a display client, p99 | {lat['edge_p99']:.1f} ms | "
          f"console note → display, p99: {lat['note_p99']:.1f} ms | {lat['edge_p99'] / lat['note_p99']:.2f}× | ≤ 50 ms |")  # fmt: skip
    print(f"| daemon resident memory after start | {lat['rss_start']:.0f} MB | | | ≤ 150 MB |")
    print(f"| daemon resident memory after {args.contests} contests | {lat['rss_end']:.0f} MB | "
          f"after start: {lat['rss_start']:.0f} MB | {lat['rss_end'] / lat['rss_start']:.2f}× | ≤ 150 MB |")  # fmt: skip
    print(f"| cold start to ready (median of {args.runs}) | {start['start']:.2f} s | bare `python -c pass`: "
          f"{start['bare']:.3f} s | {start['start'] / start['bare']:.0f}× | ≤ 3 s |")  # fmt: skip
    print(f"| journal appends per second, fsync'd (synchronous=FULL) | {journal['synced']:.0f}/s | "
          f"without fsync: {journal['unsynced']:.0f}/s | {journal['synced'] / journal['unsynced']:.2f}× | |")  # fmt: skip
    print(f"| replay of a {replay['events']:,}-event night (read + fold) | {replay['replay'] * 1000:.0f} ms | "
          f"read + JSON parse only: {replay['parse'] * 1000:.0f} ms | {replay['replay'] / replay['parse']:.1f}× | |")  # fmt: skip


if __name__ == "__main__":
    main()
