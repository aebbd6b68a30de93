// The club's games in the page language, as the server words them (duelclub.words): base.html carries
// [{slug, title}] in lobby order as JSON in <template id="games-info"> (read once per page load).
// Result reasons come worded with each result (`result.reason_text`), catalogs from GET /api/games.
const NODE = typeof document !== "undefined" ? document.getElementById("games-info") : null;

function read() {
  try {
    const data = JSON.parse((NODE && (NODE.content ? NODE.content.textContent : NODE.textContent)) || "[]");
    return Array.isArray(data) ? data : [];
  } catch (_err) {
    return [];
  }
}

/** The games, in lobby order: [{slug, title}]. */
export const GAMES = read();
const TITLES = new Map(GAMES.map((g) => [g.slug, g.title]));

/** A game's title in the page language; the slug for a game the page does not know. */
export const gameTitle = (slug) => TITLES.get(slug) || slug || "";
