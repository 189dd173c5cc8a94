# SPDX-License-Identifier: MIT
"""The Python sessions of the README's tour and of doc/python.md run and print
what they show (doctests), and examples/python_tour.py runs, in a directory
with the database they name."""

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


def python_docs():
    """{document: text}: the README's section Python (its tour) and the guide."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("\n### Python\n"):]
    ends = [i for i in (section.find(h, 1) for h in ("\n## ", "\n### ")) if i > 0]
    section = section[:min(ends, default=len(section))]
    return {"README.md": section, "doc/python.md": (ROOT / "doc" / "python.md").read_text()}


@pytest.mark.parametrize("doc", ["README.md", "doc/python.md"])
def test_readme_session(readme_dir, monkeypatch, doc):
    blocks = re.findall(r"```pycon\n(.*?)```", python_docs()[doc], re.S)
    assert blocks, f"no ```pycon block in {doc}'s Python"
    monkeypatch.chdir(readme_dir)
    monkeypatch.delenv("SLIDEDB_DB", raising=False)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"{doc} pycon block {i}", doc, 0)
        assert len(test.examples) >= 5
        result = runner.run(test)
        assert result.failed == 0, f"{doc}'s Python session: {result.failed} examples differ (above)"
    if doc == "doc/python.md":
        assert (readme_dir / "train.npz").exists()


@pytest.mark.parametrize("doc", ["README.md", "doc/python.md"])
def test_readme_commands_use_the_venv(doc):
    """The commands run the venv's Python: a python3 first on PATH (pyenv,
    conda, /usr/local) is another one, without the package. They say how to
    start Python on the package, and never run a bare python3 or pip."""
    blocks = re.findall(r"```sh\n(.*?)```", python_docs()[doc], re.S)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    commands = [c for c in commands if c]
    assert any(c.split()[0] == ".venv/bin/python" for c in commands), commands
    assert not [c for c in commands if c.split()[0] in ("python", "python3", "pip", "pip3")]
    assert "/usr/bin/python3 -m venv --system-site-packages .venv" in commands[0]


def test_tour(readme_dir):
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python_tour.py"),
                          str(readme_dir / "slidedb.lmdb"), str(readme_dir / "tour.npz")],
                         capture_output=True, text=True, check=True).stdout
    assert "1. hints" in out and "(0 to go)" in out
    ours, theirs = re.findall(r"(\d+) moves", out.split("2. ")[1])[:2]
    assert ours == theirs
    assert (readme_dir / "tour.npz").exists()


def test_tour_usage_line(readme_dir):
    """The tour's usage line runs as written (from where the database is),
    with the venv's Python: a python3 first on PATH may be another one."""
    doc = (ROOT / "examples" / "python_tour.py").read_text().split('"""')[1]
    usage = [line.strip() for line in doc.splitlines() if "examples/python_tour.py" in line]
    assert len(usage) == 1, usage
    assert usage[0].startswith(".venv/bin/python examples/python_tour.py"), usage
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python_tour.py")],
                         cwd=readme_dir, capture_output=True, text=True, check=True).stdout
    assert "(0 to go)" in out and (readme_dir / "slidedb-dataset.npz").exists()


def test_tour_without_the_package():
    """Run by a Python that has not got the package (or NumPy): one line that
    says which Python to run it with, not a traceback."""
    r = subprocess.run([sys.executable, "-I", "-S", str(ROOT / "examples" / "python_tour.py")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1 and ".venv/bin/python" in r.stderr, r.stderr
