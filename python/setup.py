# SPDX-License-Identifier: MIT
"""Build of the slidedb extension (the metadata is in pyproject.toml).

The extension compiles libslidedb's own sources (db/*/*.c, as
library_sources.txt lists them: a copy of CMake's lists, which ctest's
python_sources holds it to) together with its glue in ext/: one
`pip install ./python` works on a fresh clone, without a CMake build or an
installed library first, and a wheel carries no libslidedb.so beside it.
Only liblmdb, ISA-L and zlib are linked from the system.

SLIDEDB_PKGCONFIG=1 links an installed libslidedb instead (found with
`pkg-config slidedb`, e.g. after `cmake --install build`).
"""

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import numpy
except ImportError:
    raise SystemExit(f"slidedb: NumPy is not importable by {sys.executable}, and the extension "
                     "is built against it: make the venv from Debian's python3 with its packages "
                     "(/usr/bin/python3 -m venv --system-site-packages .venv), or install numpy "
                     "into it") from None
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
# The repository's root, or the copy of its library an sdist carries.
ROOT = HERE.parent if (HERE.parent / "db" / "include" / "slidedb.h").is_file() else HERE / "libslidedb"


def library_sources():
    """The library's sources, layer by layer, as library_sources.txt lists them (a copy of
    db/CMakeLists.txt's lists that CMake checks: setup.py runs before any CMake)."""
    listed = (HERE / "library_sources.txt").read_text().splitlines()
    return [os.path.relpath(ROOT / s, HERE) for s in listed if s and not s.startswith("#")]


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return shlex.split(out.stdout)


def extension():
    glue = sorted(os.path.relpath(p, HERE) for p in (HERE / "ext").glob("*.c"))
    include = [numpy.get_include(), "ext"]
    cflags = ["-std=gnu11", "-O2", "-fvisibility=hidden", "-fno-semantic-interposition",
              "-Wall", "-Wextra", "-Wno-missing-field-initializers", "-Wno-cast-function-type"]
    if os.environ.get("SLIDEDB_PKGCONFIG") == "1":
        flags = pkg_config("--cflags", "--libs", "slidedb")
        if flags is None:
            raise SystemExit("setup.py: SLIDEDB_PKGCONFIG=1 but `pkg-config slidedb` fails "
                             "(install the library, or set PKG_CONFIG_PATH)")
        return Extension("slidedb._slidedb", glue, include_dirs=include,
                         extra_compile_args=cflags + [f for f in flags if f.startswith("-I")],
                         extra_link_args=[f for f in flags if not f.startswith("-I")])
    lmdb = (pkg_config("--cflags", "--libs", "lmdb") or ["-llmdb"]) + \
        (pkg_config("--cflags", "--libs", "libisal") or ["-lisal"])
    # setuptools rebuilds only when a source or one of these is newer than the module
    headers = [os.path.relpath(p, HERE) for p in
               [*(ROOT / "db").glob("*/*.h"), *(HERE / "ext").glob("*.h")]]
    return Extension(
        "slidedb._slidedb",
        glue + library_sources(),
        depends=headers,
        include_dirs=include + [os.path.relpath(ROOT / "db" / "include", HERE),
                                os.path.relpath(ROOT / "db", HERE)],
        extra_compile_args=cflags + [f for f in lmdb if f.startswith("-I")],
        extra_link_args=[f for f in lmdb if not f.startswith("-I")] + ["-lz", "-pthread"],
    )


class BuildExt(build_ext):
    """Compile on every core (twenty-odd files)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


class Sdist(sdist):
    """An sdist carries the library's sources (library_sources.txt lists them), and the
    LICENSE they are under."""

    def make_release_tree(self, base_dir, files):
        # the library's sources are listed as ../db/*.c: they go under libslidedb/ instead
        super().make_release_tree(base_dir, [f for f in files if not f.startswith("..")])
        if ROOT == HERE.parent:
            dest = Path(base_dir) / "libslidedb"
            shutil.copytree(ROOT / "db", dest / "db", ignore=shutil.ignore_patterns("*.o"))
            shutil.copy2(ROOT / "CMakeLists.txt", dest / "CMakeLists.txt")   # the version
            shutil.copy2(ROOT / "LICENSE", Path(base_dir) / "LICENSE")


setup(ext_modules=[extension()], cmdclass={"build_ext": BuildExt, "sdist": Sdist})
