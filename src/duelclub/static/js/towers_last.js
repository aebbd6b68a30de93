// «Последний ход соперника» in Дві вежі (rules/towers.md §8.3): which cards to show for a seat.
// The view's `last[seat]` is the seat's current turn so far while it is to move, so it is empty exactly while
// the reader waits for that seat's first card of the turn; the public `history` still holds the turn before.

/**
 * The cards to show for `seat`: `{cards: [{card, tag}], previous}` — the seat's most recent turn from
 * `view.last`, or, while the seat is to move and has played nothing yet this turn, its previous turn (the
 * newest run of its entries in `view.history`, `[seat, card, tag]` oldest first) with `previous` true.
 * Empty `cards` before the seat's first turn.
 */
export function lastTurn(view, seat) {
  const now = (view.last && view.last[seat]) || [];
  if (now.length || view.active !== seat) return { cards: now, previous: false };
  const hist = view.history || [];
  let i = hist.length - 1;
  while (i >= 0 && hist[i][0] !== seat) i -= 1;
  const end = i;
  while (i >= 0 && hist[i][0] === seat) i -= 1;
  const cards = hist.slice(i + 1, end + 1).map(([, card, tag]) => ({ card, tag }));
  return { cards, previous: cards.length > 0 };
}
