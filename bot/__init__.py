"""The 1000 card game bot: rules engine, tables, store, AI, web pages."""

# The released version: the same in pyproject.toml and at the head of CHANGELOG.md (a test
# checks); shown by `python -m bot --version` and in the start-up log line.
__version__ = "1.0.0"
