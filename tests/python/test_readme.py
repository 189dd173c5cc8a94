"""The README's Python session runs and prints what it shows (a doctest), and
examples/python_tour.py runs, in a directory with the database it names."""

import doctest
import re
import subprocess
import sys

import pytest

from conftest import GEN, ROOT, run


@pytest.fixture(scope="module")
def readme_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("readme")
    run(GEN, "full", "3x3", "--db", str(d / "slidedb.lmdb"), "-q")
    run(GEN, "pdb", "4x4", "--partition", "5-5-5", "--db", str(d / "slidedb.lmdb"), "-q")
    return d


def test_readme_session(readme_dir, monkeypatch):
    text = (ROOT / "README.md").read_text()
    section = text[text.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```pycon\n(.*?)```", section, re.S)
    assert blocks, "no ```pycon block in the README's section Python"
    monkeypatch.chdir(readme_dir)
    monkeypatch.delenv("SLIDEDB_DB", raising=False)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md pycon block {i}", "README.md", 0)
        assert len(test.examples) >= 5
        result = runner.run(test)
        assert result.failed == 0, f"README.md's Python session: {result.failed} examples differ (above)"
    assert (readme_dir / "train.npz").exists()


def test_tour(readme_dir):
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python_tour.py"),
                          str(readme_dir / "slidedb.lmdb"), str(readme_dir / "tour.npz")],
                         capture_output=True, text=True, check=True).stdout
    assert "1. hints" in out and "(0 to go)" in out
    ours, theirs = re.findall(r"(\d+) moves", out.split("2. ")[1])[:2]
    assert ours == theirs
    assert (readme_dir / "tour.npz").exists()
