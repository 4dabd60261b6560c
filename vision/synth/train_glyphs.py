"""Train the glyph network and export it for OpenCV (needs PyTorch and onnx: the `train` extra).

    # 1. faces cut by the reader's pipeline from rendered frames (train fonts, tune lighting)
    python -m vision.synth.faces /tmp/glyphs/train0.npz --split train --frames 1100 --seed 0
    python -m vision.synth.faces /tmp/glyphs/train1.npz --split train --frames 1100 --seed 100000
    python -m vision.synth.faces /tmp/glyphs/val.npz --split val --frames 300 --seed 0
    # 2. train on the train faces, report on the val faces, write vision/data/dice-glyphs.onnx
    python -m vision.synth.train_glyphs /tmp/glyphs/train0.npz /tmp/glyphs/train1.npz --val /tmp/glyphs/val.npz

Seeds are fixed, so the same commands rebuild the same network (up to floating-point order).
The held-out split is never read here. PyTorch is only needed for this; the reader runs the
exported file with ``cv2.dnn``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from vision.dice_glyphs import INPUT, MODEL_PATH, N_CLASSES, NONE, PIPS0


def _load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, fonts = [], [], []
    for p in paths:
        with np.load(p) as d:
            xs.append(d["x"].astype(np.float32))
            ys.append(d["y"].astype(np.int64))
            fonts.append(d["font"])
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(fonts)


def build_model(widths: tuple[int, int, int, int] = (24, 48, 64, 128)):  # type: ignore[no-untyped-def]
    """Four 3 x 3 convolutions with batch norm and max pooling, then two dense layers."""
    import torch.nn as nn

    c1, c2, c3, fc = widths

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(
        *block(2, c1),
        nn.MaxPool2d(2),  # 20
        *block(c1, c2),
        nn.MaxPool2d(2),  # 10
        *block(c2, c3),
        *block(c3, c3),
        nn.MaxPool2d(2),  # 5
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(c3 * 5 * 5, fc),
        nn.ReLU(),
        nn.Linear(fc, N_CLASSES),
    )


def _letter_groups() -> np.ndarray:
    """Per class, the first class of its face (the four turns of a letter share one face)."""
    g = np.arange(N_CLASSES)
    g[:PIPS0] -= g[:PIPS0] % 4
    return g


def loss_fn(logits, target, turn_weight: float = 0.2):  # type: ignore[no-untyped-def]
    """Cross-entropy of the *face* (its four orientations summed), plus a small term for the
    orientation: a symmetric letter (O, X, H) has no one true turn, and must not be punished."""
    import torch
    import torch.nn.functional as F

    logp = F.log_softmax(logits, dim=1)
    n = logits.shape[0]
    rotatable = target < PIPS0
    base = target - torch.where(rotatable, target % 4, torch.zeros_like(target))
    idx = base[:, None] + torch.arange(4, device=target.device)[None, :]
    idx = torch.where(rotatable[:, None], idx, target[:, None].expand(n, 4))
    four = logp.gather(1, idx)
    face_logp = torch.where(rotatable, torch.logsumexp(four, dim=1), logp[torch.arange(n), target])
    turn_logp = logp[torch.arange(n), target] - face_logp
    return -(face_logp + turn_weight * torch.where(rotatable, turn_logp, torch.zeros_like(turn_logp))).mean()


def augment(x, y, gen):  # type: ignore[no-untyped-def]
    """Quarter turns (exact: the label's turn moves with it), a pixel of shift, stretch along
    one axis (other fonts are wider or narrower), sensor noise. Never a mirror image."""
    import torch
    import torch.nn.functional as F

    from vision.dice_glyphs import rotated_class

    n = x.shape[0]
    k = int(torch.randint(0, 4, (1,), generator=gen))
    if k:
        x = torch.rot90(x, k, dims=(2, 3))
        y = torch.as_tensor([rotated_class(int(c), k) for c in y], dtype=torch.int64)
    sx = 1.0 + 0.12 * (torch.rand(n, generator=gen) * 2 - 1)
    sy = 1.0 + 0.06 * (torch.rand(n, generator=gen) * 2 - 1)
    tx = (torch.rand(n, generator=gen) * 2 - 1) * 1.5 / (INPUT / 2)
    ty = (torch.rand(n, generator=gen) * 2 - 1) * 1.5 / (INPUT / 2)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0], theta[:, 1, 1], theta[:, 0, 2], theta[:, 1, 2] = 1 / sx, 1 / sy, tx, ty
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    x = x + 0.03 * torch.randn(x.shape, generator=gen)
    return x, y


def evaluate(net, x: np.ndarray, batch: int = 1024) -> np.ndarray:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            out.append(torch.softmax(net(torch.from_numpy(x[i : i + batch])), dim=1).numpy())
    return np.concatenate(out)


def face_accuracy(probs: np.ndarray, y: np.ndarray) -> float:
    """Accuracy of the face (turns summed) among all classes."""
    groups = _letter_groups()
    face_p = np.zeros((len(probs), N_CLASSES))
    np.add.at(face_p.T, groups, probs.T)
    return float((face_p.argmax(axis=1) == groups[y]).mean())


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("train", type=Path, nargs="+")
    parser.add_argument("--val", type=Path)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--checkpoint", type=Path, help="also save the PyTorch weights here")
    parser.add_argument(
        "--widths",
        type=int,
        nargs=4,
        default=(24, 48, 64, 128),
        help="channels of the three stages, dense width",
    )
    args = parser.parse_args()

    import torch

    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    x, y, _ = _load(args.train)
    print(f"train: {len(y)} faces ({int((y == NONE).sum())} none)", file=sys.stderr)
    val = _load([args.val]) if args.val else None
    net = build_model(tuple(args.widths))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * ((len(y) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.2)
    gen = torch.Generator().manual_seed(0)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for epoch in range(args.epochs):
        net.train()
        t0 = time.time()
        perm = torch.randperm(len(yt), generator=gen)
        total = 0.0
        for i in range(0, len(perm), args.batch):
            idx = perm[i : i + args.batch]
            xb, yb = augment(xt[idx], yt[idx], gen)
            loss = loss_fn(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss) * len(idx)
        msg = f"epoch {epoch + 1}: loss {total / len(yt):.4f} ({time.time() - t0:.0f} s)"
        if val is not None:
            msg += f"; val face accuracy {face_accuracy(evaluate(net, val[0]), val[1]):.4f}"
        print(msg, file=sys.stderr, flush=True)
    net.eval()
    dummy = torch.zeros(1, 2, INPUT, INPUT)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net,
        dummy,
        str(args.out),
        dynamo=False,
        input_names=["faces"],
        output_names=["logits"],
        dynamic_axes={"faces": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
    )
    if args.checkpoint:
        torch.save(net.state_dict(), args.checkpoint)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e3:.0f} kB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
