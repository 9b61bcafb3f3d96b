"""The task builders use the composer through its public methods only."""

from __future__ import annotations

import ast
import inspect

from env_server.generator import compose, tasks


def _private_uses(module: object, receiver: str) -> list[str]:
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    return sorted({
        f"{node.lineno}: {receiver}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver
        and node.attr.startswith("_")
    })


def test_task_builders_reach_no_private_composer_member():
    assert _private_uses(tasks, "c") == []
    imported = [alias.name for node in ast.walk(ast.parse(inspect.getsource(tasks)))
                if isinstance(node, ast.ImportFrom) and node.module == compose.__name__ for alias in node.names]
    assert imported and not [name for name in imported if name.startswith("_")]


def test_the_composer_api_is_public_and_says_what_it_promises():
    for name in ("call", "reply", "finish", "window", "say", "phrase", "ask_text", "clarify_nodes", "required"):
        method = getattr(compose.Composer, name, None)
        assert callable(method), name
        assert inspect.getdoc(method), f"Composer.{name} has no docstring"
