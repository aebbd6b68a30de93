// Commit–reveal scheme duelclub/v1 in the browser (shared/rules/fairness.md), independent of the server:
// SHA-256 from crypto.subtle, plain 32-bit arithmetic on Numbers (no BigInt). Pure: no DOM, no fetch.
//
//   const S = hexToBytes(serverSeedHex);
//   await commitment(S, matchId)            → "45f1…" (64 hex)
//   const K = await matchKey(S, matchId, a, b)  → Uint8Array(32)
//   const st = new Stream(K);
//   await st.randint(2); await st.shuffled([1, 2, 3]);
//   await redraw(K, [{bound: 2, value: 1}, …])  → {ok, checked, words, at, computed}
//
// Errors: a malformed seed or id throws Error; a browser without crypto.subtle (plain http off localhost)
// throws Error with code "no_subtle".

export const SCHEME = "duelclub/v1";
const TWO_32 = 4294967296; // 2**32, exact in a double
const CLIENT_SEED = /^[0-9a-f]{0,64}$/;
const encoder = new TextEncoder();

/** Bytes from an even-length hex string (either case); throws Error on anything else. */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error("not a hex string");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lowercase hex of a byte array. */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function subtle() {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) {
    const err = new Error("crypto.subtle is unavailable (the page needs HTTPS or localhost)");
    err.code = "no_subtle";
    throw err;
  }
  return s;
}

/** SHA-256 of the concatenated parts (Uint8Array or string, strings as UTF-8) → Uint8Array(32). */
export async function sha256(...parts) {
  const chunks = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
  const data = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return new Uint8Array(await subtle().digest("SHA-256", data));
}

const NUL = new Uint8Array([0]);

function checkSeedAndId(serverSeed, matchId) {
  if (!(serverSeed instanceof Uint8Array) || serverSeed.length !== 32) {
    throw new Error("the server seed must be 32 bytes");
  }
  if (typeof matchId !== "string" || matchId.includes("\0")) throw new Error("bad match id");
}

/** C = hex(SHA-256("duelclub/v1/commit" ‖ 0x00 ‖ S ‖ 0x00 ‖ G)); S: Uint8Array(32), G: the match id. */
export async function commitment(serverSeed, matchId) {
  checkSeedAndId(serverSeed, matchId);
  return bytesToHex(await sha256("duelclub/v1/commit", NUL, serverSeed, NUL, matchId));
}

/** K = SHA-256("duelclub/v1/key" ‖ 0 ‖ S ‖ 0 ‖ G ‖ 0 ‖ a ‖ 0 ‖ b) → Uint8Array(32).
 *  a, b: the client seeds of seat 0 and seat 1 (0–64 lowercase hex; "" when none). */
export async function matchKey(serverSeed, matchId, a = "", b = "") {
  checkSeedAndId(serverSeed, matchId);
  for (const s of [a, b]) {
    if (typeof s !== "string" || !CLIENT_SEED.test(s)) throw new Error("client seeds are 0-64 lowercase hex");
  }
  return sha256("duelclub/v1/key", NUL, serverSeed, NUL, matchId, NUL, a, NUL, b);
}

/** The match stream: blocks SHA-256(K ‖ u64be(i)), read as consecutive 32-bit big-endian words.
 *  Every method is async (crypto.subtle is); use one call at a time. `position` counts words read. */
export class Stream {
  constructor(key) {
    if (!(key instanceof Uint8Array) || key.length !== 32) throw new Error("the stream key must be 32 bytes");
    this.key = key;
    this.block = 0;
    this.buf = null; // DataView of the current block
    this.at = 0; // byte offset into buf
    this.position = 0;
  }

  /** The next word, 0 ≤ w < 2**32. */
  async word() {
    if (this.buf === null || this.at >= 32) {
      const counter = new Uint8Array(8);
      const view = new DataView(counter.buffer);
      view.setUint32(0, Math.floor(this.block / TWO_32));
      view.setUint32(4, this.block >>> 0);
      const digest = await sha256(this.key, counter);
      this.buf = new DataView(digest.buffer);
      this.at = 0;
      this.block += 1;
    }
    const w = this.buf.getUint32(this.at, false);
    this.at += 4;
    this.position += 1;
    return w;
  }

  /** Uniform in [0, n) by rejection: limit = 2**32 − (2**32 mod n); 2 ≤ n ≤ 2**32. */
  async randint(n) {
    if (!Number.isInteger(n) || n < 2 || n > TWO_32) throw new Error("randint needs 2 <= n <= 2**32");
    const limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      const u = await this.word();
      if (u < limit) return u % n;
    }
  }

  /** A shuffled copy: Fisher–Yates from the end, j = randint(i + 1); position 0 is the top of a deck. */
  async shuffled(items) {
    const d = Array.from(items);
    for (let i = d.length - 1; i > 0; i--) {
      const j = await this.randint(i + 1);
      [d[i], d[j]] = [d[j], d[i]];
    }
    return d;
  }
}

// ---- the draw log of an ended match (GET /api/matches/{id}/draws; play/draws.py) -------------------

/** Recompute a match's draws from K alone — the same for every game: on a fresh stream, draw i is
 *  randint(bound_i), which must return value_i. `draws`: [{bound, value}, …] in the order the match made them.
 *  → {ok, checked: draws that matched, words: stream words read, at: index of the first mismatch (or null),
 *  computed: what randint gave there (null when the bound itself is malformed)}. */
export async function redraw(key, draws) {
  const st = new Stream(key);
  const list = Array.isArray(draws) ? draws : [];
  for (let i = 0; i < list.length; i++) {
    const { bound, value } = list[i] || {};
    if (!Number.isInteger(bound) || bound < 2 || bound > TWO_32) {
      return { ok: false, checked: i, words: st.position, at: i, computed: null };
    }
    const computed = await st.randint(bound);
    if (computed !== value) return { ok: false, checked: i, words: st.position, at: i, computed };
  }
  return { ok: Array.isArray(draws), checked: list.length, words: st.position, at: null, computed: null };
}
