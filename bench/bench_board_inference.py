"""Move inference benchmark: whole synthetic Djambi games replayed frame by frame through the
real board reader, with noise, hands and planted illegal moves.

    python bench/bench_board_inference.py [--games 6] [--plies 36] [--size 1280x720]

For each game: a random legal game of at least 30 moves (favouring kills, maze actions and
reporter kills), one random camera for the whole game (`vision.board_synth.random_params`:
perspective, lighting, tint, vignette, glare, blur, sensor noise, JPEG; hands removed), then
every move is shown as the camera would see it:

0. before the first move, 30 frames of the set-up board (players sitting down);
1. a frame with a hand carrying the piece (it is lifted from its square);
2. one move in three: the board after the move with a hand resting on it, for four frames;
3. 12 to 32 frames of the board after the move (3 to 8 s at 4 frames a second, while the next
   player thinks), each with fresh sensor noise and JPEG.

Twice per game an illegal move is planted before the real one (a corpse or a diplomat's piece
laid in the maze, a move out of turn or a forgotten extra turn, a piece moving too far or
jumping), shown the same way, then taken back (12 frames of the board as it was).

The follower (`referee.board_follower`: stable reads, no hand, rules) decides; when it asks or
flags a legal move, the scorekeeper enters the true move, as at the table. Each legal move
ends as *correct* (committed right), *flagged* (asked or flagged: the table decides),
*silently wrong* (a wrong move committed) or *undecided* (still waiting when the next move
starts). Two baselines in the same run, on the same frames:

- **per-square read alone**: the last frame's read is the new position (unknown squares keep
  their previous piece), no rules;
- **rules, single frame**: inference on the first frame after the hand has left (the bench
  knows when), its answer taken at once: no waiting for stable frames.

Times: the follower's inference calls (median, p95) and the reader per frame. The tracker
answers a frame that shows the same scene as the last one it read in full from that read
(`BoardTracker.reuse`); ``--no-reuse`` reads every frame in full, for comparison.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

import referee.board_follower as follower_module
from referee.board_follower import Ask, BoardFollower, Commit, Flag, FollowerSettings, Settled
from referee.board_inference import Ambiguous, Explained, NoChange, Observation, Unexplained, effect, infer
from referee.games.djambi import Board, Move, why_illegal
from referee.games.djambi.pieces import Kind
from referee.games.djambi.position import placement_from_squares
from referee.games.djambi.squares import MAZE, RAYS
from vision.board_reader import BoardImageError, BoardTracker
from vision.board_synth import SKIN_BGR, SLEEVE_BGR, Hand, SceneParams, random_params, render_placement

STILL_FRAMES = (12, 32)  # frames of the still board after a move: 3 to 8 s at 4 frames a second
TAKEN_BACK = 12
REST_FRAMES = 4
SETUP_FRAMES = 30  # the set-up board before the first move (the follower learns glare spots)


def _ms(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return statistics.median(values), p95


# -- games ----------------------------------------------------------------------------------------


def pick(rng: random.Random, moves: list[Move], board: Board) -> Move:
    """Piece and destination first (so a kill's many placements do not crowd out the rest),
    favouring kills, the maze and the reporter's kills."""
    groups: dict[tuple[int, int], list[Move]] = defaultdict(list)
    for m in moves:
        groups[m.origin, m.target].append(m)
    hot = [k for k, ms in groups.items() if k[1] == MAZE or ms[-1].victim is not None or board.squares[k[1]]]
    key = rng.choice(hot) if hot and rng.random() < 0.45 else rng.choice(list(groups))
    return rng.choice(groups[key])


def random_game(seed: int, plies: int) -> list[Move]:
    rng = random.Random(seed)
    board = Board()
    moves: list[Move] = []
    while len(moves) < plies:
        legal = board.legal_moves()
        if not legal:
            break
        move = pick(rng, legal, board)
        board.push(move)
        moves.append(move)
    return moves


def result_squares(board: Board, move: Move) -> list:
    squares = list(board.squares)
    for sq, piece in (effect(board, move) or {}).items():
        squares[sq] = piece
    return squares


def plant(rng: random.Random, board: Board) -> tuple[str, Move] | None:
    """An illegal move a player might make here, that no legal move's result looks like."""
    legal = board.legal_moves()
    results = {tuple(result_squares(board, m)) for m in legal}
    options: list[tuple[str, Move]] = []
    kills = [m for m in legal if m.place is not None and board.squares[MAZE] is None]
    if kills:
        m = rng.choice(kills)
        options.append(("laid in the maze", Move(m.origin, m.target, m.exit, MAZE)))
    assert board.turn is not None
    others = [p for p in board.playing() if p != board.turn]
    if others:
        theirs = board.copy()
        theirs.turn = rng.choice(others)
        plain = [m for m in theirs.legal_moves() if m.place is None and m.victim is None and m.exit is None]
        if plain:
            extra = board.ruler() == board.turn
            options.append(("forgotten extra turn" if extra else "out of turn", rng.choice(plain)))
    mine = [
        s
        for s, p in enumerate(board.squares)
        if p is not None and p.party is not None and board.control[p.party] == board.turn
    ]
    far = []
    for s in mine:
        for ray in RAYS[s]:
            for t in ray:
                if board.squares[t] is None and t != MAZE:
                    m = Move(s, t)
                    if why_illegal(board, m) is not None:
                        far.append(m)
    if far:
        options.append(("too far or jumping", rng.choice(far)))
    rng.shuffle(options)
    for kind, move in options:
        if why_illegal(board, move) is None or effect(board, move) is None:
            continue
        if tuple(result_squares(board, move)) in results:
            continue
        return kind, move
    return None


# -- the camera -----------------------------------------------------------------------------------


@dataclass
class Camera:
    params: SceneParams
    rng: np.random.Generator
    seed: int = 0

    def base(self, placement: str, hand: Hand | None = None) -> np.ndarray:
        self.seed += 1
        p = self.params if hand is None else replace(self.params, hands=(hand,))
        return render_placement(placement, p, seed=self.seed).image

    def frame(self, base: np.ndarray) -> np.ndarray:
        """The same scene again: fresh sensor noise and JPEG, like the next video frame."""
        noisy = base.astype(np.float32) + self.rng.normal(0, 1.5, base.shape).astype(np.float32)
        quality = self.params.jpeg or 90
        ok, buf = cv2.imencode(
            ".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality]
        )
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert ok and frame is not None
        return frame

    def hand(self, square: int) -> Hand:
        r = self.rng
        x, y = square % 9 + 0.5, square // 9 + 0.5
        return Hand(
            palm=(x + float(r.uniform(-0.3, 0.3)), y + float(r.uniform(-0.3, 0.3))),
            angle=float(r.uniform(0, 2 * math.pi)),
            size=float(r.uniform(1.3, 1.8)),
            skin=tuple(int(v) for v in SKIN_BGR[int(r.integers(len(SKIN_BGR)))]),  # type: ignore[arg-type]
            sleeve=tuple(int(v) for v in SLEEVE_BGR[int(r.integers(len(SLEEVE_BGR)))]),  # type: ignore[arg-type]
        )


# -- the run ----------------------------------------------------------------------------------------


@dataclass
class Episode:
    """One thing that happened at the table and the frames that show it."""

    kind: str  # "legal" or the planted illegal kind
    move: Move
    before: Board
    frames: list[tuple[np.ndarray, bool]]  # (the scene, a hand is in it): noise added when read
    after_placement: str
    taken_back_at: int | None = None  # frames from here show the board as it was (planted moves)


class Tally:
    def __init__(self) -> None:
        self.c: Counter[str] = Counter()
        self.t_infer: list[float] = []
        self.t_changed: list[float] = []  # calls where the board had changed (not the quick no-change path)
        self.t_read: list[float] = []
        self.legal_counts: list[int] = []
        self.examples: list[str] = []  # every legal move not decided right, and why
        self.flag_examples: list[str] = []
        self.flag_reasons: Counter[str] = Counter()
        self.flagged: list[str] = []  # every legal move asked or flagged: to compare two runs
        self.kinds: Counter[str] = Counter()
        self.false_hands: list[str] = []  # frames without a hand on which the follower saw one


def run_episode(
    ep: Episode, camera: Camera, tracker: BoardTracker, follower: BoardFollower, board: Board, tally: Tally
) -> Board:
    """Feed the episode's frames; returns the position the referee holds afterwards."""
    c = tally.c
    if ep.kind == "setup":
        for scene, _ in ep.frames:
            follower.feed(Observation.from_read(tracker.read(camera.frame(scene))), board.position())
        return board
    legal = ep.kind == "legal"
    decided: str | None = None
    hand_commit = False
    single: str | None = None  # the baseline: rules on the first frame without a hand
    last_read = None
    cleared = False
    reasons: list[str] = []
    for index, (scene, hand) in enumerate(ep.frames):
        image = camera.frame(scene)
        t0 = time.perf_counter()
        try:
            read = tracker.read(image)
        except BoardImageError:
            c["frames_board_lost"] += 1
            continue
        tally.t_read.append(1000 * (time.perf_counter() - t0))
        c["frames"] += 1
        obs = Observation.from_read(read)
        # How well the reader's regions tell a hand: on frames with and without one.
        region_hand = any(r.kind in follower_module.HAND_KINDS for r in read.regions)
        c["hand_frames" if hand else "clear_frames"] += 1
        c[("hand_frames" if hand else "clear_frames") + "_region"] += region_hand
        if not hand and (ep.taken_back_at is None or index < ep.taken_back_at):
            last_read = read
        if single is None and not hand:
            r = infer(ep.before.position(), obs, findings=False)
            if isinstance(r, Explained) and not r.unseen:
                single = "correct" if legal and r.move == ep.move else "wrong"
            elif isinstance(r, Ambiguous | Explained | Unexplained):
                single = "flagged"
        step = follower.feed(obs, board.position(), read.camera)
        reasons.append(getattr(step, "reason", type(step).__name__))
        if not hand and getattr(step, "reason", "") == "a hand is over the board":
            c["clear_frames_follower_hand"] += 1
            if len(tally.false_hands) < 12:
                regions = ", ".join(f"{r.kind} {r.area:.1f} {'+'.join(r.squares[:4])}" for r in read.regions)
                tally.false_hands.append(f"{ep.kind} {ep.move} frame {index}: {regions or 'no region'}")
        if isinstance(step, Commit):
            if hand:
                hand_commit = True
            if decided is None:
                decided = "correct" if legal and step.move == ep.move else "wrong"
                if decided == "wrong":
                    tally.examples.append(f"{ep.kind} {ep.move}: committed {step.move}")
            else:
                decided += "+double"
            if legal and step.move == ep.move:
                board = _pushed(board, step.move)
                follower.committed(board.position())
            elif legal:
                board = _pushed(board, ep.move)  # the scorekeeper undoes and enters the true move
        elif isinstance(step, Ask | Flag) and decided is None:
            decided = "flagged"
            if not legal:
                c["illegal_flag" if isinstance(step, Flag) else "illegal_ask"] += 1
                if isinstance(step, Flag) and step.result.findings:
                    c["illegal_finding_names_the_move"] += step.result.findings[0].move == str(ep.move)
            if legal:
                if isinstance(step, Ask) and ep.move in {cand.move for cand in step.candidates}:
                    c["asked_true_among_candidates"] += 1
                    board = _pushed(board, ep.move)
                    follower.committed(board.position())
                else:
                    board = _pushed(board, ep.move)  # entered at the console
                what = step.reason if isinstance(step, Ask) else step.result.headline
                tally.flag_reasons[type(step).__name__ + ": " + _shape(what)] += 1
                tally.flagged.append(f"{ep.move}: {type(step).__name__}: {what[:110]}")
                if len(tally.flag_examples) < 6:
                    tally.flag_examples.append(
                        f"flagged legal {ep.move}: {type(step).__name__}: {what[:110]}"
                    )
        elif isinstance(step, Settled) and not legal and decided is not None:
            cleared = True
    if decided is None:
        decided = "undecided"
    if legal and decided == "undecided":
        board = _pushed(board, ep.move)
        last = follower.last.to_json().get("kind") if follower.last else None
        tally.examples.append(f"undecided {ep.move}: {last}; {' / '.join(dict.fromkeys(reasons[-4:]))}")
    prefix = "legal" if legal else "illegal"
    c[f"{prefix}_{decided}"] += 1
    c[f"{prefix}_single_{single or 'undecided'}"] += 1
    c[f"{prefix}_hand_commit"] += hand_commit
    if not legal:
        c["illegal_cleared"] += cleared
    # The per-square baseline: the last clear frame's read is the new position.
    if last_read is not None and legal:
        tokens = {s.square: s.token for s in last_read.squares}
        before = {sq: (p.token if p else None) for sq, p in zip(_names(), ep.before.squares, strict=True)}
        guess = {sq: (before[sq] if tokens[sq] == "??" else tokens[sq]) for sq in tokens}
        from vision.board_read import format_placement

        right = format_placement({k: v for k, v in guess.items() if v}) == ep.after_placement
        c["legal_squares_" + ("correct" if right else "wrong")] += 1
    elif not legal and last_read is not None:
        c["illegal_squares_accepted"] += last_read.placement != placement_from_squares(ep.before.squares)
    return board


def _shape(reason: str) -> str:
    """A flag's reason without its squares, to count reasons."""
    import re

    return re.sub(r"\b[a-i][1-9]\b(, )?", "", reason).split(":")[0][:60].strip()


def _names() -> tuple[str, ...]:
    from referee.games.djambi.squares import SQUARE_NAMES

    return SQUARE_NAMES


def _pushed(board: Board, move: Move) -> Board:
    new = Board(board.position())
    new.push(move)
    return new


def game_episodes(
    seed: int, moves: list[Move], camera: Camera, rng: random.Random, plants: int, tally: Tally
):
    """The episodes of one game, generated lazily (frames are big)."""
    board = Board()
    planted_at = set(rng.sample(range(3, len(moves)), plants)) if len(moves) > 3 + plants else set()
    current = camera.base(board.position().placement())
    setup = [(current, False) for _ in range(SETUP_FRAMES)]
    yield Episode("setup", Move(0, 0), Board(), setup, board.position().placement())
    for i, move in enumerate(moves):
        if i in planted_at:
            found = plant(rng, board)
            if found is not None:
                kind, bad = found
                squares = result_squares(board, bad)
                placement = placement_from_squares(squares)
                lifted = list(board.squares)
                lifted[bad.origin] = None
                frames = [(camera.base(placement_from_squares(lifted), camera.hand(bad.target)), True)]
                shown = camera.base(placement)
                frames += [(shown, False) for _ in range(rng.randint(*STILL_FRAMES))]
                back = len(frames)
                frames += [(current, False) for _ in range(TAKEN_BACK)]
                tally.kinds["planted: " + kind] += 1
                yield Episode(kind, bad, Board(board.position()), frames, placement, back)
        before = Board(board.position())
        actor = board.squares[move.origin]
        tally.kinds[_kind(board, move)] += 1
        outcome = board.push(move)
        tally.kinds["+ encirclement"] += any(c == "encircled" for _, c, _ in outcome.eliminated)
        after = board.position().placement()
        lifted = list(before.squares)
        lifted[move.origin] = None
        frames = [(camera.base(placement_from_squares(lifted), camera.hand(move.target)), True)]
        current = camera.base(after)
        if rng.random() < 1 / 3:
            resting = camera.base(after, camera.hand(rng.randrange(81)))
            frames += [(resting, True) for _ in range(REST_FRAMES)]
        frames += [(current, False) for _ in range(rng.randint(*STILL_FRAMES))]
        assert actor is not None
        yield Episode("legal", move, before, frames, after)


def _kind(board: Board, m: Move) -> str:
    actor, target = board.squares[m.origin], board.squares[m.target]
    assert actor is not None and actor.kind is not None
    if m.target == MAZE and actor.kind != Kind.CHIEF and target is not None:
        return "maze action (enter, act, leave)"
    if target is None:
        if actor.kind == Kind.REPORTER and m.victim is not None:
            return "reporter kill"
        return "chief takes the maze" if m.target == MAZE else "plain move"
    if target.party is None:
        return "necromobile moves a corpse"
    if actor.kind == Kind.DIPLOMAT:
        return "diplomat moves a piece"
    return "kill"


# The perft positions of docs/games/djambi.md, for the inference-only timing.
POSITIONS = {
    "initial": Board().fen(),
    "M1": "gCgAgM3yMyAyC/gRgDgM4yDyR/gM7yM/6yMyM1/2gN3yN2/1gM6bM/rMrMrN3bNbM1/rRrD3xxbMbDbR/rCxx1xxrM2xxbC b b - rbyg -",
    "M2": "gCgAgM4yAyC/gRgDgM2yMyMyDyR/2gN3yN1yM/1gMrN2rD3/2rM1rC3bM/gMrM2bM2yM1/rM5bNbM1/rR6bDbR/1rArM3bMbAbC b b r rbyg -",
    "M3": "gC7xx/1gMgN4yDyR/1gM2xxrM1yM1/2rN6/rRxx2bC1xx2/9/2rArM2rDbM1/7bD1/rC5bMbA1 r r b rbrg y",
    "M4": "8yC/9/2gN6/3yR2yNxx1/4gC4/1rR1xx1bM3/2rA1rM1bD2/9/rC7bC r r - rbyh - "
    "own_kill=non_chief,reporter_kill=mandatory,maze_order=place_then_exit,master_moves=true",
}


def naive_infer(board: Board, seen: Observation) -> list[Move]:
    """The baseline: play every legal move with the engine and compare whole placements."""
    cells = seen.tokens
    fits = []
    for move in board.legal_moves():
        after = Board(board.position())
        after.push(move)
        if all(t == "??" or t == (p.token if p else None) for t, p in zip(cells, after.squares, strict=True)):
            fits.append(move)
    return fits


def inference_only(samples: int) -> list[tuple[str, int, float, float, float]]:
    """(position, legal moves, median ms, naive median ms, p95 ms) on reads of random legal moves."""
    from referee.games.djambi.squares import SQUARE_NAMES

    out = []
    rng = random.Random(5)
    for name, fen in POSITIONS.items():
        board = Board(fen)
        legal = board.legal_moves()
        times, naive = [], []
        for i, move in enumerate(rng.sample(legal, min(samples, len(legal)))):
            after = Board(fen)
            after.push(move)
            grid = {SQUARE_NAMES[k]: (p.token if p else None) for k, p in enumerate(after.squares)}
            seen = Observation.from_grid(grid)
            t0 = time.perf_counter()
            result = infer(board, seen)
            times.append(1000 * (time.perf_counter() - t0))
            assert isinstance(result, Explained | Ambiguous)
            if i < 8:
                t0 = time.perf_counter()
                fits = naive_infer(board, seen)
                naive.append(1000 * (time.perf_counter() - t0))
                assert move in fits
        med, p95 = _ms(times)
        out.append((name, len(legal), med, statistics.median(naive), p95))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--plies", type=int, default=36, help="moves per game (at least 30 are kept)")
    ap.add_argument("--plants", type=int, default=2, help="illegal moves planted per game")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument(
        "--first-seed", type=int, default=100, help="games come from seeds after this one (1-99: tuning)"
    )
    ap.add_argument("--json", type=Path)
    ap.add_argument("--no-reuse", action="store_true", help="read every frame in full (no same-scene reuse)")
    args = ap.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    settings = FollowerSettings()
    tally = Tally()
    timed_infer = follower_module.infer

    def timing(*a, **k):  # the follower's own inference calls, timed
        t0 = time.perf_counter()
        result = timed_infer(*a, **k)
        ms = 1000 * (time.perf_counter() - t0)
        tally.t_infer.append(ms)
        if not isinstance(result, NoChange):
            tally.t_changed.append(ms)
            tally.legal_counts.append(int(result.to_json().get("legal_moves", 0)))
        return result

    micro = inference_only(60)
    follower_module.infer = timing  # type: ignore[assignment]
    started = time.time()
    seed, played = args.first_seed, 0
    games = 0
    reused = 0
    while games < args.games:
        seed += 1
        moves = random_game(seed, args.plies)
        if len(moves) < 30:
            continue
        games += 1
        rng = random.Random(1000 + seed)
        params = replace(random_params(np.random.default_rng([10, seed]), size), hands=())  # type: ignore[arg-type]
        camera = Camera(params, np.random.default_rng([11, seed]))
        tracker = BoardTracker(reuse=not args.no_reuse)
        follower = BoardFollower(settings)
        board = Board()
        for ep in game_episodes(seed, moves, camera, rng, args.plants, tally):
            if ep.kind == "legal":
                played += 1
            board = run_episode(ep, camera, tracker, follower, board, tally)
        reused += tracker.reused
        print(
            f"game {games} (seed {seed}): {len(moves)} moves, {time.time() - started:.0f} s", file=sys.stderr
        )

    c = tally.c
    n = played
    ill = sum(v for k, v in tally.kinds.items() if k.startswith("planted"))
    fig = {
        "games": games,
        "moves": n,
        "planted_illegal": ill,
        "frames": c["frames"],
        "size": args.size,
        "correct": c["legal_correct"] / n,
        "flagged": c["legal_flagged"] / n,
        "silently_wrong": (c["legal_wrong"] + c["legal_correct+double"] + c["legal_wrong+double"]) / n,
        "undecided": c["legal_undecided"] / n,
        "correct_or_flagged": (c["legal_correct"] + c["legal_flagged"]) / n,
        "single_correct": c["legal_single_correct"] / n,
        "single_flagged": c["legal_single_flagged"] / n,
        "single_wrong": c["legal_single_wrong"] / n,
        "squares_correct": c["legal_squares_correct"] / n,
        "squares_wrong": c["legal_squares_wrong"] / n,
        "illegal_flagged": c["illegal_flagged"] / max(1, ill),
        "illegal_accepted": (c["illegal_wrong"] + c["illegal_wrong+double"]) / max(1, ill),
        "illegal_single_accepted": c["illegal_single_wrong"] / max(1, ill),
        "illegal_squares_accepted": c["illegal_squares_accepted"] / max(1, ill),
        "hand_commits": c["legal_hand_commit"] + c["illegal_hand_commit"],
        "hand_frames": c["hand_frames"],
        "hand_frames_region": c["hand_frames_region"],
        "clear_frames": c["clear_frames"],
        "clear_frames_region": c["clear_frames_region"],
        "clear_frames_follower_hand": c["clear_frames_follower_hand"],
        "infer_ms": _ms(tally.t_infer),
        "infer_changed_ms": _ms(tally.t_changed),
        "read_ms": _ms(tally.t_read),
        "reused_frames": reused,
        "flagged_moves": tally.flagged,
        "legal_moves_median": statistics.median(tally.legal_counts) if tally.legal_counts else 0,
        "legal_moves_max": max(tally.legal_counts, default=0),
    }
    pct = lambda x: f"{100 * x:.2f} %"  # noqa: E731
    print(
        f"\nmove inference, {games} games, {n} legal moves and {ill} planted illegal moves, "
        f"{c['frames']} frames at {args.size} read by the board reader\n"
    )
    print(
        "| legal moves | follower (rules + stable frames, no hand) | rules, single frame | per-square read alone |"
    )
    print("|---|---|---|---|")
    print(
        f"| correct | {pct(fig['correct'])} | {pct(fig['single_correct'])} | {pct(fig['squares_correct'])} |"
    )
    print(f"| flagged (asked, or flagged) | {pct(fig['flagged'])} | {pct(fig['single_flagged'])} | — |")
    print(
        f"| silently wrong | {pct(fig['silently_wrong'])} | {pct(fig['single_wrong'])} | {pct(fig['squares_wrong'])} |"
    )
    print(
        f"| undecided | {pct(fig['undecided'])} | {pct(1 - fig['single_correct'] - fig['single_flagged'] - fig['single_wrong'])} | — |"
    )
    print(
        f"| **correct or flagged** (goal ≥ 99.8 %) | **{pct(fig['correct_or_flagged'])}** | {pct(fig['single_correct'] + fig['single_flagged'])} | {pct(fig['squares_correct'])} |"
    )
    print(
        f"| planted illegal moves flagged | {c['illegal_flagged']} / {ill} (asked: {c['illegal_ask']}) | — | — |"
    )
    print(
        f"| planted illegal moves accepted as moves | {c['illegal_wrong']} / {ill} | {c['illegal_single_wrong']} / {ill} | {c['illegal_squares_accepted']} / {ill} |"
    )
    print(f"| moves committed from a frame with a hand | {fig['hand_commits']} | — | — |")
    print(
        f"\nframes with a hand the reader reported a hand region on: {c['hand_frames_region']} / {c['hand_frames']};"
        f" frames without a hand it reported one on: {c['clear_frames_region']} / {c['clear_frames']}"
        f" (the follower saw a hand, after learning glare: {c['clear_frames_follower_hand']})"
    )
    print()
    print("| time | median | p95 |")
    print("|---|---|---|")
    print(
        f"| inference (the follower's calls, {len(tally.t_infer)}) | {fig['infer_ms'][0]:.2f} ms | {fig['infer_ms'][1]:.2f} ms |"
    )
    print(
        f"| inference when the board changed ({len(tally.t_changed)}: legal moves generated, scored, "
        f"checked by the engine) | {fig['infer_changed_ms'][0]:.2f} ms | {fig['infer_changed_ms'][1]:.2f} ms |"
    )
    print(
        f"| board reader per frame ({len(tally.t_read)}) | {fig['read_ms'][0]:.1f} ms | {fig['read_ms'][1]:.1f} ms |"
    )
    print(
        f"\nframes answered from the last read (the same scene again): {reused} / {c['frames']}"
        + (" (reuse off)" if args.no_reuse else "")
    )
    print(
        f"\nlegal moves per position when something changed: median {fig['legal_moves_median']}, max {fig['legal_moves_max']}"
    )
    print(
        f"planted findings naming the planted move: {c['illegal_finding_names_the_move']} / {c['illegal_flag']}; flags cleared after the take-back: {c['illegal_cleared']} / {ill}"
    )
    print(
        f"asked with the true move among the candidates: {c['asked_true_among_candidates']}; frames without the board: {c['frames_board_lost']}"
    )
    for e in tally.false_hands:
        print("  a hand seen where there was none: " + e)
    print("\nmoves played, by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.kinds.items())))
    print(
        "\nwhy legal moves were flagged: "
        + ", ".join(f"{k} {v}" for k, v in tally.flag_reasons.most_common())
    )
    for e in tally.flag_examples:
        print("  " + e)
    if tally.examples:
        print("\nlegal moves silently wrong or undecided:")
        for e in tally.examples:
            print("  " + e)
    print("\ninference alone on clear reads of random legal moves (perft positions), against playing")
    print("every legal move with the engine and comparing placements (the baseline), same run:\n")
    print("| position | legal moves | inference median | p95 | baseline median | speed-up |")
    print("|---|---|---|---|---|---|")
    for name, count, med, naive, p95 in micro:
        print(f"| {name} | {count} | {med:.2f} ms | {p95:.2f} ms | {naive:.1f} ms | × {naive / med:.0f} |")
    fig["inference_only"] = micro
    print(f"\n{time.time() - started:.0f} s in all", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(fig, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
