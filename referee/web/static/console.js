// The scorekeeper's console: every action carries the token; forms come from the game's actions.
import { el, escapeHtml, liveView, setHTML, setText, verdictLines } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.get("token")) {
  localStorage.setItem("refereeToken", params.get("token"));
  history.replaceState(null, "", location.pathname);
}
const token = localStorage.getItem("refereeToken") || "";
$("no-token").classList.toggle("hidden", !!token);
let current = null;
let known = [];

function showError(message) {
  $("error").classList.toggle("hidden", !message);
  setText($("error"), message || "");
}

export async function api(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Referee-Token": token },
    body: JSON.stringify(body || {}),
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) {
    const rule = data.rule ? ` (${data.rule.source}: “${data.rule.text}”)` : "";
    showError(`${data.error || res.statusText}${rule}`);
    throw new Error(data.error);
  }
  showError("");
  return data;
}
window.refereeApi = api;

$("arm").addEventListener("click", () => api("/api/contest/arm"));
$("cancel").addEventListener("click", () => api("/api/contest/cancel", { reason: "cancelled by the scorekeeper" }));
$("undo").addEventListener("click", () => current && current.game && api(`/api/games/${current.game.id}/events`, { type: "undo" }));

function choiceValue(c) { return typeof c === "object" && c !== null ? c.value : c; }
function choiceLabel(c) { return typeof c === "object" && c !== null ? (c.label ?? String(c.value)) : String(c); }

function fieldInput(field, players) {
  const name = field.name;
  const choices = field.kind === "seat" || field.kind === "seats" ? (field.choices.length ? field.choices : players) : field.choices;
  if (field.kind === "choice" || field.kind === "seat") {
    const select = el("select", { name, "data-kind": field.kind });
    if (!field.required) select.append(el("option", { value: "" }, "—"));
    choices.forEach((c, i) => select.append(el("option", { value: String(i), selected: field.default !== null && JSON.stringify(choiceValue(c)) === JSON.stringify(field.default) }, choiceLabel(c))));
    select._choices = choices;
    return el("label", {}, field.label, select);
  }
  if (field.kind === "choices" || field.kind === "seats") {
    // "seats" is an ordered pick: the order players are ticked in is the order sent.
    const box = el("fieldset", { "data-name": name, "data-kind": field.kind }, el("legend", {}, field.label));
    box._choices = choices;
    box._order = [];
    const marks = [];
    const renumber = () => marks.forEach((m, i) => { const at = box._order.indexOf(i); m.textContent = at < 0 ? "" : ` (${at + 1})`; });
    choices.forEach((c, i) => {
      const mark = el("span", { class: "dim" });
      marks.push(mark);
      const input = el("input", { type: "checkbox", value: String(i) });
      input.addEventListener("change", () => {
        box._order = box._order.filter((x) => x !== i);
        if (input.checked) box._order.push(i);
        if (field.kind === "seats") renumber();
      });
      box.append(el("label", {}, input, choiceLabel(c), mark));
      if (Array.isArray(field.default) && field.default.some((d) => JSON.stringify(d) === JSON.stringify(choiceValue(c)))) {
        input.checked = true;
      }
    });
    // Defaults are picked in the order given.
    if (Array.isArray(field.default)) {
      box._order = field.default.map((d) => choices.findIndex((c) => JSON.stringify(choiceValue(c)) === JSON.stringify(d))).filter((i) => i >= 0);
      if (field.kind === "seats") renumber();
    }
    return box;
  }
  if (field.kind === "bool") return el("label", { class: "check" }, el("input", { type: "checkbox", name, "data-kind": "bool", checked: !!field.default }), field.label);
  if (field.kind === "seed") {
    const seed = field.default ?? Math.floor(Math.random() * 1_000_000);
    return el("label", {}, field.label, el("input", { type: "number", name, "data-kind": "int", value: seed, required: field.required }));
  }
  if (field.kind === "int") return el("label", {}, field.label, el("input", { type: "number", name, "data-kind": "int", value: field.default ?? "", required: field.required }));
  return el("label", {}, field.label, el("input", { type: "text", name, "data-kind": "text", value: field.default ?? "", required: field.required, autocomplete: "off" }));
}

function readForm(form, action) {
  const event = { type: action.type, ...action.fixed };
  for (const node of form.querySelectorAll("[data-kind]")) {
    const kind = node.dataset.kind;
    const name = node.name || node.dataset.name;
    if (kind === "choice" || kind === "seat") { if (node.value !== "") event[name] = choiceValue(node._choices[Number(node.value)]); }
    else if (kind === "choices" || kind === "seats") event[name] = node._order.map((i) => choiceValue(node._choices[i]));
    else if (kind === "bool") event[name] = node.checked;
    else if (kind === "int") { if (node.value !== "") event[name] = Number(node.value); }
    else if (node.value !== "" || action.fields.find((f) => f.name === name)?.required) event[name] = node.value;
  }
  return event;
}

