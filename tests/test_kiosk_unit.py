"""The kiosk unit: valid for systemd, and it fails (to be restarted) when the referee never answers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "referee-kiosk.service"


def test_the_kiosk_unit_is_valid_and_restarts_until_the_referee_answers(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing (Debian package systemd)")
    text = UNIT.read_text()
    assert "Restart=always" in text and "--kiosk" in text and "--password-store=basic" in text
    pre = next(line for line in text.splitlines() if line.startswith("ExecStartPre="))
    assert pre.rstrip("'").endswith("exit 1"), "a referee that never answers must fail the start"
    copy = tmp_path / "referee-kiosk.service"
    copy.write_text(text)
    # Checked as a system unit: `--user verify` needs a user session, which CI does not have.
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    problems = [line for line in done.stderr.splitlines() if "referee-kiosk.service" in line]
    assert done.returncode == 0 and problems == [], done.stderr
