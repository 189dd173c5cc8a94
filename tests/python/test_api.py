# SPDX-License-Identifier: MIT
"""What a Python user reads: docstrings on everything, help() that shows
signatures, stubs that match the module, and the package's metadata."""

import inspect
import re
import pydoc
from pathlib import Path

import slidedb

PUBLIC_TYPES = [slidedb.Database, slidedb.Answer, slidedb.Check, slidedb.Heuristic, slidedb.States]


def test_everything_documented():
    assert slidedb.__doc__ and slidedb.open.__doc__ and slidedb.dataset.__doc__
    for name in slidedb.__all__:
        obj = getattr(slidedb, name)
        if callable(obj) or inspect.ismodule(obj):
            assert obj.__doc__, name
    for cls in PUBLIC_TYPES:
        assert cls.__doc__
        for name, member in vars(cls).items():
            if not name.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{name}"


def test_signatures():
    sig = inspect.signature(slidedb.Database.solve)
    assert list(sig.parameters)[:3] == ["self", "start", "goal"]
    assert sig.parameters["path"].kind is inspect.Parameter.KEYWORD_ONLY
    assert str(inspect.signature(slidedb.Database.distance)).endswith(
        "states, goal=None, *, size=None, max_nodes=None, timeout=None, metric=None)")
    assert "seed=None" in str(inspect.signature(slidedb.Database.random))
    assert str(inspect.signature(slidedb.Heuristic.value)) == "(self, state, /)"
    text = pydoc.render_doc(slidedb.Database, renderer=pydoc.plaintext)
    assert "start, goal=None, *, size=None, path=False" in text
    assert "Optimal distances of many boards" in text


def test_stubs_match_module():
    here = Path(slidedb.__file__).parent
    assert (here / "py.typed").exists()
    stub = (here / "_slidedb.pyi").read_text()
    for cls in PUBLIC_TYPES:
        assert f"class {cls.__name__}:" in stub or f"class {cls.__name__}(" in stub
        for name in vars(cls):
            if not name.startswith("_") or name in ("__enter__", "__exit__"):
                assert f"def {name}(" in stub, f"{cls.__name__}.{name} missing from the stub"
    for name in ("MOVES", "MAX_CELLS", "FORMAT_VERSION", "def version", "def default_path"):
        assert name in stub


def test_version():
    assert slidedb.__version__ == slidedb.version() == "0.3.0"
    assert slidedb.MOVES == "udlr" and slidedb.MAX_CELLS == 64


def documented_parameters(doc):
    """The names a docstring describes, one or more to a line ("start, goal: ...")."""
    names = set()
    for line in doc.splitlines():
        m = re.match(r"([a-z_]+(?:, [a-z_]+)*): ", line)
        if m:
            names.update(m.group(1).split(", "))
    return names


def test_every_documented_keyword_is_a_parameter():
    """Database.solve's docstring described a keyword 'count' that solve()
    refused (TypeError): it is 'solutions'. Every name a method's docstring
    describes is a parameter of its signature."""
    checked = 0
    for cls in PUBLIC_TYPES + [slidedb]:
        for name, member in vars(cls).items():
            if name.startswith("_") or not callable(member) or not member.__doc__:
                continue
            try:
                params = inspect.signature(member).parameters
            except (TypeError, ValueError):
                continue
            for described in documented_parameters(member.__doc__):
                assert described in params, \
                    f"{getattr(cls, '__name__', cls)}.{name} describes '{described}', " \
                    f"which is not among {list(params)}"
                checked += 1
    assert checked > 20, checked
