"""The shape of the package: no import cycle, no private name taken across modules, each game in
one place.

A cycle hidden by an import inside a function, or behind ``if TYPE_CHECKING:``, still makes two
modules one: neither can be read, tested or changed without the other. So the graph is built
from every import statement of every module under ``sleuth/``, wherever it stands, those for
annotations only included; importing ``a.b.c`` also runs the packages ``a`` and ``a.b``.
(A game's parts are found by name at run time, ``sleuth.games.part``: no module imports them.)
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sleuth"
GAMES = ("goldraub", "lima", "scotland", "loop", "london")


def module_name(path: Path) -> str:
    """The dotted name of a module file: sleuth/games/__init__.py -> sleuth.games."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def statements(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names taken from it) of each import of a file (functions and annotations too)."""
    found: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.append((sub, []) if sub in MODULES else (node.module, [alias.name]))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def imported(path: Path) -> set[str]:
    """The sleuth modules a file imports anywhere (functions and annotations too)."""
    return {name for name, _ in statements(path) if name in MODULES}


def ancestors(name: str) -> set[str]:
    """The packages whose ``__init__`` runs before ``name``: sleuth.a.b -> {sleuth, sleuth.a}."""
    parts = name.split(".")
    return {".".join(parts[:k]) for k in range(1, len(parts))}


def graph() -> dict[str, set[str]]:
    """Module -> the modules its import runs (targets and their packages, not its own)."""
    edges = {}
    for name, path in MODULES.items():
        targets = set()
        for target in imported(path):
            targets |= {target} | (ancestors(target) - ancestors(name) - {name})
        edges[name] = targets - {name}
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph, as a list of modules, or [] if there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(edges):
        if node not in state and (found := walk(node)):
            return found
    return []


def test_the_import_graph_has_no_cycle():
    edges = graph()
    assert edges["sleuth.solve.exact"] and edges["sleuth.record"]  # the graph is really built
    assert cycle(edges) == []


def test_no_module_imports_a_private_name_of_another():
    taken = [
        (name, target, each)
        for name, path in MODULES.items()
        for target, names in statements(path)
        if target in MODULES and target != name
        for each in names
        if each.startswith("_")
    ]
    assert taken == []


def test_the_graph_sees_imports_in_functions_and_the_finder_finds_cycles(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import sleuth.record\n"
        "def f():\n    from sleuth.solve.order import race\n",
        encoding="utf-8",
    )
    assert imported(module) == {"sleuth.record", "sleuth.solve.order"}
    assert ancestors("sleuth.solve.order") == {"sleuth", "sleuth.solve"}
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def _outside_games() -> dict[str, Path]:
    """The modules that are not part of a game's package or the registry."""
    return {n: p for n, p in MODULES.items() if not n.startswith("sleuth.games")}


def test_no_module_outside_the_games_is_named_after_or_imports_a_game():
    for name, path in _outside_games().items():
        assert not any(game in name for game in GAMES), name
        for target in imported(path):
            assert not any(target.startswith(f"sleuth.games.{g}") for g in GAMES), (name, target)


def test_no_code_outside_the_games_spells_a_game_name():
    for name, path in _outside_games().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docstrings:
                    continue
                assert not any(g in node.value.casefold() for g in GAMES), (name, node.value)


def test_each_game_is_one_package_with_its_board():
    for game in GAMES:
        folder = PACKAGE / "games" / game
        assert (folder / "__init__.py").exists() and (folder / "board.toml").exists()


def test_the_package_ships_no_oracle():
    """The brute-force counters and python-constraint are the tests' own (``tests/oracles``)."""
    taken = {module for path in MODULES.values() for module, _ in statements(path)}
    assert not {m for m in taken if m.split(".")[0] in ("constraint", "oracles")}
    assert not [name for name in MODULES if name.endswith((".brute", ".crosscheck", ".testing"))]


def test_only_the_solver_layer_imports_z3():
    """z3 is driven behind ``sleuth.solve`` (``Entailment`` and its helpers), nowhere else."""
    outside = [
        name
        for name, path in MODULES.items()
        if not name.startswith("sleuth.solve")
        and any(module.split(".")[0] == "z3" for module, _ in statements(path))
    ]
    assert outside == []
