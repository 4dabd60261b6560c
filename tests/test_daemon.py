"""The daemon as a process: console security, bad requests, a contest from a mock pin to the verdict,
restart by replay, systemd readiness and watchdog, and a journal that cannot be written."""

from __future__ import annotations

import http.client
import os
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import RunningReferee, start_referee

FASTEST = {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc"], "options": {}}


def play_contest(
    ref: RunningReferee, presses: list[tuple[int, float]], sent: list[tuple[float, float]] | None = None
) -> dict:
    """Arm, wait for the call, press seats after the given delays (s), return the verdict.
    ``sent``, if given, gets each press's (request sent, answer back) monotonic times in s."""
    before = (ref.view()["contest"]["last"] or {}).get("verdict")
    status, body = ref.post("/api/contest/arm")
    assert status == 200, body
    ref.wait_for(lambda v: (v["contest"]["running"] or {}).get("phase") == "called", what="the call")
    start = time.monotonic()
    for seat, at in sorted(presses, key=lambda p: p[1]):
        time.sleep(max(0.0, start + at - time.monotonic()))
        before_press = time.monotonic()
        assert ref.post(f"/api/buttons/{seat}", {"pressed": True}, token=False)[0] == 200
        if sent is not None:
            sent.append((before_press, time.monotonic()))
    time.sleep(0.05)  # a hand rests on the button for a while; shorter than 1 ms would be noise
    for seat, _ in presses:
        ref.post(f"/api/buttons/{seat}", {"pressed": False}, token=False)
    view = ref.wait_for(
        lambda v: (
            v["contest"]["running"] is None
            and (v["contest"]["last"] or {}).get("verdict") not in (None, before)
        ),
        what="the verdict",
    )
    # Hands off the buttons before the next arm: a release counts once the button is quiet,
    # and a button still down at arm time keeps its seat out of the next contest.
    ref.wait_for(lambda v: v["input"]["held"] == [], what="the buttons to be released")
    return view["contest"]["last"]


def test_console_actions_need_the_token_and_the_same_origin(referee_daemon: RunningReferee) -> None:
    ref = referee_daemon
    status, body = ref.post("/api/games", FASTEST, token=False)
    assert status == 401 and "console" in body["error"]
    status, body = ref.post("/api/games", FASTEST, headers={"X-Referee-Token": "wrong"}, token=False)
    assert status == 401
    status, body = ref.post("/api/games", FASTEST, headers={"Origin": "http://evil.example"})
    assert status == 403 and "evil.example" in body["error"]
    assert ref.view()["game"] is None, "a refused request must not create a game"
    status, body = ref.post("/api/games", FASTEST)
    assert status == 201 and body["id"] == 1
    log = ref.log_path.read_text()
    assert "refused console request" in log and "foreign origin" in log


def test_malformed_requests_get_4xx_and_leave_the_game_untouched(referee_daemon: RunningReferee) -> None:
    ref = referee_daemon
    assert ref.post("/api/games", FASTEST)[0] == 201
    before = ref.view()["game"]["summary"]
    status, body = ref.request("POST", "/api/games", raw=b"{not json")
    assert status == 400 and "not valid JSON" in body["error"]
    status, body = ref.post("/api/games", {"game": "chess", "players": ["A"]})
    assert status == 400 and "unknown game 'chess'" in body["error"] and "fastest" in body["error"]
    status, body = ref.request(
        "POST", "/api/games/1/events", raw=b'{"type": "note", "x": "' + b"a" * 70_000 + b'"}'
    )
    assert status == 413
    status, body = ref.post("/api/games/1/events", {"type": "contest", "ranking": [["Anne"]]})
    assert status == 400 and "buttons" in body["error"]
    status, body = ref.post("/api/games/1/events", {"type": "teleport"})
    assert status == 400 and "teleport" in body["error"]
    status, body = ref.post("/api/games/9/events", {"type": "undo"})
    assert status == 404
    status, body = ref.post("/api/games/1/events", ["a list"])
    assert status == 400
    assert ref.view()["game"]["summary"] == before
    status, body = ref.post("/api/buttons/9", {"pressed": True}, token=False)
    assert status == 404
    status, body = ref.post("/api/buttons/1", {"pressed": "yes"}, token=False)
    assert status == 400


def test_a_contest_runs_from_mock_pin_to_verdict_and_survives_restart(tmp_path: Path) -> None:
    ref = start_referee(tmp_path / "data")
    try:
        assert ref.post("/api/games", FASTEST)[0] == 201
        sent: list[tuple[float, float]] = []
        last = play_contest(ref, [(2, 0.25), (1, 0.45)], sent)
        verdict = last["verdict"]
        assert verdict["ranking"] == [["Marc"], ["Anne"]]
        # The margin is the time between the two presses as the daemon stamped them: within
        # what the requests allow (0.2 s apart; further on a busy machine), never made up.
        (first_out, first_back), (second_out, second_back) = sent
        assert (
            second_out - first_back - 0.005 < verdict["margins_ns"][0] / 1e9 < second_back - first_out + 0.005
        )
        assert verdict["clock"] == "mock" and verdict["tie_window_ns"] > 0
        assert last["game_verdicts"][0]["rule"]["id"] == "fastest.win"
        assert "timeline_svg" in last and "Marc" in last["timeline_svg"]
        # A false start: Anne presses before the call, Marc after it.
        status, armed = ref.post("/api/contest/arm")
        assert status == 200 and armed["held"] == []
        ref.post("/api/buttons/1", {"pressed": True}, token=False)
        time.sleep(0.05)
        ref.post("/api/buttons/1", {"pressed": False}, token=False)
        ref.wait_for(lambda v: (v["contest"]["running"] or {}).get("phase") == "called", what="the call")
        time.sleep(0.3)
        ref.post("/api/buttons/2", {"pressed": True}, token=False)
        time.sleep(0.05)
        ref.post("/api/buttons/2", {"pressed": False}, token=False)
        view = ref.wait_for(lambda v: v["contest"]["running"] is None, what="the contest to close")
        verdict = view["contest"]["last"]["verdict"]
        if verdict["false_starts"]:
            assert verdict["false_starts"] == ["Anne"] and verdict["ranking"] == [["Marc"]]
        else:
            # The call is 0.06 s after the arm here: on a busy machine Anne's press can reach the
            # referee after the call and a human's reaction time, and then it is a fair press.
            assert verdict["ranking"] == [["Anne"], ["Marc"]]
        scores = ref.view()["game"]["summary"]["scores"]
    finally:
        ref.stop()
    again = start_referee(tmp_path / "data")
    try:
        view = again.view()
        assert view["game"]["summary"]["scores"] == scores
        assert view["game"]["id"] == 1
        status, record = again.request("GET", "/api/games/1/record.jsonl", token=False)
        assert status == 200 and '"type": "press"' in record and '"type": "contest"' in record
    finally:
        again.stop()


def test_the_view_shows_which_buttons_are_down(referee_daemon: RunningReferee) -> None:
    ref = referee_daemon
    assert ref.view()["input"]["held"] == []
    ref.post("/api/buttons/3", {"pressed": True}, token=False)
    ref.wait_for(lambda v: v["input"]["held"] == [3], what="button 3 down")
    ref.post("/api/buttons/3", {"pressed": False}, token=False)
    ref.wait_for(lambda v: v["input"]["held"] == [], what="button 3 released and quiet")


def test_undo_is_an_event_and_refused_when_nothing_is_left(referee_daemon: RunningReferee) -> None:
    ref = referee_daemon
    ref.post("/api/games", FASTEST)
    play_contest(ref, [(1, 0.2)])
    assert ref.view()["game"]["summary"]["scores"] == {"Anne": 1, "Marc": 0}
    assert ref.post("/api/games/current/events", {"type": "undo"})[0] == 200
    assert ref.view()["game"]["summary"]["scores"] == {"Anne": 0, "Marc": 0}
    status, body = ref.post("/api/games/current/events", {"type": "undo"})
    assert status == 400 and "nothing to undo" in body["error"]
    _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
    assert record.count('"type": "undo"') == 1 and record.count('"type": "contest"') == 1


def test_systemd_readiness_and_watchdog(tmp_path: Path) -> None:
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(20)
    ref = start_referee(tmp_path / "data", env={"NOTIFY_SOCKET": str(sock_path), "WATCHDOG_USEC": "400000"})
    try:
        messages = set()
        deadline = time.monotonic() + 20
        while not {"READY=1", "WATCHDOG=1"} <= messages and time.monotonic() < deadline:
            messages.add(sock.recv(256).decode())
        assert {"READY=1", "WATCHDOG=1"} <= messages
        # The watchdog keeps being petted from the event loop.
        t0 = time.monotonic()
        assert sock.recv(256).decode() == "WATCHDOG=1"
        assert time.monotonic() - t0 < 1.0
    finally:
        ref.stop()
        sock.close()


def test_the_unit_file_is_valid_for_systemd(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing (Debian package systemd)")
    unit = Path("systemd/referee.service").read_text()
    assert "Type=notify" in unit and "WatchdogSec=" in unit and "StateDirectory=referee" in unit
    # Point ExecStart at a binary that exists here; everything else is checked as written.
    fake = tmp_path / "referee.service"
    fake.write_text(unit.replace("/opt/referee/.venv/bin/referee", "/bin/true"))
    done = subprocess.run([analyze, "verify", str(fake)], capture_output=True, text=True, timeout=60)
    problems = [line for line in done.stderr.splitlines() if "referee.service" in line]
    assert problems == [], done.stderr


def test_a_full_disk_is_shown_and_inputs_are_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ref = start_referee(data)
    try:
        assert ref.post("/api/games", FASTEST)[0] == 201
        play_contest(ref, [(1, 0.2)])
    finally:
        ref.stop()
    size = max(p.stat().st_size for p in data.glob("referee.sqlite3*"))

    def small_disk() -> None:
        # Files of this process may not grow past the journal's size: writes fail as on a full disk.
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 8192, size + 8192))

    ref = start_referee(data, preexec_fn=small_disk)
    try:
        status, body = ref.post("/api/games/current/events", {"type": "note", "text": "x" * 60_000})
        assert status == 503 and "journal" in body["error"]
        view = ref.view()
        assert view["journal"]["ok"] is False and view["journal"]["error"]
        assert view["game"]["summary"]["scores"] == {"Anne": 1, "Marc": 0}
        # A smaller input may still fit in what is left: then it is journalled and shown, never
        # accepted without being written.
        status, _ = ref.post("/api/games", FASTEST)
        assert (status, len(ref.view()["games"])) in ((201, 2), (503, 1))
        assert "journal write failed" in ref.log_path.read_text()
    finally:
        ref.stop()


