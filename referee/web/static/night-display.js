// Game night on the display: seating by pressing, why the last verdict, how to play, links.
// Listens to the live view that common.js announces ("referee:view"); changes the page only
// where its content changed (no flicker).
import { el, escapeHtml, setHTML, setText, subscribeView } from "/static/common.js";
import { seatChip } from "/static/night-common.js";

const main = document.querySelector("main");
const seatingBox = el("section", { id: "seating", class: "panel seating hidden", "aria-live": "assertive" },
  el("div", { class: "prompt", id: "seat-prompt" }),
  el("div", { class: "sub", id: "seat-sub" }),
  el("ul", { class: "seat-list", id: "seat-list" }),
  el("div", { class: "note", id: "seat-note" }),
  el("ul", { class: "hints hidden", id: "seat-hints" }));
main.insertBefore(seatingBox, document.getElementById("call"));

// "Why" and "how to play" sit beside the scores: on the TV they are seen without scrolling.
const side = document.getElementById("scores").closest(".panel");
const codes = side.querySelector(".qr-row");
side.insertBefore(el("div", { id: "why", class: "why hidden", "aria-live": "polite" }), codes);
side.insertBefore(el("details", { id: "howto", class: "howto hidden" }, el("summary", { id: "howto-title" }), el("div", { id: "howto-body" })),
  codes);
const help = el("section", { id: "night-help", class: "panel" },
  el("div", { class: "night-links" },
    el("a", { href: "/night", id: "standings-link" }, "Standings of the night"),
    el("a", { href: "/help" }, "How to play every game"),
    el("span", { id: "night-name", class: "dim" })));
main.append(help);

let howtoGame = null;

function renderSeating(seating) {
  document.body.classList.toggle("seating-on", !!seating);
  seatingBox.classList.toggle("hidden", !seating);
  if (!seating) return;
  setText(document.getElementById("seat-prompt"), seating.prompt);
  setText(document.getElementById("seat-sub"), `${seating.title} · ${seating.variant} — ` +
    (seating.done ? "the scorekeeper starts the game" : `each player in turn presses their own button (${seating.timeout_s} s each)`));
  setHTML(document.getElementById("seat-list"), seating.players.map((p) =>
    `<li class="${p.asked ? "asked" : ""} ${p.silent ? "silent" : ""}" data-player="${escapeHtml(p.name)}">${seatChip(p.button)}${escapeHtml(p.name)}${p.silent ? " — no answer" : ""}</li>`).join(""));
  setText(document.getElementById("seat-note"), seating.note || "");
  const hints = [...seating.held, ...(seating.silent.length ? [`No press came for ${seating.silent.join(", ")}. The buttons still free:`] : []), ...seating.hints];
  const box = document.getElementById("seat-hints");
  box.classList.toggle("hidden", !hints.length);
  setHTML(box, hints.map((h) => `<li>${escapeHtml(h)}</li>`).join(""));
}

function renderWhy(night) {
  const why = document.getElementById("why");
  const verdicts = night.why || [];
  why.classList.toggle("hidden", !verdicts.length);
  setHTML(why, verdicts.length ? "<h2>Why — the rule behind the last verdict</h2>" + verdicts.map((v) =>
    `<div class="rule-card" data-rule="${escapeHtml(v.rule.id)}"><b>${escapeHtml(v.summary)}</b>` +
    `<blockquote>“${escapeHtml(v.rule.text)}”</blockquote>` +
    `<div class="src">${escapeHtml(v.rule.source)} · rule ${escapeHtml(v.rule.id)}</div></div>`).join("") : "");
}

function renderHowto(night, game) {
  const details = document.getElementById("howto");
  const h = night.howto;
  details.classList.toggle("hidden", !h);
  if (!h) { howtoGame = null; return; }
  if (howtoGame !== (game && game.id)) {
    // A new game opens its how-to until the first verdict; afterwards people open it themselves.
    howtoGame = game && game.id;
    details.open = !(night.why || []).length;
  }
  setText(document.getElementById("howto-title"), `How to play ${h.title} (${h.players})`);
  setHTML(document.getElementById("howto-body"), `<div class="goal">${escapeHtml(h.goal)}</div><ol>` +
    h.steps.map((s) => `<li>${escapeHtml(s)}</li>`).join("") + `</ol><div class="dim">${escapeHtml(h.source)}</div>`);
}

subscribeView((view) => {
  renderSeating(view.seating);
  if (!view.night) return;
  renderWhy(view.night);
  renderHowto(view.night, view.game);
  setText(document.getElementById("night-name"), view.night.name ? `${view.night.name}${view.night.open ? "" : " (closed)"}` : "");
});
