// The standings page: read-only, refreshed when the live view changes (at most once a second).
import { el, escapeHtml, formatNs, liveView, setHTML, setText } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const wanted = new URLSearchParams(location.search).get("night");
let shown = wanted || "current";
let pending = null;
let lastJson = "";

async function load() {
  pending = null;
  const [list, res] = await Promise.all([fetch("/api/nights").then((r) => r.json()), fetch(`/api/nights/${shown}/standings`)]);
  const pick = $("night-pick");
  const key = JSON.stringify(list.nights);
  if (pick.dataset.key !== key) {
    pick.dataset.key = key;
    pick.replaceChildren(...list.nights.slice().reverse().map((n) => el("option", { value: String(n.id) }, `${n.name}${n.open ? " (open)" : ""}`)));
  }
  $("empty").classList.toggle("hidden", list.nights.length > 0);
  if (!res.ok) return;
  const text = await res.text();
  if (text === lastJson) return; // nothing changed: touch nothing
  lastJson = text;
  render(JSON.parse(text));
}

function render(s) {
  pickValue(String(s.night.id));
  setText($("night-title"), `Standings — ${s.night.name}`);
  document.title = `Standings — ${s.night.name}`;
  const games = s.games;
  const head = `<tr><th>Player</th>${games.map((g) => `<th title="${escapeHtml(g.title)} ${escapeHtml(g.variant)}">#${g.id} ${escapeHtml(g.title)}${g.finished ? "" : " (running)"}</th>`).join("")}<th>Games won</th></tr>`;
  const rows = s.players.map((p) => `<tr data-player="${escapeHtml(p.name)}"><td>${escapeHtml(p.name)}</td>` + games.map((g) => {
    const r = p.results[String(g.id)];
    if (!r) return "<td class=dim>—</td>";
    const score = r.score === null || r.score === undefined ? "" : (typeof r.score === "object" ? JSON.stringify(r.score) : r.score);
    return `<td class="${r.won ? "won" : ""}">${r.won ? "★ " : ""}${escapeHtml(score)}</td>`;
  }).join("") + `<td class="${p.wins ? "won" : ""}">${p.wins}</td></tr>`);
  setHTML($("results"), head + rows.join(""));
  setHTML($("reactions"), s.reaction_svg);
  setHTML($("reaction-table"), `<tr><th>Player</th><th>presses</th><th>best</th><th>median</th><th>first</th><th>close calls won</th><th>lost</th><th>ties</th><th>false starts</th></tr>` +
    s.players.map((p) => `<tr><td>${escapeHtml(p.name)}</td><td>${p.reaction.n}</td><td>${p.reaction.best_ns === null ? "—" : formatNs(p.reaction.best_ns)}</td><td>${p.reaction.median_ns === null ? "—" : formatNs(p.reaction.median_ns)}</td><td>${p.firsts}</td><td>${p.close_wins}</td><td>${p.close_losses}</td><td>${p.ties}</td><td>${p.false_starts}</td></tr>`).join(""));
  setHTML($("tally"), s.tally_svg);
  setText($("calls-title"), `Close calls (won by less than ${formatNs(s.close_call_ns)}) and ties: ${s.close_calls.length}`);
  const calls = $("calls");
  const key = JSON.stringify(s.close_calls);
  if (calls.dataset.key !== key) {
    calls.dataset.key = key;
    calls.replaceChildren(...s.close_calls.slice().reverse().map((c) => {
      const title = games.find((g) => g.id === c.game_id);
      const what = c.tie ? `tie: ${c.first.join(" & ")}` : `${c.first[0]} by ${formatNs(c.margin_ns)} over ${c.second.join(" & ")}`;
      const b = el("button", { type: "button", "data-call": `${c.game_id}/${c.event}` }, `#${c.game_id} ${title ? title.title : ""} · ${c.label} — ${what}`);
      b.addEventListener("click", () => replay(s.night.id, c, b));
      return b;
    }));
  }
  for (const kind of ["jsonl", "pdf"]) $(`export-${kind}`).href = `/api/nights/${s.night.id}/export.${kind}`;
}

async function replay(nightId, call, button) {
  const svg = await fetch(`/api/nights/${nightId}/close-calls/${call.game_id}/${call.event}.svg`).then((r) => r.text());
  document.querySelectorAll(".calls button.open").forEach((b) => b.classList.remove("open"));
  button.classList.add("open");
  const box = $("replay");
  box.innerHTML = svg; // a fresh copy each time, so the appearance animation plays again
  box.dataset.call = `${call.game_id}/${call.event}`;
  box.querySelectorAll("circle, text, line").forEach((n, i) => { n.style.animationDelay = `${i * 0.12}s`; });
  box.scrollIntoView({ block: "nearest" });
}

function pickValue(v) { if ($("night-pick").value !== v) $("night-pick").value = v; }
$("night-pick").addEventListener("change", (e) => { shown = e.target.value; lastJson = ""; history.replaceState(null, "", `?night=${shown}`); load(); });

liveView(() => { if (!pending) pending = setTimeout(load, 800); });
load();