def test_a_read_only_data_folder_shows_the_games_but_refuses_inputs() -> None:
    # The folder lives outside pytest's private tmp so that an unprivileged user can reach it.
    base = Path(tempfile.mkdtemp(prefix="referee-ro-"))
    data = base / "data"
    try:
        ref = start_referee(data)
        try:
            assert ref.post("/api/games", FASTEST)[0] == 201
            play_contest(ref, [(2, 0.2)])
        finally:
            ref.stop()
        prefix: tuple[str, ...] = ()
        if os.geteuid() == 0:  # root ignores file modes: run the daemon as nobody
            setpriv = shutil.which("setpriv")
            assert setpriv, "setpriv (util-linux) is needed to drop root in this test"
            prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
        for path in [base, data, *data.iterdir()]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        # As nobody, Python cannot write its bytecode cache and compiles every module afresh:
        # on a busy machine that start has taken 40 s.
        ref = start_referee(data, prefix=prefix, timeout=120)
        try:
            view = ref.view()
            assert view["journal"]["ok"] is False and "journal" in view["journal"]["error"]
            assert view["game"]["summary"]["scores"] == {"Anne": 0, "Marc": 1}
            status, body = ref.post("/api/games", FASTEST)
            assert status == 503 and "journal" in body["error"]
            assert ref.post("/api/games/current/events", {"type": "undo"})[0] == 503
        finally:
            ref.stop()
    finally:
        for path in [base, data, *data.iterdir()]:
            path.chmod(0o755)
        shutil.rmtree(base)


