"""Software-development values in the shapes real services print them.

Branches are ``main`` or ``feature/checkout-retry``, not a slug of the record's title; a
commit is 40 hex digits, not a UUID; a content hash or an image digest is a SHA-256. The
field-name rules here run before the generic ones in ``naming``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

DEFAULT_BRANCHES = ("main",) * 6 + ("master",) * 2 + ("develop",)


def _hex(gen: Generation, n: int) -> str:
    return f"{gen.rng.getrandbits(4 * n):0{n}x}"


def _branch(gen: Generation) -> str:
    """A working branch: mostly topic branches, now and then the default one."""
    if gen.rng.random() < 0.25:
        return gen.rng.choice(DEFAULT_BRANCHES)
    return str(gen.rng.choice(gen.facts.vocab.get("git_branch").values))


DEV_KINDS: dict[str, Callable[[Generation], Any]] = {
    "git_branch": _branch,
    "default_branch": lambda g: g.rng.choice(DEFAULT_BRANCHES),
    "git_sha": lambda g: _hex(g, 40),
    "sha256": lambda g: _hex(g, 64),
    "image_digest": lambda g: f"sha256:{_hex(g, 64)}",
}

DEV_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), k)
    for p, k in [
        (r"^(base_ref|target_branch|destination_branch|default_branch|main_?branch|base_branch)$", "default_branch"),
        (r"^(branch|branch_name|head_ref|source_branch|head_branch|ref_name)$", "git_branch"),
        (r"^(sha|sha1|commit_sha|head_sha|commit_hash|revision|vcs_revision|commit_id)$", "git_sha"),
        (r"^(content_hash|sha256|checksum_sha256)$", "sha256"),
        (r"^(digest|image_digest|config_digest)$", "image_digest"),
    ]
]
