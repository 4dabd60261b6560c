"""The interrupt model of bench/bench_gpio.py stays honest (the bench itself is not a test)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_gpio", ROOT / "bench" / "bench_gpio.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_gpio"] = module
    spec.loader.exec_module(module)
    return module


def test_a_true_coincidence_goes_to_the_lower_gpio(bench: ModuleType) -> None:
    rng = np.random.default_rng(1)
    n = 1000
    a, b = bench.kernel_stamps(0, n, np.full(n, 22), np.full(n, 5), bench.MEASURED, rng)
    assert np.all(b < a)  # B on GPIO5 is serviced first in the pass
    assert np.all(a >= 12_000 - 5 * 2_000)  # stamped late, as measured


def test_edges_far_apart_are_stamped_in_order_and_late(bench: ModuleType) -> None:
    rng = np.random.default_rng(2)
    n = 1000
    a, b = bench.kernel_stamps(1_000_000, n, np.full(n, 5), np.full(n, 22), bench.MEASURED, rng)
    assert np.all(b - a > 900_000)
    assert np.all((b - 1_000_000 > 0) & (b - 1_000_000 < 40_000))


def test_the_vectorised_verdict_is_arbitrates(bench: ModuleType) -> None:
    assert bench.real_path_agrees(3, 5, bench.MEASURED) == (3 * 16, 3 * 16)


def test_the_default_window_has_no_wrong_order_even_under_stress(bench: ModuleType) -> None:
    result = bench.error_table(2_000, 1, 7, bench.STRESS)
    assert all(per_w[100_000][0] == 0 for per_w in result["table"].values())
    assert result["worst_inversion_ns"] < 100_000
