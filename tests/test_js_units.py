"""The ES modules' unit tests, ``tests/js/*.test.mjs``, run by ``node --test`` as part of the suite (they
import the modules of static/js directly: no browser, no build step). Skipped loudly where node is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def test_the_js_unit_tests_pass() -> None:
    if NODE is None:
        pytest.skip("!!! node is not installed: the JS unit tests (tests/js) did NOT run")
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no JS unit tests found"
    done = subprocess.run(
        [NODE, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
