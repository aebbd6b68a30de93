"""play/routing.py: a forwarded act carries the mover's language, and the owner runs it in that language, so
the pushes it builds for the change are worded for the mover (not in the owner's default)."""

from __future__ import annotations

from typing import Any

from duelclub.i18n import current_lang, use_lang
from duelclub.play.routing import Router


class _Writer:
    """Records the language each write ran in (the real writer needs a database; this is about routing)."""

    def __init__(self) -> None:
        self.langs: list[str] = []

    async def act(self, *args: Any, want_payload: bool) -> int:
        self.langs.append(current_lang())
        return 7


async def test_an_act_op_carries_the_movers_language_and_the_owner_runs_it_in_it() -> None:
    router = Router.__new__(Router)
    writer = router.writer = _Writer()  # type: ignore[assignment]
    sent: list[dict[str, Any]] = []

    async def route(match_id: str, op: dict[str, Any]) -> Any:
        sent.append(op)
        with use_lang("ru"):  # the owner's listener runs in its own (default) context
            return await router._serve_forwarded(op)

    router._route = route  # type: ignore[method-assign]
    with use_lang("uk"):
        assert await router.act("m1", 1, "c1", 0, {"kind": "x"}, payload=False) == 7
    assert sent[0]["lang"] == "uk"
    assert writer.langs == ["uk"]
    with use_lang("ru"):
        assert await router._serve_forwarded({**sent[0], "lang": None}) == 7
    assert writer.langs[-1] == "ru", "an op from an older worker (no lang) runs in the default"
