"""The audit's identifier check: ids in the formats the real APIs use.

A field whose name says what identifier it holds (``sha256``, ``md5``, ``tx_hash``,
``wallet_address``, ``isbn``, ``doi``, ``issn``, ``iban``, ``card_number``, ``cve_id``…,
see ``simulators.id_formats``) must hold one in its real format: a SHA-256 of 64 hex
digits, not "M97A5H5E"; a wallet "0x" and 40 hex digits, not a street address. The
call's own arguments are exempt: an echo repeats what the caller sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from env_server.simulators.id_formats import ID_FORMAT_PATTERNS, id_format_kind
from env_server.simulators.naming import snake
from env_server.simulators.plans import singular

Hit = tuple[str, str]


def id_format_hits(result: Any, entity: str, sent: frozenset[str]) -> list[Hit]:
    """Every identifier field of ``result`` whose value is not in its kind's format."""
    return list(_walk(result, "$", "", snake(entity), sent))


def _walk(value: Any, path: str, key: str, entity: str, sent: frozenset[str]) -> Iterator[Hit]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, f"{path}.{k}", k, entity, sent)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]", singular(key), entity, sent)
    elif isinstance(value, str) and key and value not in sent:
        kind = id_format_kind(snake(key), entity)
        pattern = ID_FORMAT_PATTERNS.get(kind) if kind is not None else None
        if kind is not None and pattern is not None and not pattern.match(value):
            yield path, f"{key} {value[:40]!r} is not a {kind.replace('_', ' ')} in its real format"
