"""Audit: a text-analysis answer talks about the caller's own text.

A tool that takes a text to analyse (a ``text``/``q``/``content`` parameter described as
text to analyse, classify, translate, tag, check ...) answers about that text: the words it
tags, the entities it finds, the sentences it splits or scores are pieces of the input.
A token such as "magnificent" for the input "Dinner at 7?" is a finding, and so is a
translation of a phrasebook sentence that is not the phrasebook's rendering of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.vocab import Vocabulary
from env_server.specs.audit_checks import Hit
from env_server.specs.sample_texts import is_text_param

# Fields of a list item that hold a piece of the analysed text.
PIECE_FIELDS = frozenset({"word", "token", "text", "original", "sentence", "lemma"})
PIECE_LISTS = frozenset({"sentences", "tokens", "words"})
TRANSLATION_FIELDS = frozenset({"translated_text", "translatedText", "translation"})
_TARGETS = ("target", "to", "target_lang", "tl")


def analysed_text(spec: ToolSpec, args: Mapping[str, Any]) -> str | None:
    """The text the call asks the tool to analyse, if it has such a parameter."""
    props = spec.input_schema.get("properties") or {}
    for name, schema in props.items():
        value = args.get(name)
        if isinstance(schema, dict) and isinstance(value, str) and is_text_param(name, schema):
            return value
    return None


def _pieces(value: Any, path: str, in_list: bool) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, sub in value.items():
            here = f"{path}.{key}"
            if in_list and key in PIECE_FIELDS and isinstance(sub, str):
                yield here, sub
            elif key in PIECE_LISTS and isinstance(sub, list) and all(isinstance(v, str) for v in sub):
                yield from ((f"{here}[{i}]", v) for i, v in enumerate(sub))
            else:
                yield from _pieces(sub, here, in_list)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _pieces(sub, f"{path}[{i}]", True)


def echo_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any, vocab: Vocabulary) -> list[Hit]:
    """Pieces of ``result`` that are not pieces of the analysed text, and wrong translations."""
    text = analysed_text(spec, args)
    if text is None:
        return []
    low = text.lower()
    hits = [(path, f"'{piece[:40]}' is not part of the analysed text '{text[:60]}'")
            for path, piece in _pieces(result, "$", False) if piece.strip().lower() not in low]
    entry = vocab.lookup("phrasebook", text)
    target = next((str(args[k])[:2].lower() for k in _TARGETS if isinstance(args.get(k), str)), None)
    if entry is not None and target in entry and isinstance(result, dict):
        for key in TRANSLATION_FIELDS & result.keys():
            if result[key] != entry[target]:
                hits.append((f"$.{key}", f"'{str(result[key])[:40]}' does not translate '{text[:40]}' into {target}"))
    return hits
