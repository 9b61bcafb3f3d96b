"""``toolenv serve`` with parts of the call path taken out, to price each part (bench only).

``bench_server.py --variant NAME`` starts our server through this script instead of
``python -m env_server.cli``, and compares it with the echo server as usual. The variants:

* ``full``: the server as shipped (the same as no ``--variant``).
* ``fixed-result``: every call of a tool answers with the result its first call produced, so
  the value engine (argument validation and simulation) runs once per tool; the call is still
  logged and journaled as usual.
* ``no-log``: as ``fixed-result``, and nothing is logged or journaled either.

The difference between two variants is what the part taken out costs per call in the served
process, where it runs with the caches the HTTP stack leaves behind (more than the same code
costs in a tight loop in process). Never use a variant for anything but measuring: a fixed
result ignores the arguments.

Usage: ``python bench/serve_variant.py VARIANT serve --port N ...`` (``serve``'s own options).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from env_server import cli  # after the path insert
from env_server.environment import ToolEnvironment

VARIANTS = ("full", "fixed-result", "no-log")


def patch(variant: str) -> None:
    """Take the variant's parts out of ``ToolEnvironment`` (this process only)."""
    if variant not in VARIANTS:
        raise SystemExit(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if variant == "full":
        return
    run = ToolEnvironment._run
    first: dict[str, dict[str, Any]] = {}

    def fixed_run(self: ToolEnvironment, view: Any, spec: Any, name: str, *rest: Any) -> dict[str, Any]:
        hit = first.get(name)
        if hit is None:
            hit = first[name] = run(self, view, spec, name, *rest)
        return hit

    ToolEnvironment._run = fixed_run  # type: ignore[method-assign,assignment]
    if variant == "no-log":
        ToolEnvironment._record = lambda self, *args, **kwargs: 0  # type: ignore[method-assign]


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    patch(sys.argv[1])
    sys.argv = ["toolenv", *sys.argv[2:]]
    cli.main()
