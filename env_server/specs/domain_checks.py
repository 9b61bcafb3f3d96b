"""The audit's per-API domain checks: answers a person who knows the API would believe.

``domain_hits(result, args)`` reads every record of a result and reports:

* a word list that ignores its word question: a completion not starting with the typed
  ``prefix``;
* a commit or revision that is not hex (a UUID where Git prints 40 hex digits), an image
  digest that is not ``sha256:<64 hex>``, a branch name with spaces;
* a record whose page URL slug names another title than the record's own (a track "Amber
  Waves" at ``/songs/cloud-nine``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

_SHA_FIELDS = frozenset({"sha", "commit_sha", "head_sha", "commit_hash", "revision", "vcs_revision"})
_BRANCH_FIELDS = frozenset({"branch", "branch_name", "head_ref", "base_ref", "source_branch", "target_branch",
                            "destination_branch", "default_branch", "mainbranch", "main_branch"})
_HEX = re.compile(r"^[0-9a-f]{7,64}$")
_DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")
_PAGE_FIELDS = ("url", "link", "permalink_url", "html_url", "web_url", "uri", "share_url")
_TITLE_FIELDS = ("title", "name")


def domain_hits(result: Any, args: Mapping[str, Any]) -> list[Hit]:
    """Domain findings in ``result`` for a call with ``args``."""
    prefix = args.get("prefix")
    found: list[Hit] = []
    for path, record in walk_records(result):
        if isinstance(prefix, str) and prefix.strip():
            found += _prefix_hits(path, record, prefix.strip().lower())
        found += _git_hits(path, record)
        found += _slug_hits(path, record)
    return found


def _prefix_hits(path: str, record: Mapping[str, Any], prefix: str) -> list[Hit]:
    word = record.get("word")
    if isinstance(word, str) and not word.lower().startswith(prefix):
        return [(f"{path}.word", f"completion '{word}' does not start with the typed prefix '{prefix}'")]
    return []


def _git_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    hits: list[Hit] = []
    for key, value in record.items():
        if not isinstance(value, str):
            continue
        low = snake(key)
        if low in _SHA_FIELDS and not _HEX.match(value):
            hits.append((f"{path}.{key}", f"commit '{value}' is not a hex SHA"))
        elif low in ("digest", "image_digest") and not _DIGEST.match(value):
            hits.append((f"{path}.{key}", f"image digest '{value}' is not sha256:<64 hex>"))
        elif low in _BRANCH_FIELDS and (" " in value or not value):
            hits.append((f"{path}.{key}", f"branch name '{value}' is not a Git ref"))
    return hits


def _titled(text: str) -> bool:
    """Whether ``text`` reads as a title a page is named after (not a code, an id or a file)."""
    return len(slugify(text)) >= 4 and "." not in text and not any(ch.isdigit() for ch in text)


def _slug_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """A page whose last path segment reads as a slug of words must be the record's title's."""
    title = next((v for k in _TITLE_FIELDS if isinstance(v := record.get(k), str) and v.strip()), None)
    if title is None or not _titled(title) or "method" in record:
        return []  # an HTTP request's url is an endpoint, not the record's page
    for key in _PAGE_FIELDS:
        url = record.get(key)
        if not isinstance(url, str) or not url.startswith("http"):
            continue
        segment = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
        if "-" not in segment or "." in segment or any(ch.isdigit() for ch in segment):
            continue  # an id, a file, or a one-word path: nothing to compare
        if segment != slugify(title)[: len(segment)] and slugify(title) not in segment:
            return [(f"{path}.{key}", f"page slug '{segment}' does not name the record's title '{title}'")]
    return []
