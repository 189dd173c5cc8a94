# SPDX-License-Identifier: MIT
"""A board's count of states, as the programs print it, against Python's own
exact integers: (W*H)!/2 on every board, past 2^64 from 21 cells on
(slidedb-gen once printed 25!/2 mod 2^64 for 5x5)."""

import math
import re

import pytest

from conftest import GEN, run


@pytest.mark.parametrize("size", ["5x4", "7x3", "5x5", "6x6", "7x7", "8x8"])
def test_full_refusal_prints_the_exact_count(size, tmp_path):
    w, h = map(int, size.split("x"))
    out = run(GEN, "full", size, "--db", str(tmp_path / "none.lmdb"), check=False)
    assert out.returncode == 1, out.stderr
    m = re.search(rf"{size} has {w * h} cells and (\d+) states: too many", out.stderr)
    assert m, out.stderr
    assert int(m.group(1)) == math.factorial(w * h) // 2
