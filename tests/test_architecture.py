"""The layers of docs/architecture.md hold on the real import graph, lazy imports included."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("physics", "kabuto", "cards", "kabuto_assets", "kabuto_base", "kabuto_ui")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), i.e. every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in graph.modules or nxt.split(".")[0] not in PACKAGES:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt)))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    group.append(m)
                    if m == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for module in sorted(graph.modules):
        if module.split(".")[0] in PACKAGES and module not in index:
            visit(module)
    return found


def _graph() -> grimp.ImportGraph:
    # Imports under ``if TYPE_CHECKING:`` are left out: they never run, so they cannot make an
    # import-order bug (a Window shows Scenes and a Scene names its Window in annotations only).
    # Every import that runs counts, lazy ones inside functions included.
    return grimp.build_graph(*PACKAGES, include_external_packages=False,
                             exclude_type_checking_imports=True, cache_dir=None)


def test_no_import_cycle_anywhere():
    assert _cycles(_graph()) == []


def test_no_package_depends_on_a_package_that_depends_back():
    """Cycles between packages (kabuto.app <-> cards.table, say) count too, not only modules,
    and between the top-level packages: the card table and the Kabuto app both stand on the
    toolkit kabuto_ui, and only the app imports the card table."""
    graph = _graph()
    packages = {m for m in graph.modules if graph.find_children(m)} | set(PACKAGES)
    for a in sorted(packages):
        for b in sorted(packages):
            if a < b and not b.startswith(a + ".") and not a.startswith(b + "."):
                there = graph.find_shortest_chains(importer=a, imported=b, as_packages=True)
                back = graph.find_shortest_chains(importer=b, imported=a, as_packages=True)
                assert not (there and back), (a, b, sorted(there)[:1], sorted(back)[:1])


def test_import_contracts_hold():
    """The contracts in pyproject.toml: layers, pyglet-free rules and engines, cards apart from
    the Kabuto app, a toolkit that is pyglet and the standard library only."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout
