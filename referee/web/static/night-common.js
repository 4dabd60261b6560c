// Small pieces shared by the game-night pages.
export function seatChip(button) {
  return button ? `<span class="chip seat-c${(button - 1) % 8 + 1}">${button}</span>` : `<span class="chip none">?</span>`;
}
