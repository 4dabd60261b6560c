// Shared by the display and the console: the live view over server-sent events.
"use strict";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c.nodeType ? c : String(c));
  return node;
}

export function formatNs(ns) {
  if (ns >= 1e9) return (ns / 1e9).toFixed(2) + " s";
  if (ns >= 1e6) return (ns / 1e6).toFixed(1) + " ms";
  if (ns >= 1e3) return Math.round(ns / 1e3) + " µs";
  return ns + " ns";
}

// Replace a node's content only when it changed: no flicker on updates.
export function setHTML(node, html) {
  if (node.dataset.html !== html) { node.innerHTML = html; node.dataset.html = html; }
}
// Replace an SVG picture, letting pieces that kept their id glide to their new place: each one
// starts from its old style (transform) and a CSS transition in the picture carries it over.
export function morphHTML(node, html) {
  if (node.dataset.html === html) return;
  const before = new Map();
  node.querySelectorAll("[id][style]").forEach((e) => before.set(e.id, e.getAttribute("style")));
  node.innerHTML = html;
  node.dataset.html = html;
  const moved = [];
  node.querySelectorAll("[id][style]").forEach((e) => {
    const old = before.get(e.id);
    if (old !== undefined && old !== e.getAttribute("style") && old.includes("transform")) {
      moved.push([e, e.getAttribute("style")]);
      e.setAttribute("style", old);
    }
  });
  if (moved.length) {
    node.getBoundingClientRect(); // commit the old places before moving
    requestAnimationFrame(() => moved.forEach(([e, style]) => e.setAttribute("style", style)));
  }
}
export function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

// A panel's renderer: called with the newest view now (if one came already) and on every change,
// so a module that loads after the first message still shows it.
export function subscribeView(render) {
  if (window.refereeView) render(window.refereeView);
  window.addEventListener("referee:view", (e) => render(e.detail));
}

export function liveView(onView) {
  let source = null;
  const connect = () => {
    source = new EventSource("/api/stream");
    source.onmessage = (msg) => {
      const view = JSON.parse(msg.data);
      window.refereeView = view; // for panels that load after the first view arrived
      onView(view);
      window.dispatchEvent(new CustomEvent("referee:view", { detail: view })); // night.js panels
    };
    source.onerror = () => { source.close(); setTimeout(connect, 1000); };
  };
  connect();
}

export function verdictLines(last) {
  // A verdict for people: who, by how much, and the rule that decided it.
  if (!last) return null;
  if (last.void) return { head: "Contest voided", sub: last.void, rule: "" };
  const v = last.verdict;
  if (!v) return null;
  const first = v.ranking[0] || [];
  let head = "No valid press", sub = "";
  if (first.length > 1) { head = "Tie: " + first.join(" & "); sub = "within the tie window of " + formatNs(v.tie_window_ns); }
  else if (first.length === 1) {
    head = first[0];
    sub = v.margins_ns.length ? "by " + formatNs(v.margins_ns[0]) + " over " + v.ranking[1].join(" & ") : "nobody else pressed";
  }
  const games = (last.game_verdicts || []).map((g) => g.summary).join(" · ");
  const fouls = v.false_starts.length ? " · false start: " + v.false_starts.join(", ") : "";
  const held = v.held_at_arm.length ? " · held at arm: " + v.held_at_arm.join(", ") : "";
  return { head, sub: sub + fouls + held, rule: "timing rule " + v.rule + " (tie window " + formatNs(v.tie_window_ns) + ")" + (games ? " — " + games : ""), error: last.error };
}

export function renderScores(table, scores) {
  const rows = Object.entries(scores || {}).map(([name, value]) =>
    `<tr><td>${escapeHtml(name)}</td><td class="num">${escapeHtml(typeof value === "object" ? JSON.stringify(value) : value)}</td></tr>`);
  setHTML(table, rows.join(""));
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
