"""No dead code: vulture, at its default confidence, finds nothing unused in the packages, the
tools or the tests; what frameworks call by name is listed, with who calls it, in
tests/vulture_whitelist.py."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["physics", "kabuto", "cards", "kabuto_base", "kabuto_ui", "tools", "tests"]
#: pytest finds these by name or decorator: fixtures, hooks, module marks, conftest settings.
PYTEST = ["--ignore-decorators", "@pytest.fixture", "--ignore-names", "pytestmark,pytest_*,collect_ignore"]


def test_vulture_finds_no_unused_code():
    pytest.importorskip("vulture")
    run = subprocess.run([sys.executable, "-m", "vulture", *PATHS, *PYTEST], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    found = run.stdout.strip().splitlines()
    assert run.returncode in (0, 3), run.stderr  # 3: vulture found something, listed below
    assert not found, "unused code (remove it, or list a framework's callback in the whitelist):\n" + \
        "\n".join(found[:40])