function renderActions(game) {
  const key = JSON.stringify([game.id, game.actions]);
  const box = $("actions");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...game.actions.map((action) => {
    const form = el("form", { class: "action", "data-action": action.type });
    if (action.help) form.append(el("div", { class: "dim" }, action.help));
    action.fields.forEach((f) => form.append(fieldInput(f, game.players)));
    form.append(el("button", { type: "submit" }, action.label));
    form.addEventListener("submit", (e) => { e.preventDefault(); api(`/api/games/${game.id}/events`, readForm(form, action)); });
    return form;
  }));
}

// Games with a board get a click-by-click move panel instead of a long list of moves.
const boards = { djambi: () => import("/static/games/djambi.js").then((m) => m.createDjambiConsole) };
let board = null;
async function renderBoard(game) {
  const key = game ? `${game.id}:${game.game}` : "";
  if (!game || !boards[game.game]) {
    $("board").replaceChildren();
    board = null;
    $("actions").after($("picture")); // pictures follow the forms
    return false;
  }
  $("board").before($("picture")); // a board game is played on its picture
  if (!board || board.key !== key) {
    const create = await boards[game.game]();
    board = create($("board"), $("picture"), (move) => api(`/api/games/${game.id}/events`, { type: "move", move }));
    board.key = key;
  }
  board.update(game);
  return true;
}

function render(view) {
  current = view;
  $("journal-error").classList.toggle("hidden", view.journal.ok);
  setText($("journal-error"), view.journal.ok ? "" : "The journal cannot be written; inputs are refused: " + view.journal.error);
  const game = view.game;
  setText($("game-title"), game ? `${game.title} (${game.variant}) — ${game.players.join(", ")}` : "No game");
  const running = view.contest.running;
  $("contest-box").classList.toggle("hidden", !game);
  $("arm").disabled = !game || !game.contest || !!running;
  $("cancel").disabled = !running;
  $("undo").disabled = !game || !game.can_undo || !!running;
  setText($("contest-label"), running ? `${running.phase === "called" ? "Called" : "Armed"}: ${running.label}` : game && game.contest ? `Next contest: ${game.contest.label}` : "");
  const lines = verdictLines(view.contest.last);
  setHTML($("last-verdict"), lines ? `<p><b>${escapeHtml(lines.head)}</b> ${escapeHtml(lines.sub)}<br><span class="dim">${escapeHtml(lines.rule)}</span></p>` : "");
  if (game) renderActions(game); else $("actions").replaceChildren();
  setHTML($("picture"), game ? game.svg : "");
  renderBoard(game);
  const verdicts = game ? game.summary.verdicts.slice(-30).reverse() : [];
  setHTML($("verdicts"), verdicts.map((v) => `<div>${escapeHtml(v.summary)} <span class="dim">— ${escapeHtml(v.rule.source)}</span></div>`).join(""));
  const list = $("games");
  const gkey = JSON.stringify([view.games, game && game.id]);
  if (list.dataset.key !== gkey) {
    list.dataset.key = gkey;
    list.replaceChildren(...view.games.slice().reverse().map((g) => el("div", {},
      el("button", { class: "secondary", type: "button", onclick: () => api(`/api/games/${g.id}/select`) }, g.id === (game && game.id) ? "● " : "Show"),
      ` #${g.id} ${g.title}: ${g.players.join(", ")}${g.finished ? " (finished)" : ""}`)));
  }
  $("record").href = game ? `/api/games/${game.id}/record.jsonl` : "#";
}

function renderOptions() {
  const spec = known.find((k) => k.game === $("ng-game").value);
  if (!spec) return;
  $("ng-variant").replaceChildren(...spec.variants.map((v) => el("option", { value: v }, v)));
  $("ng-options").replaceChildren(...spec.options.map((o) => {
    if (o.choices.length) {
      const s = el("select", { name: "opt:" + o.name }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === o.default }, String(c))));
      return el("label", { title: o.doc }, `${o.name} — ${o.doc}`, s);
    }
    return el("label", { title: o.doc }, `${o.name} — ${o.doc}`, el("input", { name: "opt:" + o.name, value: JSON.stringify(o.default) }));
  }));
}
$("ng-game").addEventListener("change", renderOptions);
$("new-game").addEventListener("submit", (e) => {
  e.preventDefault();
  const players = $("ng-players").value.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
  const options = {};
  for (const node of $("ng-options").querySelectorAll("[name^='opt:']")) {
    try { options[node.name.slice(4)] = JSON.parse(node.value); } catch { options[node.name.slice(4)] = node.value; }
  }
  api("/api/games", { game: $("ng-game").value, variant: $("ng-variant").value, players, options });
});

fetch("/api/known-games").then((r) => r.json()).then((list) => {
  known = list;
  $("ng-game").replaceChildren(...list.map((k) => el("option", { value: k.game }, k.title)));
  renderOptions();
});
if (token) {
  fetch("/api/qr/console.svg", { headers: { "X-Referee-Token": token } }).then((r) => r.ok ? r.text() : "").then((svg) => setHTML($("qr"), svg));
}
liveView(render);
