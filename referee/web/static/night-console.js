// Game night on the console: seat players by pressing, arrange them clockwise, and the night
// (open/close, spoken verdicts, close-call margin, exports). Uses console.js's api (token).
import { el, escapeHtml, setHTML, setText, subscribeView } from "/static/common.js";
import { seatChip } from "/static/night-common.js";

const api = (path, body) => window.refereeApi(path, body);
const layout = document.querySelector(".layout");

// -- seating -----------------------------------------------------------------------------------
const seatPanel = el("section", { id: "seating-panel", class: "panel hidden" },
  el("h2", { id: "sp-title" }, "Seating"),
  el("p", { id: "sp-prompt", class: "dim" }),
  el("div", { id: "sp-rows", class: "seat-rows" }),
  el("p", { id: "sp-note", class: "dim" }),
  el("ul", { id: "sp-hints", class: "hints hidden" }),
  el("div", { class: "row" },
    el("button", { id: "sp-sort", type: "button", class: "secondary" }, "Order by button number"),
    el("button", { id: "sp-start", type: "button" }, "Start the game"),
    el("button", { id: "sp-cancel", type: "button", class: "danger" }, "Cancel seating")));
layout.parentNode.insertBefore(seatPanel, layout);
let order = [];

document.getElementById("sp-sort").addEventListener("click", () => api("/api/seating/step", { do: "sort" }));
document.getElementById("sp-start").addEventListener("click", () => api("/api/seating/finish"));
document.getElementById("sp-cancel").addEventListener("click", () => api("/api/seating/cancel"));
document.getElementById("sp-rows").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-do]");
  if (!b) return;
  const name = b.dataset.name, at = order.indexOf(name);
  if (b.dataset.do === "up") api("/api/seating/step", { do: "move", name, to: at - 1 });
  else if (b.dataset.do === "down") api("/api/seating/step", { do: "move", name, to: at + 1 });
  else api("/api/seating/step", { do: "retry", name });
});

function renderSeating(s) {
  seatPanel.classList.toggle("hidden", !s);
  if (!s) return;
  order = s.players.map((p) => p.name);
  setText(document.getElementById("sp-title"), `Seating — ${s.title} (${s.variant})`);
  setText(document.getElementById("sp-prompt"), s.done
    ? "Everyone has a button. Put the players in clockwise order round the table, then start."
    : `The display asks: “${s.prompt}”. Use ↑ ↓ to match the clockwise seating.`);
  setHTML(document.getElementById("sp-rows"), s.players.map((p, i) =>
    `<div class="seat-row" data-player="${escapeHtml(p.name)}">${seatChip(p.button)}<span>${i + 1}. ${escapeHtml(p.name)}${p.asked ? " — pressing now" : ""}${p.silent ? " — no answer" : ""}</span>` +
    `<button type="button" class="secondary" data-do="up" data-name="${escapeHtml(p.name)}" aria-label="move ${escapeHtml(p.name)} up" ${i === 0 ? "disabled" : ""}>↑</button>` +
    `<button type="button" class="secondary" data-do="down" data-name="${escapeHtml(p.name)}" aria-label="move ${escapeHtml(p.name)} down" ${i === s.players.length - 1 ? "disabled" : ""}>↓</button>` +
    `<button type="button" class="secondary" data-do="retry" data-name="${escapeHtml(p.name)}">${p.button ? "Again" : "Ask"}</button></div>`).join(""));
  setText(document.getElementById("sp-note"), s.note || "");
  const hints = [...s.held, ...s.hints];
  document.getElementById("sp-hints").classList.toggle("hidden", !hints.length);
  setHTML(document.getElementById("sp-hints"), hints.map((h) => `<li>${escapeHtml(h)}</li>`).join(""));
  document.getElementById("sp-start").disabled = !s.done;
}