def test_the_consoles_code_is_shown_only_on_the_referees_own_screen(referee_daemon: RunningReferee) -> None:
    ref = referee_daemon
    status, svg = ref.request("GET", "/api/qr/console-local.svg", token=False)
    assert status == 200 and svg.startswith("<svg")  # the test runs on the referee's machine
    status, _body = ref.request(
        "GET", "/api/qr/console-local.svg", token=False, headers={"X-Forwarded-For": "10.0.0.7"}
    )
    assert status == 403
    status, _ = ref.request("GET", "/api/qr/console.svg", token=False)
    assert status == 401


def test_a_virtual_press_that_reaches_a_lagging_daemon_with_its_release_still_counts(tmp_path: Path) -> None:
    """The display's key down and key up can both wait out a stalled daemon and then arrive
    together, on two connections. Applied to the mock pin microseconds apart they looked like a
    noise spike and the player's press was lost (a flaky Djam browser test, stop 27). Here the
    daemon is stopped (SIGSTOP) while both requests wait for it."""
    ref = start_referee(tmp_path / "data")
    try:
        assert ref.post("/api/games", FASTEST)[0] == 201
        host, port = ref.base.split("//", 1)[1].split(":")
        # Two kept-alive connections the daemon has already accepted, as a browser holds them.
        conns = [http.client.HTTPConnection(host, int(port), timeout=15) for _ in range(2)]
        for conn in conns:
            conn.request("GET", "/api/health")
            assert conn.getresponse().read()
        assert ref.post("/api/contest/arm")[0] == 200
        ref.wait_for(lambda v: (v["contest"]["running"] or {}).get("phase") == "called", what="the call")
        time.sleep(0.2)  # past the reaction time: a fair press
        headers = {"Content-Type": "application/json"}
        os.kill(ref.proc.pid, signal.SIGSTOP)
        try:
            conns[0].request("POST", "/api/buttons/2", '{"pressed": true}', headers)
            time.sleep(0.05)  # the key is held 50 ms
            conns[1].request("POST", "/api/buttons/2", '{"pressed": false}', headers)
            time.sleep(0.3)
        finally:
            os.kill(ref.proc.pid, signal.SIGCONT)
        for conn in conns:
            answer = conn.getresponse()
            assert answer.status == 200, answer.read()
            answer.read()
            conn.close()
        view = ref.wait_for(lambda v: v["contest"]["running"] is None, what="the contest to close")
        verdict = view["contest"]["last"]["verdict"]
        assert verdict["ranking"] == [["Marc"]], verdict
        # Both edges reached the pin and the press held past the glitch time.
        ref.wait_for(lambda v: v["input"]["held"] == [], what="the button to be released")
        assert "noise spike" not in ref.view()["input"]["detail"]
    finally:
        ref.stop()
