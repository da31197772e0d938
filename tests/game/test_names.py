"""The engine's public functions name their parameters (``state``, not ``s``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "bot" / "game"


def public_functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module functions and methods of public classes whose names do not start with ``_``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("_"):
                yield node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            yield from public_functions(node)


def one_letter_parameters(source: str) -> list[str]:
    """``function(parameter)`` for each one-letter parameter of a public function."""
    found = []
    for function in public_functions(ast.parse(source)):
        args = function.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        found += [f"{function.name}({arg.arg})" for arg in every
                  if arg is not None and len(arg.arg) == 1]
    return found


def test_no_public_function_of_the_engine_has_a_one_letter_parameter() -> None:
    found = [f"{path.name}: {where}" for path in sorted(GAME.glob("*.py"))
             for where in one_letter_parameters(path.read_text(encoding="utf-8"))]
    assert not found, "one-letter parameters:\n" + "\n".join(found)


def test_the_check_sees_functions_and_methods_but_not_private_ones() -> None:
    source = ("def f(s): pass\n"
              "def _g(s): pass\n"
              "class C:\n    def m(self, a, *, rules): pass\n"
              "class _D:\n    def m(self, a): pass\n"
              "def h(state, lam=lambda x: x): pass\n")
    assert one_letter_parameters(source) == ["f(s)", "m(a)"]
