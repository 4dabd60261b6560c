"""Shared test settings and fixtures: hypothesis profile, the real daemon, real headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# One profile for the whole suite: no per-example deadline (the 2-core CI machine is busy),
# and enough examples to find rule bugs. REFEREE_HYPOTHESIS=thorough explores further.
settings.register_profile("ci", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("REFEREE_HYPOTHESIS", "ci"))


# -- the synthetic scenes' renders, kept for one test run (tests/scene_cache.py) ------------------


_made_scene_folder = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """The controller names a fresh folder before the xdist workers start; they inherit it."""
    from tests.scene_cache import ENV

    if hasattr(config, "workerinput") or os.environ.get(ENV):
        return
    folder = tempfile.mkdtemp(prefix="referee-test-scenes-")
    os.environ[ENV] = folder
    config.stash[_made_scene_folder] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    from tests.scene_cache import ENV

    folder = config.stash.get(_made_scene_folder, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(ENV, None)


# -- the real daemon, started as a process ---------------------------------------------------------


@dataclass
class RunningReferee:
    """A `referee serve` process on mocked GPIO, and small HTTP helpers to talk to it."""

    proc: subprocess.Popen[str]
    data_dir: Path
    display_url: str
    console_url: str
    token: str
    log_path: Path
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return self.display_url.rstrip("/")

    def request(self, method: str, path: str, body: Any = None, token: bool = True,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, Any]:  # fmt: skip
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("X-Referee-Token", self.token)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=15) as res:
                text = res.read().decode()
                status = res.status
                kind = res.headers.get("content-type", "")
        except urllib.error.HTTPError as err:
            text, status, kind = err.read().decode(), err.code, err.headers.get("content-type", "")
        if not kind.startswith("application/json"):
            return status, text
        try:
            return status, json.loads(text)
        except json.JSONDecodeError:
            return status, text

    def post(self, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        return self.request("POST", path, body if body is not None else {}, **kw)

    def view(self) -> dict[str, Any]:
        status, view = self.request("GET", "/api/view", token=False)
        assert status == 200, view
        return view

    def wait_for(self, predicate, timeout: float = 15.0, what: str = "condition") -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view = self.view()
            if predicate(view):
                return view
            time.sleep(0.02)
        # The daemon's own log says why (a link that never answers, a thread that died), with
        # every thread's stack (SIGUSR1, `referee serve`), and so do this process's threads (a
        # simulator): a rare failure under load is only diagnosable from the run that had it.
        if self.proc.poll() is None and hasattr(signal, "SIGUSR1"):
            os.kill(self.proc.pid, signal.SIGUSR1)
            time.sleep(0.5)
        tail = "".join(self.log_path.read_text(errors="replace").splitlines(keepends=True)[-150:])
        frames = sys._current_frames()
        here = "".join(
            f"thread {t.name}:\n" + "".join(traceback.format_stack(frames[t.ident]))
            for t in threading.enumerate()
            if t is not threading.current_thread() and t.ident in frames
        )
        raise AssertionError(
            f"timed out waiting for {what}; last view: {json.dumps(view)[:2000]}\n"
            f"last lines of the daemon's log ({self.log_path}):\n{tail}\n"
            f"threads of the test process:\n{here}"
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def start_referee(data_dir: Path, *extra: str, env: dict[str, str] | None = None,
                  timeout: float = 30.0, prefix: tuple[str, ...] = (),
                  preexec_fn: Any = None) -> RunningReferee:  # fmt: skip
    """Start `referee serve` on a free port with mocked GPIO and a short call delay."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir.parent / f"{data_dir.name}-daemon.log"
    args = [*prefix, sys.executable, "-m", "referee", "serve", "--data", str(data_dir), "--host", "127.0.0.1",
            "--port", "0", "--buttons", "mock", "--call-delay", "0.05", "0.15", "--camera", "none", *extra]  # fmt: skip
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    log = log_path.open("a")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True, env=full_env,
                            cwd=Path(__file__).resolve().parent.parent, preexec_fn=preexec_fn)  # fmt: skip
    deadline = time.monotonic() + timeout
    urls: dict[str, str] = {}
    assert proc.stdout is not None
    while len(urls) < 2:
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"the referee did not start; its log:\n{log_path.read_text()}")
        line = proc.stdout.readline()
        match = re.match(r"\s*(display|console): (\S+)", line)
        if match:
            urls[match.group(1)] = match.group(2)
    token = urls["console"].split("token=", 1)[1]
    return RunningReferee(proc, data_dir, urls["display"], urls["console"], token, log_path, env or {})


@pytest.fixture
def referee_daemon(tmp_path: Path) -> Iterator[RunningReferee]:
    running = start_referee(tmp_path / "data")
    yield running
    running.stop()


# -- real headless Chromium (Debian's), driven by Playwright ---------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the test command installs Debian's chromium (scripts/setup --test)"
        )
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    shots = os.environ.get("REFEREE_TEST_SHOTS")  # a folder: keep what every page showed at the end
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        name = re.sub(r"\W+", "-", os.environ.get("PYTEST_CURRENT_TEST", "test").split(" ")[0])
        for i, shown in enumerate(context.pages):
            shown.screenshot(path=str(Path(shots) / f"{name}-{i}.png"), full_page=True)
    context.close()
