"""The compiled double-dummy solver, an optional extension: without a C compiler the
package installs all the same and the AI uses the Python solver (bot/ai/solver.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bot.ai._dds", ["bot/ai/_dds.c"], optional=True,
                             extra_compile_args=["-O3"])])
