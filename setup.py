"""Build the native core quartz._core (C++17, pybind11); metadata lives in pyproject.toml."""
import glob

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

ext = Pybind11Extension(
    "quartz._core",
    sorted(glob.glob("quartz/_core/*.cpp")),
    cxx_std=17,
    extra_compile_args=["-O3"],
)

setup(ext_modules=[ext], cmdclass={"build_ext": build_ext})
