// Djambi at the console: click the piece, its destination, then each follow-up (exit square out
// of the maze, placement square, the reporter's victim or none). Only legal choices are offered:
// they come from the engine's tree of legal moves (summary.legal). The notation can be typed too.
import { el } from "/static/common.js";

const STEP_TEXT = {
  exit: "Click the square the piece leaves the maze to",
  place: "Click where the corpse or the displaced piece goes",
  victim: "Click the reporter's victim",
};
const MOVE = /^([a-i][1-9])-([a-i][1-9])(?:>([a-i][1-9]))?(?:@([a-i][1-9]))?(?:\+([a-i][1-9]))?$/;

function parse(text) {
  const m = MOVE.exec(text);
  return m && { text, from: m[1], to: m[2], exit: m[3] || null, place: m[4] || null, victim: m[5] || null };
}

export function createDjambiConsole(box, picture, submit) {
  let game = null;
  let pick = { from: null, to: null, chosen: {} };
  const status = el("div", { class: "dim", id: "djambi-status" });
  const none = el("button", { type: "button", class: "secondary", id: "djambi-none" }, "No victim");
  const reset = el("button", { type: "button", class: "secondary", id: "djambi-reset" }, "Start the move again");
  const typed = el("input", { type: "text", id: "djambi-typed", placeholder: "or type a move: g1-e1@f2", autocomplete: "off" });
  const send = el("button", { type: "button", id: "djambi-send" }, "Play typed move");
  box.replaceChildren(el("h3", {}, "Move"), status, el("div", { class: "buttons" }, none, reset), el("div", { class: "form" }, typed, send));

  const legal = () => (game && game.summary.legal) || { pieces: {} };
  const remaining = () => {
    const dest = legal().pieces[pick.from]?.to[pick.to];
    if (!dest) return { steps: [], moves: [] };
    const moves = dest.moves.map(parse).filter((m) => Object.entries(pick.chosen).every(([k, v]) => m[k] === v));
    return { steps: dest.steps.filter((s) => !(s in pick.chosen)), moves };
  };

  function highlight(squares, cls) {
    picture.querySelectorAll(`rect.${cls}`).forEach((r) => r.classList.remove(cls));
    for (const sq of squares) picture.querySelector(`#sq-${sq}`)?.classList.add(cls);
  }

  function render() {
    highlight([], "pick");
    highlight(pick.from ? [pick.from] : [], "chosen");
    none.classList.add("hidden");
    if (!game || game.summary.finished) { status.textContent = ""; return; }
    if (!pick.from) {
      highlight(Object.keys(legal().pieces), "pick");
      status.textContent = `${game.summary.turn?.player ?? ""}: click a piece to move`;
      return;
    }
    if (!pick.to) {
      highlight(Object.keys(legal().pieces[pick.from].to), "pick");
      status.textContent = `Click where ${pick.from} goes`;
      return;
    }
    const { steps, moves } = remaining();
    const step = steps[0];
    if (!step || moves.length === 1 && steps.every((s) => moves[0][s] === null)) {
      submit(moves[0].text);
      pick = { from: null, to: null, chosen: {} };
      status.textContent = `played ${moves[0].text}`;
      return;
    }
    highlight([...new Set(moves.map((m) => m[step]).filter(Boolean))], "pick");
    status.textContent = STEP_TEXT[step];
    if (step === "victim" && moves.some((m) => m.victim === null)) none.classList.remove("hidden");
  }

  function choose(square) {
    if (!game) return;
    if (!pick.from) {
      if (legal().pieces[square]) pick.from = square;
    } else if (!pick.to) {
      if (legal().pieces[pick.from].to[square]) pick.to = square;
      else if (legal().pieces[square]) pick.from = square; // another piece of the player
    } else {
      const { steps, moves } = remaining();
      const step = steps[0];
      if (step && moves.some((m) => m[step] === square)) pick.chosen[step] = square;
    }
    render();
  }

  picture.addEventListener("click", (e) => {
    const node = e.target.closest("[data-square]");
    if (node) choose(node.dataset.square);
  });
  none.addEventListener("click", () => { pick.chosen.victim = null; render(); });
  reset.addEventListener("click", () => { pick = { from: null, to: null, chosen: {} }; render(); });
  send.addEventListener("click", () => { if (typed.value.trim()) submit(typed.value.trim()); typed.value = ""; });

  return {
    update(next) {
      const moved = !game || next.summary.plies !== game.summary.plies || next.id !== game.id;
      game = next;
      box.dataset.plies = String(next.summary.plies); // what the board shows, for tests and tools
      if (moved) pick = { from: null, to: null, chosen: {} };
      render();
    },
  };
}
