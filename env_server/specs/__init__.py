"""Quality tools over a loaded catalog, behind ``toolenv specs``.

They sit above the environment: they run tools through the simulators and sessions, so the
catalog package itself stays free of both.

* ``samples``: valid sample arguments from a tool's input schema (``specs show``, the
  checks, the conformance tests and the benchmarks);
* ``checks``: ``specs check``, per-spec problems and catalog statistics;
* ``audit`` and ``audit_checks``: ``specs audit``, every tool called as an agent would,
  with detectors for what breaks the illusion of a real API.
"""
