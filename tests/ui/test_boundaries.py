"""The UI toolkit's import boundaries, read from the real import graph (every ``import`` statement
in the source, lazy ones inside functions and ``TYPE_CHECKING`` blocks included):

* :mod:`kabuto_ui` is built on pyglet, the standard library and the base layer (``kabuto_base``)
  only - it knows no game;
* card code never imports the Kabuto app, and the app's composition root (``kabuto/app/main.py``)
  is the one place in ``kabuto`` that imports card code;
* the toolkit's data modules load without pyglet (so models and tests need no display).
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = ("kabuto_ui.theme", "kabuto_ui.geometry", "kabuto_ui.modes", "kabuto_ui.worker",
        "kabuto_ui.tween", "kabuto_ui.virtual_display")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative imports resolved), wherever the
    statement is. ``import_module("x")`` with a literal name counts as importing x; any other
    dynamic import is reported as ``<dynamic>``: it could hide an edge."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
        elif isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if name in ("import_module", "__import__"):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
                else:
                    found.add("<dynamic>")
    return found


def _files(folder: str) -> list[Path]:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files, f"no Python files under {folder}/"
    return files


def _top(module: str) -> str:
    return module.split(".")[0]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_reader_sees_lazy_relative_and_dynamic_imports(tmp_path, monkeypatch):
    """The checks below are only as good as this reader: it must not miss an import."""
    pkg = tmp_path / "kabuto" / "app"
    pkg.mkdir(parents=True)
    src = pkg / "probe.py"
    src.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import kabuto.app.main\n"
                   "def f():\n    from . import theme\n    from .. import rules\n"
                   "    import importlib; importlib.import_module('cards.table'); importlib.import_module(f)\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert imports_of(src) == {"typing", "kabuto.app.main", "kabuto.app", "kabuto", "importlib",
                               "cards.table", "<dynamic>"}


@pytest.mark.parametrize("path", _files("kabuto_ui"), ids=lambda p: p.name)
def test_the_toolkit_imports_only_pyglet_the_standard_library_the_base_layer_and_itself(path):
    bad = {m for m in imports_of(path)
           if not (_top(m) in sys.stdlib_module_names or _within(m, "pyglet") or _within(m, "kabuto_ui")
                   or _within(m, "kabuto_base") or m == "__future__")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", _files("cards"), ids=lambda p: str(p.relative_to(ROOT / "cards")))
def test_card_code_never_imports_the_kabuto_app(path):
    mods = imports_of(path)
    bad = {m for m in mods if _within(m, "kabuto") and not _within(m, "kabuto_ui")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)} (card code may use kabuto_ui only)"
    if _within(_module_name(path), "cards.table"):
        assert "<dynamic>" not in mods, f"{path.relative_to(ROOT)} computes a module name to import"


def test_only_the_apps_composition_root_wires_the_card_table_in():
    wiring = sorted(str(p.relative_to(ROOT)) for p in _files("kabuto")
                    if any(_within(m, "cards.table") and not _within(m, "cards.table.config")
                           and not _within(m, "cards.table.describe") for m in imports_of(p)))
    # `kabuto cards ...` (kabuto/cli/cards.py) uses the engines, bots, the table's menu data and
    # its words (cards.table.config, cards.table.describe; no pyglet): a command, not the app's
    # wiring. Besides the composition
    # root, the one other wiring is the card table on a server's game (Play online).
    assert wiring == ["kabuto/app/main.py", "kabuto/app/online_cards.py"]
    engines = sorted(str(p.relative_to(ROOT)) for p in _files("kabuto")
                     if any(_top(m) == "cards" for m in imports_of(p)))
    # Network play (kabuto/net) runs the card engines and bots on the server, as the app does.
    allowed = {"kabuto/app/main.py", "kabuto/app/online_cards.py", "kabuto/cli/cards.py"}
    assert {e for e in engines if not e.startswith("kabuto/net/")} <= allowed, engines
    dynamic = sorted(str(p.relative_to(ROOT)) for p in [*_files("kabuto/app"), *_files("kabuto_ui")]
                     if "<dynamic>" in imports_of(p))
    assert dynamic == [], "the app and the toolkit name what they import, so this graph is the real one"


def test_the_toolkits_data_modules_load_without_pyglet():
    code = f"import sys, {', '.join(PURE)}; print('pyglet' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