// The new-game form gets a second way to start: players claim their seats by pressing.
const form = document.getElementById("new-game");
const seatButton = el("button", { type: "button", id: "ng-seat" }, "Seat players by pressing their buttons");
form.querySelector("button[type=submit]").before(seatButton);
form.querySelector("button[type=submit]").textContent = "Start game (buttons 1, 2, … in list order)";
form.querySelector("button[type=submit]").classList.add("secondary");
seatButton.addEventListener("click", () => {
  const players = document.getElementById("ng-players").value.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
  const options = {};
  for (const node of document.getElementById("ng-options").querySelectorAll("[name^='opt:']")) {
    try { options[node.name.slice(4)] = JSON.parse(node.value); } catch { options[node.name.slice(4)] = node.value; }
  }
  api("/api/seating", { game: document.getElementById("ng-game").value, variant: document.getElementById("ng-variant").value, players, options });
});

// -- the night ---------------------------------------------------------------------------------
const nightPanel = el("div", { id: "night-panel" },
  el("h2", {}, "The night"),
  el("p", { id: "np-name" }),
  el("div", { class: "row" },
    el("label", {}, "Spoken verdicts",
      el("select", { id: "np-speech" }, el("option", { value: "off" }, "off"), el("option", { value: "en" }, "English"), el("option", { value: "fr" }, "Français"))),
    el("label", {}, "Close call under (ms)", el("input", { id: "np-close", type: "number", min: "0.1", step: "0.1", inputmode: "decimal" })),
    el("label", { class: "check" }, el("input", { id: "np-tones", type: "checkbox" }), "Tones")),
  el("div", { class: "row" },
    el("button", { id: "np-test", type: "button", class: "secondary" }, "Test the sound"),
    el("button", { id: "np-close-night", type: "button", class: "secondary" }, "Close the night")),
  el("div", { class: "row" },
    el("label", {}, "New night", el("input", { id: "np-new-name", type: "text", placeholder: "Game night at Anne's", autocomplete: "off" })),
    el("button", { id: "np-open", type: "button", class: "secondary" }, "Open a new night")),
  el("p", { id: "np-sound", class: "dim" }),
  el("div", { class: "night-links" },
    el("a", { href: "/night", target: "_blank" }, "Standings"),
    el("a", { id: "np-jsonl", href: "#" }, "Night file (JSON Lines)"),
    el("a", { id: "np-pdf", href: "#", target: "_blank" }, "Printable summary (PDF)"),
    el("a", { id: "np-png", href: "#", target: "_blank" }, "(PNG)"),
    el("a", { href: "/help", target: "_blank" }, "How to play")));
document.getElementById("games").parentNode.append(nightPanel);
let nightId = null;

const setting = (changes) => api(`/api/nights/${nightId ?? "current"}/settings`, changes);
document.getElementById("np-speech").addEventListener("change", (e) => setting({ speech: e.target.value }));
document.getElementById("np-tones").addEventListener("change", (e) => setting({ tones: e.target.checked }));
document.getElementById("np-close").addEventListener("change", (e) => setting({ close_call_ms: Number(e.target.value) }));
document.getElementById("np-test").addEventListener("click", async () => {
  const r = await api("/api/sound/test");
  setText(document.getElementById("np-sound"), r.enabled ? `Played on ${r.output}${r.said ? `: “${r.said}”` : ""}` : "No audio output on the referee (install alsa-utils).");
});
document.getElementById("np-close-night").addEventListener("click", () => api("/api/nights/close"));
document.getElementById("np-open").addEventListener("click", () => api("/api/nights", { name: document.getElementById("np-new-name").value }));

function renderNight(night) {
  nightId = night.id;
  setText(document.getElementById("np-name"), night.name ? `${night.name} — ${night.open ? "open: new games join it" : "closed: the next game opens a new night"}` : "No night yet: the first game opens one.");
  const speech = document.getElementById("np-speech"), close = document.getElementById("np-close"), tones = document.getElementById("np-tones");
  if (document.activeElement !== speech) speech.value = night.settings.speech;
  if (document.activeElement !== close) close.value = String(night.settings.close_call_ms);
  tones.checked = night.settings.tones;
  document.getElementById("np-close-night").disabled = !night.open;
  for (const kind of ["jsonl", "pdf", "png"]) document.getElementById(`np-${kind}`).href = night.id ? `/api/nights/${night.id}/export.${kind}` : "#";
}

subscribeView((view) => {
  renderSeating(view.seating);
  if (view.night) renderNight(view.night);
});
