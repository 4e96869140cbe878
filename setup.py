"""Build the Cython core. Set SHEEPSOLVE_DEBUG=1 to build with bounds checks on.

On x86-64 the core is compiled for the building machine's bit-manipulation instructions: POPCNT always, and
BMI1/BMI2 (``andn``, ``blsr``, ``tzcnt``, shifts by a register without ``cl``) when ``/proc/cpuinfo`` lists
them, as on every x86-64 processor since 2013 (Intel Haswell, AMD Excavator and Zen). The search is made of
mask operations: BMI cuts its instructions (docs/TUNING.md). Set SHEEPSOLVE_PORTABLE=1 to
leave BMI out, for a build that must run on other machines than the one it is built on.

With gcc the search's move ordering must stay inlined in it (``gcc_flags``).
"""
import os
import platform
import sysconfig

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("SHEEPSOLVE_DEBUG", "") not in ("", "0")
portable = os.environ.get("SHEEPSOLVE_PORTABLE", "") not in ("", "0")


def cpu_flags() -> set[str]:
    """The building machine's processor feature flags (empty where ``/proc/cpuinfo`` does not exist)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def x86_flags() -> list[str]:
    if platform.machine() not in ("x86_64", "AMD64"):
        return []
    flags = ["-mpopcnt"]
    if not portable and {"bmi1", "bmi2"} <= cpu_flags():
        flags += ["-mbmi", "-mbmi2"]
    return flags


def gcc_flags() -> list[str]:
    """gcc's flags: a higher ``large-function-insns`` (default 2700), past which gcc stops inlining into a
    function, so that the search ``ab`` keeps its move ordering and bounds inline (docs/TUNING.md). Other
    compilers get nothing: the option is gcc's."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "").split()
    return ["--param=large-function-insns=20000"] if cc and "gcc" in os.path.basename(cc[0]) else []


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
        extra_compile_args=["-O3"] + gcc_flags() + x86_flags() if not debug else ["-O0", "-g"],
    )
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives))
