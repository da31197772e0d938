"""A faster ``__init__`` for the frozen, slotted dataclasses built once a hand or more."""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen slotted dataclass an ``__init__`` that fills its slots directly.

    The dataclass one goes through ``object.__setattr__`` for every field (the class is
    frozen), about twice as slow: a Match and a HandResult are built at every hand. The
    signature, defaults and field order stay those of the dataclass (checked here).
    """
    params: list[str] = []
    lines: list[str] = []
    namespace: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: default factories are not supported")
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__  # the slot's descriptor
        lines.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(lines or ["    pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    if _shape(init) != _shape(cls.__init__):
        raise TypeError(f"{cls.__name__}: the fast __init__ differs from the dataclass one")
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def _shape(f: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]
