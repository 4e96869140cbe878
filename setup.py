"""Build the Cython core. Set SHEEPSOLVE_DEBUG=1 to build with bounds checks on."""
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("SHEEPSOLVE_DEBUG", "") not in ("", "0")
directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": debug,
    "cdivision": not debug,
    "initializedcheck": debug,
}
extensions = [
    Extension(
        "sheepsolve._core",
        ["src/sheepsolve/_core.pyx"],
        extra_compile_args=(["-O3"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []))
        if not debug else ["-O0", "-g"],
    )
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives))
