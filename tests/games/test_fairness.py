"""rules/fairness.md: the duelclub/v1 test vectors and stream properties."""

import pytest

from duelclub.games.fairness import Stream, commitment, is_valid_client_seed, match_key

S = bytes(range(32))
G = "m-0001"


def test_commitment_vector() -> None:
    assert commitment(S, G) == "45f1c0709b64359031c2eca9b5e4c7a5c2587cb509bcae2f106142b6931a963a"


@pytest.mark.parametrize(
    ("a", "b", "key", "words", "coin", "deck"),
    [
        (
            "",
            "",
            "9ce3700c14c9f827cbdc80690ddb5bc52343e669841455cd542c2a1eaa372b03",
            [330121460, 3402065252, 911597157, 4122952066],
            0,
            [4, 12, 8, 10, 16, 19, 6, 20, 14, 3, 1, 2, 18, 17, 7, 9, 5, 11, 15, 13],
        ),
        (
            "c0ffee",
            "5eed",
            "80dfb495674cc881fc103c052e7bf18ee96bb42b36e977f3ea38e319546670f9",
            [3819662481, 3858418194, 1694984375, 717120549],
            1,
            [1, 18, 6, 2, 9, 12, 16, 11, 7, 14, 4, 5, 13, 8, 17, 3, 20, 10, 19, 15],
        ),
    ],
)
def test_key_stream_and_shuffle_vectors(
    a: str, b: str, key: str, words: list[int], coin: int, deck: list[int]
) -> None:
    k = match_key(S, G, a, b)
    assert k.hex() == key
    st = Stream(k)
    assert [st.word() for _ in range(4)] == words
    st = Stream(k)
    assert st.randint(2) == coin
    assert st.shuffled(range(1, 21)) == deck


def test_stream_at_resumes_exactly_mid_block() -> None:
    k = match_key(S, G)
    full = Stream(k)
    seq = [full.word() for _ in range(21)]
    for pos in (0, 1, 7, 8, 9, 16, 20):
        resumed = Stream.at(k, pos)
        assert resumed.position == pos
        assert [resumed.word() for _ in range(21 - pos)] == seq[pos:]


def test_copy_is_independent() -> None:
    st = Stream(match_key(S, G))
    st.word()
    twin = st.copy()
    assert st.word() == twin.word()
    st.word()
    assert st.position == twin.position + 1


def test_randint_rejects_out_of_range_words() -> None:
    # n = 3 * 2**30: limit = 3 * 2**30, so words >= limit are skipped and the next one is used.
    st = Stream(match_key(S, G))
    n = 3 * 2**30
    raw = Stream(match_key(S, G))
    expected = next(w for w in iter(raw.word, None) if w < n) % n
    assert st.randint(n) == expected
    assert st.position == raw.position


@pytest.mark.parametrize("n", [0, 1, 2**32 + 1])
def test_randint_bounds(n: int) -> None:
    with pytest.raises(ValueError):
        Stream(match_key(S, G)).randint(n)


@pytest.mark.parametrize(
    ("seed", "ok"), [("", True), ("c0ffee", True), ("A1", False), ("x", False), ("a" * 65, False)]
)
def test_client_seed_format(seed: str, ok: bool) -> None:
    assert is_valid_client_seed(seed) is ok


def test_bad_inputs_raise() -> None:
    with pytest.raises(ValueError):
        commitment(b"short", G)
    with pytest.raises(ValueError):
        match_key(S, "a\0b")
    with pytest.raises(ValueError):
        match_key(S, G, "XYZ")


@pytest.mark.parametrize("start", [0, 3, 7, 8, 13])
def test_shuffled_draws_exactly_what_randint_draws(start: int) -> None:
    """The inlined shuffle = Fisher–Yates over ``randint``: the same order, the same words consumed, and the
    stream continues identically afterwards (decks of 0..60 cards, from mid-block positions too)."""
    key = bytes(range(32))
    fast, slow = Stream.at(key, start), Stream.at(key, start)
    for m in range(61):
        items = list(range(m))
        expected = items[:]
        for i in range(m - 1, 0, -1):
            j = slow.randint(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert fast.shuffled(items) == expected
        assert fast.position == slow.position
    assert fast.word() == slow.word()


def test_shuffled_skips_rejected_words_like_randint(monkeypatch: pytest.MonkeyPatch) -> None:
    """A word at or above randint's limit is skipped by the inlined shuffle too (blocks rigged so that every
    other word is 2**32 − 1, which only the bounds dividing 2**32 — 2, 4, 8, 16 here — accept)."""
    real = Stream._hash_block

    def rigged(self: Stream) -> tuple[int, ...]:
        words = real(self)
        return tuple(0xFFFFFFFF if i % 2 == 0 else w for i, w in enumerate(words))

    monkeypatch.setattr(Stream, "_hash_block", rigged)
    fast, slow = Stream(bytes(32)), Stream(bytes(32))
    expected = list(range(20))
    for i in range(19, 0, -1):
        j = slow.randint(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert fast.shuffled(range(20)) == expected
    assert fast.position == slow.position
    assert fast.position == 31  # 19 draws, 12 rejected words (a draw starting on a real word rejects none)
