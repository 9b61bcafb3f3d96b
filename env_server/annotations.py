"""MCP tool annotations, derived from each spec's simulation profile.

Clients use these hints to tell a lookup from a cancellation (to auto-approve reads, or
to ask before a delete). They describe the *simulated* world the tool acts on:

* ``readOnlyHint``: read, search and list change nothing.
* ``destructiveHint``: delete, and any other write whose name says it cancels, voids,
  revokes, refunds, closes, stops… (``CANCEL_VERBS``; the catalog models most
  cancellations as ``delete`` already). Creates and updates only add or edit fields of
  a row that stays, and actions leave rows alone, so they are not destructive.
* ``idempotentHint``: reads; updates, which set the given fields (PUT/PATCH semantics:
  a repeat leaves the same row); deletes and cancellations, whose repeat is refused
  ("already cancelled") with no further effect. Creates make a new row each time and
  actions (send, report, convert, talk to the user…) promise nothing, so they are not.
* ``openWorldHint`` is always false: no call leaves the simulator.
* ``title``: the tool name in words, with the provider's own name in front when the
  name starts with it ("AQICN: Get city AQI"; native specs only, imported ones carry a
  stand-in provider); words the description or provider write in capitals keep them.

:func:`tool_annotations` is memoized; ``server.ToolListings`` runs it over the whole
catalog at startup, so no request pays for it.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from mcp import types

from env_server.catalog.models import Operation, SourceFormat, ToolSpec
from env_server.catalog.words import split_words

READ_ONLY = frozenset({Operation.READ, Operation.SEARCH, Operation.LIST})
REPEATABLE_WRITES = frozenset({Operation.UPDATE, Operation.DELETE})
CANCEL_VERBS = frozenset(
    {"cancel", "void", "revoke", "decline", "reject", "refund", "abort", "terminate", "stop", "close", "archive"}
)
_WORD = re.compile(r"[A-Za-z0-9]+")
_SNAKE = re.compile(r"[a-z0-9_]+")
_NOT_KEY = re.compile(r"[^a-z0-9]")


def tool_annotations(spec: ToolSpec) -> types.ToolAnnotations:
    # Imported specs carry a stand-in provider (a group or scenario id), not an API's name;
    # a renamed second signature ('searchProducts__2') is titled by its original name.
    provider = spec.provider if spec.source is SourceFormat.NATIVE else ""
    return annotate(spec.base_name or spec.name, spec.profile.operation, provider, spec.description)


@functools.lru_cache(maxsize=16_384)
def annotate(name: str, op: Operation, provider: str, description: str) -> types.ToolAnnotations:
    """Memoized per spec: a catalog is annotated once per process, however many servers
    (tests build dozens) list it. The result is shared; never mutate it."""
    read_only = op in READ_ONLY
    return types.ToolAnnotations(
        title=tool_title(name, provider, description),
        read_only_hint=read_only,
        destructive_hint=op is Operation.DELETE or (not read_only and cancels(name)),
        idempotent_hint=read_only or op in REPEATABLE_WRITES,
        open_world_hint=False,
    )


def cancels(name: str) -> bool:
    return not CANCEL_VERBS.isdisjoint(name_words(name))


def tool_title(name: str, provider: str, description: str) -> str:
    words = name_words(name)
    owned = provider_words(words, provider)
    forms = written_forms(f"{provider} {description}")
    text = " ".join(forms.get(w, w) for w in words[owned:])
    text = text[:1].upper() + text[1:]
    return f"{provider}: {text}" if owned else text


def provider_words(words: list[str], provider: str) -> int:
    """How many leading words of a tool name spell its provider (never all of them):
    'aqicn_get_city_aqi' by AQICN -> 1, 'last_fm_get_top_tracks' by Last.fm -> 2,
    'met_museum_get_object' by Metropolitan Museum of Art -> 2, 'nyt_search_articles'
    by New York Times APIs -> 1 (the initials)."""
    key, tokens, initials = provider_keys(provider)
    joined, owned = "", 0
    for word in words[:-1]:
        if key.startswith(joined + word):
            joined += word
        elif word not in tokens and not (owned == 0 and len(word) > 1 and initials.startswith(word)):
            break
        owned += 1
    return owned


@functools.lru_cache(maxsize=4096)
def provider_keys(provider: str) -> tuple[str, frozenset[str], str]:
    """The provider as one ascii key, its words, and its initials ('New York Times' -> 'nyt')."""
    words = [ascii_key(t) for t in _WORD.findall(provider)]
    return ascii_key(provider), frozenset(words), "".join(w[0] for w in words if w)


def name_words(name: str) -> list[str]:
    """``split_words``, with a fast path for the catalog's snake_case names."""
    if _SNAKE.fullmatch(name):
        return [w for w in name.split("_") if w]
    return split_words(name)


def written_forms(text: str) -> dict[str, str]:
    """Lowercase word -> how the text writes it, for words written with inner or all
    capitals ('AQI', 'GitHub', 'iOS'); a capital only at the start counts for nothing."""
    return {w.lower(): w for w in _WORD.findall(text) if w != w.lower() and w != w.capitalize()}


def ascii_key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_KEY.sub("", folded.lower())
