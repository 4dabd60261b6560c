// The dice camera's latest read, on the display and the console: the crop with the read drawn
// on it, the letters, and at the console the doubts and "Use this roll" (the scorekeeper's
// confirmation when the read is not certain, or when the game was not waiting for dice).
import { escapeHtml, setHTML, subscribeView } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const accept = $("camera-accept");

function describe(read) {
  const letters = ["green", "white", "yellow", "red", "blue"].map((c) => `<span class="die die-${c}">${escapeHtml(read.letters[c] ?? "?")}</span>`).join("");
  const colour = read.colour ? `colour die: <b>${escapeHtml(read.colour)}</b>` : "colour die: ?";
  const theme = read.theme != null ? ` · theme ${escapeHtml(read.theme)}` : "";
  const doubt = read.certain ? "" : `<div class="banner warn">Not sure: ${escapeHtml((read.doubts || []).join("; ") || "low confidence")} — check the dice.</div>`;
  return `<div class="dice-row">${letters}</div><div>${colour}${theme} · confidence ${Number(read.confidence ?? 0).toFixed(2)}</div>${doubt}`;
}

subscribeView((view) => {
  const cam = view.camera;
  const box = $("camera");
  if (!box) return;
  box.classList.toggle("hidden", !cam || !cam.latest);
  if (!cam || !cam.latest) return;
  const latest = cam.latest;
  const img = $("camera-img");
  const src = `/api/camera/latest.jpg?roll=${latest.number}`;
  if (img.getAttribute("src") !== src) img.setAttribute("src", src);
  let status = "";
  if (latest.used) status = `<div class="dim">roll ${latest.number}: these are the round's dice (${latest.used === "auto" ? "read with certainty" : "confirmed by the scorekeeper"})</div>`;
  else if (latest.refusal) status = `<div class="dim">roll ${latest.number} not used: ${escapeHtml(latest.refusal)}</div>`;
  setHTML($("camera-read"), describe(latest.read) + status);
  if (accept) {
    accept.disabled = !!latest.used || !cam.waiting_for_dice || !latest.event;
  }
});

if (accept) {
  accept.addEventListener("click", () => window.refereeApi && window.refereeApi("/api/camera/accept", {}));
}
