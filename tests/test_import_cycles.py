"""Import cycles: none among the modules of ``duelclub`` (issue 15 §3: ``play/`` lost its cycles — the bot
driver and the clock get callables from the service, the lobby modules a ``LobbyPort``).

Every ``import``/``from … import`` in a module counts, also those under ``if TYPE_CHECKING:`` and inside
functions (a cycle hidden in a function or a type hint is still a cycle of the design)."""

from __future__ import annotations

import ast
from pathlib import Path

import duelclub

ROOT = Path(duelclub.__file__).parent


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _target(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``name`` refers to (``duelclub.play.service.in_thread`` → ``duelclub.play.service``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Module → the ``duelclub`` modules it imports (a package's own ``__init__`` is not an edge of its
    submodules: Python runs it first, but it imports nothing of theirs unless it says so)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                names = [f"{base}.{a.name}" for a in node.names]
            for imported in names:
                target = _target(imported, modules) if imported.startswith("duelclub") else None
                if target is not None and target != name and target != "duelclub":
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_type_checking_and_local_imports() -> None:
    graph = import_graph()
    assert "duelclub.play.live" in graph["duelclub.play.service"]
    assert {"duelclub.play", "duelclub.web"} <= {m.rpartition(".")[0] for m in graph}


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_cycle_among_play_modules() -> None:
    graph = import_graph()
    play = {
        m: {t for t in ts if t.startswith("duelclub.play")}
        for m, ts in graph.items()
        if m.startswith("duelclub.play")
    }
    assert cycles(play) == []


def test_no_cycle_in_the_package() -> None:
    assert cycles(import_graph()) == []


def test_lobby_modules_do_not_reach_into_the_service() -> None:
    """The lobby modules talk to a ``LobbyPort`` (play/port.py), never to the service's module."""
    graph = import_graph()
    for name in (
        "challenges",
        "matchmaking",
        "rematch",
        "lobby",
        "presence",
        "chat",
        "abort",
        "clock",
        "bots",
    ):
        assert "duelclub.play.service" not in graph[f"duelclub.play.{name}"], name
