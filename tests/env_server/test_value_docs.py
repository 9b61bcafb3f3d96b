"""The value engine's module docstring names functions that exist, with their parameters."""

from __future__ import annotations

import inspect
import re

from env_server.simulators import naming, values


def test_every_call_the_values_docstring_shows_matches_a_real_signature():
    shown = re.findall(r"``(\w+)\(([^)]*)\)``", re.sub(r"\s+", " ", values.__doc__ or ""))
    assert shown
    for name, params in shown:
        func = getattr(values, name, None) or getattr(naming, name, None)
        assert callable(func), f"{name} does not exist"
        real = [p for p in inspect.signature(func).parameters]
        assert [p.strip() for p in params.split(",")] == real, f"{name}({params}) is {name}({', '.join(real)})"
