// Loads a game's renderer module by slug: static/js/<slug>.js exporting createRenderer(ctx) (see match.js).
// A module that exports STYLESHEET = true also gets static/css/<slug>.css linked into the page.

const SLUG = /^[a-z][a-z0-9_]*$/;

/** The renderer module of game `slug`, or null when the slug is malformed or the module fails to load. */
export async function loadGame(slug) {
  if (typeof slug !== "string" || !SLUG.test(slug)) return null;
  let mod;
  try {
    mod = await import(`./${slug}.js`);
  } catch (_err) {
    return null;
  }
  if (mod.STYLESHEET && !document.querySelector(`link[data-game-css="${slug}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `/static/css/${slug}.css`;
    link.dataset.gameCss = slug;
    document.head.append(link);
  }
  return mod;
}
