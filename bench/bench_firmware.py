"""RP2040 path: ordering accuracy vs separation, bounce storms, edge → verdict through a pty.

    python bench/bench_firmware.py              # the figures of docs/performance.md
    python bench/bench_firmware.py --quick      # a smoke run

1. **Ordering** over ≥ 10⁶ simulated two-seat contests: true press times (ns) → the sampling
   model (every input read together every P ns, stamped in whole µs) → the firmware's own
   edge detector → stamps → the verdict rule of referee.arbitration (tie when the gap is
   under the window). 10⁴ of them also go the whole way (frames, host parser, ``arbitrate``)
   to check that the shortcut gives the same verdicts. Baselines in the same run, modelled:
   a loop reading one pin at a time (8 µs per read, each seat stamped at its own read) and
   MicroPython's ``Pin.irq(hard=True)`` (20–25 µs late, 1 % up to 100 µs; micropython#6957).
2. **Bounce storms**: all 8 seats bounce at once (100 transitions each within 5 ms), through
   the sampling model and the firmware; every seat's first edge must come out as its stamp.
   The snapshots a storm produces are compared with the board's ring (1024 slots).
3. **Edge → verdict** at the host: the simulator in its own process behind a real pty,
   ``SerialButtonSource`` over pyserial, ``arbitrate`` when the second press arrives; the
   time from the second seat's physical press to the verdict, and from the Pico writing
   the frame to the host having it. Baseline: the ping round trip of the same link.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware import config
from firmware.core import Firmware
from firmware.edges import EdgeDetector
from hardware.pico_sim import PicoSimulator, SamplerModel, bounce_changes
from hardware.serial_frames import Frame, FrameParser
from referee.arbitration import Contest, Press, arbitrate

SEPARATIONS_NS = (0, 250, 500, 1_000, 1_500, 2_000, 3_000, 5_000, 10_000, 12_000, 20_000, 50_000)
WINDOW_NS = 10_000
CONTEST_SPACING_NS = 400_000_000  # press, hold 200 ms, release: one contest every 0.4 s


# -- 1. ordering --------------------------------------------------------------------------------


def contests(n: int, sep_ns: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """(true time of the first press, first seat, second seat) for n contests `sep_ns` apart."""
    out = []
    for k in range(n):
        first = rng.choice((1, 2))
        out.append((1_000_000_000 + k * CONTEST_SPACING_NS + rng.randrange(1_000_000), first, 3 - first))
    return out


def stamps_firmware(plan: list[tuple[int, int, int]], sep_ns: int, period_ns: int, phase_ns: int):
    """Stamps (µs) of each contest's first and second press through sampling + edge detector."""
    sampler = SamplerModel(period_ns, phase_ns)
    detector = EdgeDetector(3, config.PRESS_CONFIRM_US, config.RELEASE_CONFIRM_US)
    edges: list[tuple[int, int, int]] = []
    out = []
    for t0, a, b in plan:
        sampler.change(t0, a, 1)
        sampler.change(t0 + sep_ns, b, 1)
        sampler.change(t0 + 200_000_000, a, 0)
        sampler.change(t0 + 200_000_000, b, 0)
        for t_us, mask in sampler.snapshots_until(t0 + CONTEST_SPACING_NS - 1_000):
            detector.feed(t_us, mask, edges)
        detector.advance((t0 + CONTEST_SPACING_NS) // 1000 - 1, edges)
        press = {seat: t for seat, level, t in edges if level}
        out.append((press[a], press[b]))
        edges.clear()
    return out


def stamps_scan(plan, sep_ns: int, read_ns: int, rng: random.Random):
    """Baseline: one pin per read, `read_ns` per read, seats 1..8 in turn; stamp = its read."""
    scan = 8 * read_ns
    phase = rng.randrange(scan)
    out = []
    for t0, a, b in plan:
        out.append(
            tuple(
                _next_read(t, phase + (s - 1) * read_ns, scan) // 1000 for t, s in ((t0, a), (t0 + sep_ns, b))
            )
        )
    return out


def stamps_irq(plan, sep_ns: int, rng: random.Random):
    """Baseline: a hard IRQ per pin, handled 20–25 µs late, 1 % of them up to 100 µs."""

    def late() -> int:
        return rng.randrange(25_000, 100_000) if rng.random() < 0.01 else rng.randrange(20_000, 25_000)

    return [((t0 + late()) // 1000, (t0 + sep_ns + late()) // 1000) for t0, _, _ in plan]


def _next_read(t: int, phase: int, period: int) -> int:
    return phase + -((phase - t) // period) * period


def tally(stamps: list[tuple[int, int]], window_ns: int) -> tuple[int, int, int]:
    """(right, tied, wrong) with the verdict rule of arbitration: tied when the gap < window."""
    right = tied = wrong = 0
    for first, second in stamps:
        gap = (second - first) * 1000
        if gap == 0 or abs(gap) < window_ns:
            tied += 1
        elif gap > 0:
            right += 1
        else:
            wrong += 1
    return right, tied, wrong


def full_path_agrees(n: int, period_ns: int, rng: random.Random) -> int:
    """n contests through Firmware → frames → FrameParser → arbitrate; returns disagreements."""
    disagreements = 0
    for sep in SEPARATIONS_NS:
        plan = contests(n // len(SEPARATIONS_NS), sep, rng)
        lines: list[bytes] = []
        fw = Firmware(0xBE7C4, now_us=lambda: 0, write=lines.append, seats=2)
        phase = rng.randrange(period_ns)
        sampler = SamplerModel(period_ns, phase)
        parser = FrameParser()
        shortcut = stamps_firmware(plan, sep, period_ns, phase)
        for (t0, a, b), short in zip(plan, shortcut, strict=True):
            sampler.change(t0, a, 1)
            sampler.change(t0 + sep, b, 1)
            sampler.change(t0 + 200_000_000, a, 0)
            sampler.change(t0 + 200_000_000, b, 0)
            for t_us, mask in sampler.snapshots_until(t0 + CONTEST_SPACING_NS - 1_000):
                fw.feed_sample(t_us, mask)
            fw.advance((t0 + CONTEST_SPACING_NS) // 1000 - 1)
            frames = [f for f in parser.feed(b"".join(lines)) if isinstance(f, Frame) and f.kind == "E"]
            lines.clear()
            presses = [Press(f"s{f.args[0]}", int(f.args[2]) * 1000) for f in frames if f.args[1] == "1"]
            verdict = arbitrate(
                Contest(t0 // 1000 * 1000 - 500_000_000, ("s1", "s2"), WINDOW_NS, min_reaction_ns=0), presses
            )
            stamp = {int(f.args[0]): int(f.args[2]) for f in frames if f.args[1] == "1"}
            disagreements += (stamp[a], stamp[b]) != short
            expected = tally([short], WINDOW_NS)
            got = (
                verdict.ranking == ((f"s{a}",), (f"s{b}",)),
                len(verdict.ranking) == 1,
                verdict.ranking == ((f"s{b}",), (f"s{a}",)),
            )
            disagreements += tuple(map(int, got)) != expected
    return disagreements


def bench_ordering(per_sep: int, seed: int) -> None:
    rng = random.Random(seed)
    total = per_sep * len(SEPARATIONS_NS)
    print(f"\n## Ordering accuracy: {total:,} two-seat contests ({per_sep:,} per separation)\n")
    print("Cells: right / tied / wrong order, % of contests. 'exact' = raw stamps (tie only when equal);")
    print(f"'window' = the verdict with the {WINDOW_NS // 1000} µs default tie window.\n")
    periods = (250, 1_000)
    header = ["separation"]
    header += [f"P={p} ns exact" for p in periods] + [f"P={periods[0]} ns window"]
    header += ["scan 8 µs/pin exact", "IRQ exact"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    started = time.perf_counter()
    worst_wrong = 0
    for sep in SEPARATIONS_NS:
        plan = contests(per_sep, sep, rng)
        cells = []
        windowed = (0, 0, 0)
        for period in periods:
            stamps = stamps_firmware(plan, sep, period, rng.randrange(period))
            right, tied, wrong = tally(stamps, 0)
            worst_wrong = max(worst_wrong, wrong)
            cells.append(_pct(right, tied, wrong, per_sep))
            if period == periods[0]:
                windowed = tally(stamps, WINDOW_NS)
        cells.append(_pct(*windowed, per_sep))
        cells.append(_pct(*tally(stamps_scan(plan, sep, 8_000, rng), 0), per_sep))
        cells.append(_pct(*tally(stamps_irq(plan, sep, rng), 0), per_sep))
        print(f"| {sep / 1000:g} µs | " + " | ".join(cells) + " |")
    elapsed = time.perf_counter() - started
    print(f"\nfirmware path: {worst_wrong} wrong orders in all; {elapsed:.1f} s for the table")
    n_full = 10_000
    bad = full_path_agrees(n_full, 250, random.Random(seed + 1))
    print(
        f"full path (Firmware → frames → FrameParser → arbitrate) on {n_full:,} contests: "
        f"{bad} stamps or verdicts differ from the shortcut's"
    )


def _pct(right: int, tied: int, wrong: int, n: int) -> str:
    return f"{100 * right / n:.2f} / {100 * tied / n:.2f} / {100 * wrong / n:.2f}"


# -- 2. bounce storms ---------------------------------------------------------------------------


def bench_storms(storms: int, seed: int) -> None:
    rng = random.Random(seed)
    lost = wrong = unseen = unseen_late_us = 0
    max_snapshots = 0
    feed_times: list[float] = []
    for k in range(storms):
        lines: list[bytes] = []
        fw = Firmware(k + 1, now_us=lambda: 0, write=lines.append, seats=8)
        phase = rng.randrange(250)
        sampler = SamplerModel(250, phase)
        no_latch = SamplerModel(250, phase, latch_presses=False)  # baseline: GPIO_IN reads only
        base = 1_000_000_000
        starts = {seat: base + rng.randrange(0, 100_000) for seat in range(1, 9)}
        for seat, t0 in starts.items():
            for t, level in bounce_changes(t0, 1, 100, 5_000_000, rng):
                sampler.change(t, seat, level)
                no_latch.change(t, seat, level)
        snaps = sampler.snapshots_until(base + 10_000_000)
        plain = no_latch.snapshots_until(base + 10_000_000)
        for s, t0 in starts.items():
            first = next(t for t, mask in plain if mask >> s & 1)
            if first != no_latch.read_time(t0) // 1000:
                unseen += 1
                unseen_late_us = max(unseen_late_us, first - t0 // 1000)
        max_snapshots = max(max_snapshots, len(snaps))
        t = time.perf_counter()
        for t_us, mask in snaps:
            fw.feed_sample(t_us, mask)
        fw.advance((base + 10_000_000) // 1000 + 10_000)
        feed_times.append((time.perf_counter() - t) / len(snaps))
        frames = [f for f in FrameParser().feed(b"".join(lines)) if isinstance(f, Frame)]
        got = {int(f.args[0]): int(f.args[2]) for f in frames if f.kind == "E" and f.args[1] == "1"}
        lost += 8 - len(got)
        # The right stamp: the read right after the seat's first contact, however short.
        wrong += sum(got.get(s) != sampler.read_time(t0) // 1000 for s, t0 in starts.items())
    per_snapshot_us = statistics.median(feed_times) * 1e6
    print(f"\n## Bounce storms: {storms:,} storms, 8 seats × 100 transitions within 5 ms each\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| first edges lost | {lost} of {8 * storms:,} |")
    print(f"| stamps not at the read right after the first contact | {wrong} |")
    print(
        "| baseline, GPIO_IN reads without the edge latches: first contacts shorter than a read, "
        f"stamped at a later contact | {unseen} (late by up to {unseen_late_us} µs) |"
    )
    print(f"| snapshots per storm, most (ring: {config.SAMPLE_SLOTS} slots) | {max_snapshots} |")
    print(f"| firmware cost per snapshot, CPython on this machine (median) | {per_snapshot_us:.1f} µs |")
    for cost_us in (50, 200):
        print(
            f"| drain time of the largest storm at {cost_us} µs/snapshot on the Pico (assumed) "
            f"| {max_snapshots * cost_us / 1000:.0f} ms |"
        )


# -- 3. edge → verdict through the pty ----------------------------------------------------------


def _run_sim(conn, seed: int, offsets: dict[int, float]) -> None:
    sim = PicoSimulator(seats=2, seed=seed)
    sim.on_each_call(offsets, hold_us=10_000)
    sim.start()
    conn.send((sim.path, sim._origin_ns, sim._offset_ns))
    conn.recv()  # until told to stop
    sim.stop()


def bench_latency(contests_per_run: int, runs: int, seed: int) -> None:
    offsets = {1: 110_000.0, 2: 110_050.0}  # seat 2 decides the verdict, 50 µs after seat 1
    print(f"\n## Edge → verdict through the pty: {runs} runs × {contests_per_run} contests\n")
    results: list[dict[str, float]] = []
    for run in range(runs):
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_run_sim, args=(child, seed + run, offsets), daemon=True)
        proc.start()
        path, origin_ns, offset_ns = parent.recv()

        def host_of(pico_ns: int, origin: int = origin_ns, offset: int = offset_ns) -> int:
            return origin + pico_ns - offset  # the simulator's clock: drift 0

        results.append(_latency_run(path, host_of, contests_per_run, offsets))
        parent.send("stop")
        proc.join(5)
    print("| measure (median of runs) | p50 | p99 |")
    print("|---|---|---|")
    for key, label in (
        ("verdict", "second press → verdict (includes the 1 ms press confirmation)"),
        ("link", "press confirmed on the Pico → edge at the host (simulator wake-up included)"),
        ("rtt", "baseline: ping round trip of the same link"),
    ):
        p50 = statistics.median(r[f"{key}_p50"] for r in results)
        p99 = statistics.median(r[f"{key}_p99"] for r in results)
        print(f"| {label} | {p50 / 1000:.0f} µs | {p99 / 1000:.0f} µs |")
    ratio = statistics.median(r["link_p50"] / r["rtt_p50"] for r in results)
    print(f"\nlink latency p50 / ping round trip p50 = {ratio:.2f} (median of runs)")


def _latency_run(
    path: str, host_of: Callable[[int], int], n: int, offsets: dict[int, float]
) -> dict[str, float]:
    from hardware.serial_link import SerialButtonSource

    arrivals: list[tuple[int, int, int]] = []  # (seat, t_ns on the Pico, host ns received)
    got = threading.Condition()

    def on_edge(edge) -> None:
        if edge.pressed:
            with got:
                arrivals.append((edge.seat, edge.t_ns, time.monotonic_ns()))
                got.notify_all()

    source = SerialButtonSource(path, seats=2)
    source.start(on_edge)
    assert source.wait_ready(5), "the simulated Pico did not answer"
    verdict_ns, link_ns = [], []
    try:
        for _ in range(n):
            arrivals.clear()
            t_call = source.call()
            with got:
                assert got.wait_for(lambda: len(arrivals) == 2, 2.0), "presses did not arrive"
            verdict = arbitrate(
                Contest(t_call, ("s1", "s2"), source.tie_window_ns, clock=source.clock),
                [Press(f"s{s}", t) for s, t, _ in arrivals],
            )
            done = time.monotonic_ns()
            assert verdict.ranking == (("s1",), ("s2",)), verdict.summary()
            second = max(arrivals, key=lambda a: a[1])
            pressed_host = host_of(t_call + round(offsets[second[0]] * 1000))
            verdict_ns.append(done - pressed_host)
            for seat, _, received in arrivals:
                written = host_of(t_call + round(offsets[seat] * 1000)) + config.PRESS_CONFIRM_US * 1000
                link_ns.append(received - written)
            time.sleep(0.02)
        rtts = source.round_trips_ns()
    finally:
        source.stop()
    return {
        "verdict_p50": _q(verdict_ns, 0.5),
        "verdict_p99": _q(verdict_ns, 0.99),
        "link_p50": _q(link_ns, 0.5),
        "link_p99": _q(link_ns, 0.99),
        "rtt_p50": _q(rtts, 0.5),
        "rtt_p99": _q(rtts, 0.99),
    }


def _q(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(int(q * len(ordered)), len(ordered) - 1)])


def main() -> None:
    parser = argparse.ArgumentParser(description="RP2040 path: ordering, bounce storms, edge → verdict")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--seed", type=int, default=2040)
    args = parser.parse_args()
    per_sep = 2_000 if args.quick else 85_000  # 12 separations: ≥ 10⁶ contests
    print(f"# bench_firmware.py{' --quick' if args.quick else ''} (seed {args.seed})")
    bench_ordering(per_sep, args.seed)
    bench_storms(200 if args.quick else 2_000, args.seed)
    bench_latency(30 if args.quick else 200, 3, args.seed)


if __name__ == "__main__":
    main()
