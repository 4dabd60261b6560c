// The table display: read-only and live. Virtual seat buttons appear only on mocked GPIO.
import { el, liveView, morphHTML, renderScores, setHTML, setText, verdictLines } from "/static/common.js";

const $ = (id) => document.getElementById(id);
let current = null;
const down = new Set();
const sent = new Map(); // seat → the promise of its last request: a release never overtakes its press

function drive(seat, pressed) {
  if (pressed === down.has(seat)) return;
  if (pressed) down.add(seat); else down.delete(seat);
  document.querySelectorAll(`[data-seat="${seat}"]`).forEach((b) => b.classList.toggle("down", pressed));
  const post = () => fetch(`/api/buttons/${seat}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pressed }),
  }).catch((e) => console.warn(`seat ${seat}: the press did not reach the referee`, e));
  sent.set(seat, (sent.get(seat) || Promise.resolve()).then(post));
}

function renderButtons(view) {
  const box = $("seat-buttons");
  const names = {};
  if (view.seating) {
    // While seats are claimed, a button is named only once its player has pressed it.
    for (const p of view.seating.players) if (p.button) names[p.button] = p.name;
  } else {
    for (const [name, seat] of Object.entries(view.game ? view.game.seats : {})) names[seat] = name;
  }
  const key = JSON.stringify([view.input.seats, names]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...view.input.seats.map((seat) => {
    const b = el("button", { "data-seat": seat, type: "button" }, `${seat} · ${names[seat] || "seat " + seat}`);
    b.addEventListener("pointerdown", (e) => { e.preventDefault(); drive(seat, true); });
    for (const ev of ["pointerup", "pointerleave", "pointercancel"]) b.addEventListener(ev, () => drive(seat, false));
    return b;
  }));
}

document.addEventListener("keydown", (e) => {
  if (!current || !current.input.virtual || e.repeat) return;
  const seat = Number(e.key);
  if (current.input.seats.includes(seat)) drive(seat, true);
});
document.addEventListener("keyup", (e) => {
  const seat = Number(e.key);
  if (current && current.input.seats.includes(seat)) drive(seat, false);
});

function render(view) {
  current = view;
  const game = view.game;
  setText($("title"), game ? `${game.title} — ${game.variant}` : "Table referee");
  setText($("input"), `${view.input.name}: ${view.input.detail}` + (view.contest.notice ? ` — ${view.contest.notice}` : ""));
  $("journal-error").classList.toggle("hidden", view.journal.ok);
  setText($("journal-error"), view.journal.ok ? "" : "The journal cannot be written — inputs are refused until it is fixed. " + view.journal.error);
  const unfit = !view.input.fit_for_close_calls;
  $("timing-warning").classList.toggle("hidden", !unfit);
  setText($("timing-warning"), unfit ? "These button timestamps are not fit for close calls (" + view.input.detail + ")." : "");

  const running = view.contest.running;
  const call = $("call");
  call.classList.toggle("armed", !!running && running.phase === "armed");
  if (running) {
    setText($("call-big"), running.phase === "called" ? running.call : "Get ready…");
    const fouls = running.provisional ? running.provisional.false_starts : [];
    setText($("call-sub"), running.label + (running.held.length ? " · held down: " + running.held.join(", ") : "") + (fouls.length ? " · false start: " + fouls.join(", ") : ""));
  } else if (game && game.summary.finished) {
    const w = game.summary.winner;
    setText($("call-big"), w ? (Array.isArray(w) ? "Winners: " + w.join(", ") : w + " wins the game") : "Game over");
    setText($("call-sub"), "");
  } else {
    const idle = game ? game.summary.headline || game.title : "Waiting for the scorekeeper";
    setText($("call-big"), game && game.contest ? "Next: " + game.contest.label : idle);
    setText($("call-sub"), game && game.contest ? "waiting for the scorekeeper to arm" : "");
  }

  const lines = verdictLines(view.contest.last);
  $("verdict").classList.toggle("hidden", !lines);
  if (lines) {
    setText($("verdict-head"), lines.head);
    setText($("verdict-sub"), lines.sub + (lines.error ? " — " + lines.error : ""));
    setText($("verdict-rule"), lines.rule);
    setHTML($("timeline"), (view.contest.last && view.contest.last.timeline_svg) || "");
  }
  morphHTML($("picture"), game ? game.svg : "");
  renderScores($("scores"), game ? game.summary.scores : {});
  setText($("scores-title"), (game && game.summary.scores_label) || "Scores");
  setText($("game-status"), game ? (game.summary.finished ? "finished" : "") : "No game yet: create one at the console.");
  $("virtual").classList.toggle("hidden", !view.input.virtual);
  if (view.input.virtual) renderButtons(view);
}

fetch("/api/qr/display.svg").then((r) => r.text()).then((svg) => setHTML($("qr"), svg));
// On the referee's own screen only (the kiosk), the console's code too: the first scorekeeper
// needs nothing but the screen. Elsewhere the server refuses it and nothing is shown.
fetch("/api/qr/console-local.svg").then((r) => (r.ok ? r.text() : "")).then((svg) => {
  if (!svg) return;
  setHTML($("qr-console"), svg);
  $("qr-console-box").classList.remove("hidden");
});
liveView(render);
