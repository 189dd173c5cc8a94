# SPDX-License-Identifier: MIT
"""What a new user meets installing the package with the README's command
into a venv that cannot build it: one line that says what to do, not a
traceback. The venv is made from this suite's own Python without the system's
packages (no NumPy), then without setuptools either (as pyenv's 3.12 has
none); nothing is fetched (--no-index)."""

import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory):
    base = subprocess.run([sys.executable, "-c", "import sys; print(sys.base_prefix)"],
                          capture_output=True, text=True, check=True).stdout.strip()
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([f"{base}/bin/python3", "-m", "venv", str(venv)], check=True)
    return venv


def install(venv):
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index",
                        str(ROOT / "python")], capture_output=True, text=True)
    assert r.returncode != 0
    return r.stdout + r.stderr


def one_line_of_ours(output, prefix):
    ours = [line.strip(" │") for line in output.splitlines() if prefix in line]
    assert len(ours) == 1, output
    assert "Traceback" not in output, output
    return ours[0]


def test_no_numpy_then_no_setuptools(bare_venv):
    line = one_line_of_ours(install(bare_venv), "slidedb: ")
    assert "NumPy" in line and "/usr/bin/python3 -m venv --system-site-packages" in line
    subprocess.run([str(bare_venv / "bin" / "python"), "-m", "pip", "uninstall", "-q", "-y",
                    "setuptools"], check=True)
    line = one_line_of_ours(install(bare_venv), "slidedb: ")
    assert "no setuptools" in line and "/usr/bin/python3 -m venv --system-site-packages" in line
