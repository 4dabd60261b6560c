// The Djambi board camera on the display and the console: what it is doing, the moves it
// recorded, an illegal move it saw (flagged on both, with the rule), and at the console the
// question when several moves fit (pick one) or the flag (record the closest legal move if the
// camera misread, or dismiss). The board itself is the game's picture; the camera's own view
// (the read drawn on the frame) is shown at the console.
import { escapeHtml, setHTML, subscribeView } from "/static/common.js";

const box = document.getElementById("board-camera");
const atConsole = !!document.getElementById("actions");

function ruleLine(rule) {
  if (!rule) return "";
  return `<div class="rule">“${escapeHtml(rule.text)}” (${escapeHtml(rule.source)})</div>`;
}

function choices(list, label) {
  if (!atConsole || !list || !list.length) return "";
  const buttons = list.map((c) =>
    `<button type="button" data-board-move="${escapeHtml(c.move)}" title="${escapeHtml(c.said)}">${escapeHtml(c.move)}</button>`).join("");
  const words = list.map((c) => `<li><b>${escapeHtml(c.move)}</b>: ${escapeHtml(c.said)}${c.unseen && c.unseen.length ? ` <span class="dim">(not seen: ${escapeHtml(c.unseen.join(", "))})</span>` : ""}</li>`).join("");
  return `<div class="dim">${escapeHtml(label)}</div><ul class="board-moves">${words}</ul><div class="buttons">${buttons}</div>`;
}

function render(view) {
  if (!box) return;
  const cam = view.board_camera;
  const djambi = view.game && view.game.game === "djambi";
  box.classList.toggle("hidden", !cam || !djambi);
  if (!cam || !djambi) return;
  let html = "";
  if (cam.flag) {
    const f = cam.flag;
    html += `<div class="banner bad" id="board-flag" role="alert">${escapeHtml(f.headline)}`
      + (f.rule ? ` (rule ${escapeHtml(f.rule.id)}, ${escapeHtml(f.rule.source)})` : "")
      + `<div class="sub">${escapeHtml(f.remedy || "")}</div></div>`;
    if (!f.confident) html += `<div class="dim">Some changed squares were hard to read: check the board.</div>`;
    html += ruleLine(f.rule);
    html += `<div class="dim">Changed: ${escapeHtml(f.changes.map((c) => c.text).join("; "))}</div>`;
    // Only a doubtful read may be the camera's mistake; a confident one is the table's to put right.
    if (!f.confident) html += choices(f.closest, "If the camera misread the board, record the move that was played:");
    if (atConsole) html += `<div class="buttons"><button type="button" class="secondary" id="board-dismiss">Dismiss</button></div>`;
  }
  if (cam.question) {
    const q = cam.question;
    html += `<div class="banner warn" id="board-question">Which move was played? ${escapeHtml(q.reason)}</div>`;
    html += choices(q.candidates, "The moves that fit what the camera sees:");
    if (atConsole) html += `<div class="buttons"><button type="button" class="secondary" id="board-dismiss">Dismiss</button></div>`;
  }
  const last = cam.moves.length ? cam.moves[cam.moves.length - 1] : null;
  html += `<div class="dim" id="board-camera-status">Board camera: ${escapeHtml(cam.error || cam.status)}`
    + (last ? ` · last recorded: <b>${escapeHtml(last.move)}</b> (${escapeHtml(last.said)})` : "")
    + (cam.refusal ? ` · not taken: ${escapeHtml(cam.refusal)}` : "") + `</div>`;
  if (atConsole && cam.preview) {
    html += `<details><summary class="dim">What the camera sees</summary><img id="board-camera-img" alt="the board as the camera reads it" src="/api/board-camera/latest.jpg?n=${cam.preview}"></details>`;
  }
  setHTML(box, html);
}

if (box) {
  box.addEventListener("click", (e) => {
    const api = window.refereeApi;
    if (!api) return;
    const move = e.target.closest("[data-board-move]");
    if (move) api("/api/board-camera/choose", { move: move.dataset.boardMove });
    else if (e.target.id === "board-dismiss") api("/api/board-camera/dismiss", {});
  });
  subscribeView(render);
}
