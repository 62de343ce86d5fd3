"""Builds the Python package dpledger with its extension module for the interpreter that runs this script.

The extension (dpledger._dpledger) is the CMake target dpledger_python, configured with
-DPython3_EXECUTABLE=<this interpreter> in its own build folder (build-python/, or DPLEDGER_PIP_BUILD_DIR), tests
and benchmarks off; the package's Python files come from python/dpledger. Needs CMake, a C++ compiler, pybind11 and
the libraries scripts/setup installs. CMAKE_BUILD_PARALLEL_LEVEL sets the build jobs (default 2).
DPLEDGER_PREBUILT_EXTENSION=PATH packages an extension module already built by a CMake build of this source for
the same interpreter (its file name must end in the interpreter's EXT_SUFFIX) instead of building it again.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        match = re.search(r"project\(dpledger VERSION ([0-9.]+)", f.read())
    if not match:
        raise RuntimeError("CMakeLists.txt: project(dpledger VERSION ...) not found")
    return match.group(1)


class CMakeBuild(build_ext):
    """Builds the extension with CMake instead of compiling sources itself."""

    def build_extension(self, ext):
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        prebuilt = os.environ.get("DPLEDGER_PREBUILT_EXTENSION")
        if prebuilt:
            if not os.path.isfile(prebuilt) or not prebuilt.endswith(suffix):
                raise RuntimeError(f"DPLEDGER_PREBUILT_EXTENSION={prebuilt}: not an extension module built for this "
                                   f"interpreter (a file whose name ends in {suffix})")
            shutil.copyfile(prebuilt, target)
            return
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("cmake is required to build dpledger (Debian: apt-get install cmake)")
        tag = sysconfig.get_config_var("SOABI") or "python"
        build_dir = os.environ.get("DPLEDGER_PIP_BUILD_DIR") or os.path.join(ROOT, "build-python", tag)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.check_call([cmake, "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                               f"-DPython3_EXECUTABLE={sys.executable}", "-DDPLEDGER_BUILD_TESTS=OFF",
                               "-DDPLEDGER_BUILD_BENCH=OFF", "-DDPLEDGER_BUILD_PYTHON=ON"])
        subprocess.check_call([cmake, "--build", build_dir, "--target", "dpledger_python", "-j", jobs])
        built = os.path.join(build_dir, "python", "dpledger", "_dpledger" + suffix)
        if not os.path.isfile(built):
            raise RuntimeError(f"CMake did not build {built} (is the interpreter's Python.h installed? Debian: "
                               f"python3-dev)")
        shutil.copyfile(built, target)


os.makedirs(os.path.join(ROOT, "build-python"), exist_ok=True)  # egg_base below
setup(
    name="dpledger",
    version=project_version(),
    description="Certified differential-privacy accounting and empirical audits",
    python_requires=">=3.9",
    install_requires=["numpy"],
    package_dir={"": "python"},
    packages=find_packages("python", exclude=["tests", "tests.*"]),
    ext_modules=[Extension("dpledger._dpledger", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join("build-python", "setuptools")},
             "egg_info": {"egg_base": os.path.join("build-python")}},
    zip_safe=False,
)
