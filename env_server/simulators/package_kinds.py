"""What a package manifest holds as a registry publishes it: a dependency's semver range
("^1.19.0"), a tarball's Subresource Integrity digest ("sha512-…"), an entry point
("dist/index.js"), the Node.js versions it runs on, a deprecation notice; not a version
number, a random code, a document's file name or a to-do note.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_ENTRY_POINTS = ("index.js", "lib/index.js", "dist/index.js", "dist/index.cjs", "dist/index.mjs", "build/index.js",
                 "src/index.js", "main.js", "dist/cjs/index.js", "lib/main.js")


def semver_range(gen: Generation) -> str:
    """A dependency range as package.json writes it: mostly caret, some tilde or exact."""
    version = f"{gen.rng.randint(0, 9)}.{gen.rng.randint(0, 30)}.{gen.rng.randint(0, 20)}"
    return gen.rng.choice(("^", "^", "^", "~", "")) + version


def sri_integrity(gen: Generation) -> str:
    """A tarball's SHA-512 Subresource Integrity string."""
    return "sha512-" + base64.b64encode(gen.rng.getrandbits(512).to_bytes(64, "big")).decode()


_ENGINES = (">=14", ">=16", ">=18", ">=18.0.0", ">=20", "^18 || ^20 || >=22", ">=16.14.0", ">=20.9.0")
_DEPRECATIONS = (
    "This version has a known security issue; please upgrade to the latest release.",
    "No longer maintained. Please move to the next major version.",
    "Published by mistake; use the following patch release instead.",
    "This package has been renamed; install the scoped package instead.",
    "Breaks on current Node.js releases; upgrade to a newer version.",
    "Superseded by a rewrite; see the changelog for the migration guide.",
    "Contains a regression in the build output; fixed in the next patch.",
    "Support for this major version has ended.",
)

PACKAGE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "semver_range": semver_range,
    "sri_integrity": sri_integrity,
    "package_entry_point": lambda g: g.rng.choice(_ENTRY_POINTS),
    "node_engine": lambda g: g.rng.choice(_ENGINES),
    "deprecation_notice": lambda g: g.rng.choice(_DEPRECATIONS),
}
