"""The package's import graph: no cycle (imports inside functions included), no private names.

A cycle hidden by an import inside a function still makes two modules one: neither can be read,
tested or changed without the other. So the graph is built from every import statement of
every module under ``sleuth/``, wherever it stands.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sleuth"


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]):
    """(module imported, names taken from it) for each import statement of a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub, []) if sub in modules else (base, [alias.name])


def _graph() -> tuple[dict[str, set[str]], list[tuple[str, str, str]]]:
    """The edges between the package's modules, and every private name one takes from another."""
    modules = _modules()
    edges: dict[str, set[str]] = {name: set() for name in modules}
    private = []
    for name, path in modules.items():
        for target, names in _imports(name, path, modules):
            if target in modules and target != name:
                edges[name].add(target)
                private += [(name, target, n) for n in names if n.startswith("_")]
    return edges, private


def _cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph as a list of modules, or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_import_graph_has_no_cycle():
    edges, _ = _graph()
    assert edges["sleuth.solve.exact"]  # the graph is really built
    assert _cycle(edges) == []


def test_no_module_imports_a_private_name_of_another():
    _, private = _graph()
    assert private == []


def test_an_import_inside_a_function_is_an_edge_and_cycles_are_found(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from sleuth.solve.order import race\n", encoding="utf-8")
    found = list(_imports("sleuth.solve.m", module, {"sleuth.solve.order": module}))
    assert found == [("sleuth.solve.order", ["race"])]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []
