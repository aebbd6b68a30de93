// The games of an arena as its page lists them (issue 26 §Pages), pure: no DOM, so node --test runs it
// (tests/js/). An arena pairs players as they come free, so its games are one stream, not rounds: one list,
// most recent first, the newest ARENA_SHOWN in view and the rest folded («Ещё N партий»). A 5-minute arena of
// 5 players had 214 pairing waves, drawn as 214 «Пары N» sections: a phone page 30,817 px tall.
import { tn } from "./i18n.js";

/** Games an arena's page shows unfolded. */
export const ARENA_SHOWN = 20;

/** An arena's `rounds` (the API's pairing waves, each `{number, pairings}`) as one list, most recent first
 * (the later wave first; within a wave the later board first): `{recent, older}`, the newest `shown` games
 * and the rest. */
export function arenaGames(rounds, shown = ARENA_SHOWN) {
  const all = [...rounds].sort((a, b) => b.number - a.number).flatMap((r) => [...r.pairings].reverse());
  return { recent: all.slice(0, shown), older: all.slice(shown) };
}

/** The fold's summary: «Ещё 194 партии». */
export function olderGamesText(n) {
  return tn(n, "Ещё {n} партия", "Ещё {n} партии", "Ещё {n} партий", { n });
}
