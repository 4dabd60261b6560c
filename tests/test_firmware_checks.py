"""The firmware is checked against the real MicroPython: mpy-cross compiles every module, and
pyright type-checks them against the RP2040 MicroPython stubs (not CPython's standard library)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
MODULES = sorted(FIRMWARE.glob("*.py"))
STUB_DISTRIBUTIONS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")


def test_every_firmware_module_is_checked() -> None:
    names = {m.name for m in MODULES}
    assert {"core.py", "edges.py", "framing.py", "crc16.py", "board.py", "app.py", "main.py"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_module_compiles_with_mpy_cross_for_the_rp2040(module: Path, tmp_path: Path) -> None:
    # -march=armv6m: the RP2040's Cortex-M0+, needed for the viper sampling loop.
    result = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(tmp_path / "out.mpy"), str(module)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").read_bytes()[:1] == b"M"  # an .mpy file


def _link_stubs(typings: Path) -> None:
    """firmware/typings, as `pip install --target` would make it, from the installed stubs."""
    typings.mkdir()
    for name in STUB_DISTRIBUTIONS:
        dist = metadata.distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or () if ".dist-info" not in str(f)}
        for top in tops:
            target = typings / top
            if not target.exists():
                target.symlink_to(Path(str(dist.locate_file(top))))


def test_firmware_type_checks_against_the_micropython_rp2_stubs(tmp_path: Path) -> None:
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent)) or shutil.which("pyright")
    assert pyright, "pyright is missing: pip install -e '.[test]'"
    copy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy, ignore=shutil.ignore_patterns("typings", "__pycache__"))
    _link_stubs(copy / "typings")
    result = subprocess.run(
        [pyright, "-p", str(copy / "pyrightconfig.json"), "--outputjson"],
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert '"filesAnalyzed": 0' not in result.stdout


def test_pyright_catches_code_the_pico_cannot_run(tmp_path: Path) -> None:
    """The check is real: code that would not run on the Pico fails it."""
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent)) or shutil.which("pyright")
    assert pyright
    copy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy, ignore=shutil.ignore_patterns("typings", "__pycache__", "*.py"))
    (copy / "bad.py").write_text("import machine\n\nmachine.Pin(3).toggle_twice()\n")
    _link_stubs(copy / "typings")
    result = subprocess.run(
        [pyright, "-p", str(copy / "pyrightconfig.json")], capture_output=True, text=True, timeout=100
    )
    assert result.returncode != 0
    assert "toggle_twice" in result.stdout
