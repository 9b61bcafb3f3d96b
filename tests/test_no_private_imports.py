"""Our packages use Python and third-party libraries through their public names only.

A module or name whose first segment starts with ``_`` (``_random``, ``_sha2``,
``from json.encoder import c_make_encoder``'s kind) is an implementation detail that any
CPython or library release may change, and with it every simulated output. The check reads
every import statement of ``state``, ``env_server`` and ``clients`` (parsed, not run), at
module level and inside functions; imports of our own packages are ``test_architecture``'s.
"""

from __future__ import annotations

import ast

from tests.test_architecture import is_ours, modules

# Names without an underscore that are still internals of the module they come from.
UNDOCUMENTED = {("json.encoder", "c_make_encoder"), ("json.encoder", "encode_basestring"),
                ("json.encoder", "py_encode_basestring"), ("json.decoder", "scanstring")}


def _private(module: str, name: str | None) -> bool:
    segments = module.split(".") + ([name] if name else [])
    return (any(s.startswith("_") and s != "__future__" for s in segments)
            or (module, name) in UNDOCUMENTED)


def test_no_module_imports_a_private_module_or_name() -> None:
    found = []
    for module, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                pairs = [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                pairs = [(node.module or "", alias.name) for alias in node.names]
            else:
                continue
            found += [f"{module}:{node.lineno} imports {dotted}" + (f" {name}" if name else "")
                      for dotted, name in pairs if not is_ours(dotted) and _private(dotted, name)]
    assert not found, "\n".join(found)
