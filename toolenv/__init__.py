"""The name verifiers loads toolenv by: ``vf-eval toolenv``, ``--env.taskset.id toolenv``.

verifiers imports an environment id as a top-level package and takes its taskset, env and
harness classes from ``__all__``. The environment itself lives in ``clients/verifiers_env.py``
and ``clients/verifiers_harness.py``; this package only names it. Needs the ``verifiers``
extra (README, "verifiers environment").
"""

from clients.verifiers_env import ToolenvEnv, ToolenvTaskset, load_environment
from clients.verifiers_harness import ToolenvHarness

__all__ = ["ToolenvEnv", "ToolenvHarness", "ToolenvTaskset", "load_environment"]
