"""Valid sample arguments for a tool, generated from its input schema.

Used by ``specs check``, the conformance tests and the benchmarks. Variant 0 fills only
the required parameters, variant 1 fills every parameter, later variants a seeded subset.
"""

from __future__ import annotations

from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.base import DEFAULT_TODAY
from env_server.simulators.generate import Generation, call_seed


def sample_arguments(spec: ToolSpec, variant: int = 0) -> dict[str, Any]:
    schema = spec.input_schema
    props: dict[str, Any] = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if r in props]
    gen = Generation(seed=call_seed(spec.name, {"variant": variant}, 7), today=DEFAULT_TODAY, args={})
    if variant == 0:
        chosen = required
    elif variant == 1:
        chosen = list(props)
    else:
        chosen = required + [p for p in props if p not in required and gen.rng.random() < 0.5]
    args: dict[str, Any] = {}
    for name in chosen:
        sub = props[name]
        if isinstance(sub, dict) and "default" in sub and variant != 1:
            args[name] = sub["default"]
        else:
            args[name] = gen.fill(sub if isinstance(sub, dict) else {}, name)
    return args
