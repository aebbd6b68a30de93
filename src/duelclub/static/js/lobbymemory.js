// The lobby remembers a member's last choices in each game's form (bot level, time per move, rated or casual,
// the game's own options) in this browser, so the next evening's match starts where the last one did.
// Stored under `duelclub.lobby.<game>` as {name: value}; a stored value the form no longer offers is ignored.

const PREFIX = "duelclub.lobby.";

/** The choices to restore: the stored `{name: value}` pairs that the form still offers (`offered`: name →
 *  list of values), as a new object. Anything unreadable is an empty object. */
export function restorable(stored, offered) {
  let saved;
  try {
    saved = typeof stored === "string" ? JSON.parse(stored) : null;
  } catch (_err) {
    return {};
  }
  if (!saved || typeof saved !== "object" || Array.isArray(saved)) return {};
  const out = {};
  for (const [name, value] of Object.entries(saved)) {
    if (typeof value === "string" && (offered[name] || []).includes(value)) out[name] = value;
  }
  return out;
}

/** Restore and then keep remembering the radio choices of one game's `form` (data-game) in `storage`. */
export function rememberChoices(form, storage = globalThis.localStorage) {
  if (!form || !storage) return;
  const key = PREFIX + form.dataset.game;
  const radios = [...form.querySelectorAll('input[type="radio"]')];
  const offered = {};
  for (const r of radios) (offered[r.name] ||= []).push(r.value);
  let saved = {};
  try {
    saved = restorable(storage.getItem(key), offered);
  } catch (_err) {
    saved = {};
  }
  for (const r of radios) if (saved[r.name] === r.value) r.checked = true;
  form.addEventListener("change", () => {
    const now = {};
    for (const r of radios) if (r.checked) now[r.name] = r.value;
    try {
      storage.setItem(key, JSON.stringify(now));
    } catch (_err) {
      /* a full or blocked storage only forgets */
    }
  });
}
