"""Value kinds read off the text a call sends: what a text-analysis API answers about.

A sentiment, syntax, entity or spelling service talks about the caller's own text: its
sentences, its words and where they sit. These kinds take them from the call's text
argument (``text``, ``q``, ``content`` ...), so an entity is a word of the input, a
sentence's offset is where that sentence starts, and a translation is of the input (from
our phrasebook, ``tool_specs/vocab/phrasebook.json``, when the text is one of its
sentences, else the text itself, as a service does with what it cannot translate).

Items of a list take the input's words or sentences in order (the item index), so a list
of tokens reads the input from its start. ``TEXT_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Argument names that carry the text to analyse, in the order they are read.
TEXT_ARGS = ("text", "q", "content", "input_text", "input_string", "text_to_translate", "inputs", "input",
             "document", "sentence", "source_text", "content1", "texts", "query")
_TARGET_ARGS = ("target", "target_lang", "target_language", "to", "tl")
_SENTENCE_RE = re.compile(r"[^.!?]+[.!?]*")
_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_FALLBACK = "The weather is lovely today."


def call_text(gen: Generation) -> str:
    """The call's text to analyse (the first of ``TEXT_ARGS`` it sends)."""
    args = gen.snaked_args
    for key in TEXT_ARGS:
        value = args.get(key)
        if isinstance(value, list) and value and isinstance(value[0], str):
            value = value[0]
        if isinstance(value, str) and value.strip():
            return value.strip()
    return _FALLBACK


@functools.lru_cache(maxsize=1024)
def sentence_spans(text: str) -> tuple[tuple[int, str], ...]:
    """(offset, sentence) for each sentence of ``text``."""
    spans = [(m.start() + len(m.group()) - len(m.group().lstrip()), m.group().strip())
             for m in _SENTENCE_RE.finditer(text)]
    return tuple((at, s) for at, s in spans if s) or ((0, text),)


@functools.lru_cache(maxsize=1024)
def word_spans(text: str) -> tuple[tuple[int, str], ...]:
    """(offset, word) for each word of ``text``."""
    return tuple((m.start(), m.group()) for m in _WORD_RE.finditer(text)) or ((0, text),)


# Function words an entity, keyword or misspelling is never taken from.
_STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for with from into onto up down out over under is are was were be been "
    "am do does did have has had it its this that these those i me my we our you your he him his she her they them "
    "their not no so too very can could will would shall should may might must just than then there here what when "
    "where who whom which why how all any some each every more most less much many one".split())


@functools.lru_cache(maxsize=1024)
def keyword_spans(text: str) -> tuple[tuple[int, str], ...]:
    """The words of ``text`` that carry content (no function words), longest first."""
    found = [(at, w) for at, w in word_spans(text) if w.lower() not in _STOPWORDS and len(w) > 2]
    return tuple(sorted(found, key=lambda span: -len(span[1]))) or word_spans(text)


def _nth(spans: tuple[tuple[int, str], ...], gen: Generation) -> tuple[int, str]:
    return spans[gen.scope.index % len(spans)]


def _word(gen: Generation) -> tuple[int, str]:
    return _nth(word_spans(call_text(gen)), gen)


def _keyword(gen: Generation) -> tuple[int, str]:
    return _nth(keyword_spans(call_text(gen)), gen)


def _sentence(gen: Generation) -> tuple[int, str]:
    return _nth(sentence_spans(call_text(gen)), gen)


def translation(gen: Generation) -> str:
    """The input in the call's target language: the phrasebook's rendering of it."""
    text = call_text(gen)
    target = next((str(gen.snaked_args[k]).lower()[:2] for k in _TARGET_ARGS if gen.snaked_args.get(k)), "en")
    entry = gen.facts.vocab.lookup("phrasebook", text)
    if entry is None:
        return text
    return str(entry.get(target, text))


def source_language(gen: Generation) -> str:
    """The language the input is written in: the phrasebook's, else English."""
    text = call_text(gen)
    entry = gen.facts.vocab.lookup("phrasebook", text)
    if entry is None:
        return "en"
    return next((lang for lang, said in entry.items() if said == text), "en")


TEXT_KINDS: dict[str, Callable[[Generation], Any]] = {
    "input_text": call_text,
    "input_text.sentences": lambda g: [s for _, s in sentence_spans(call_text(g))],
    "input_text.words": lambda g: [w for _, w in word_spans(call_text(g))],
    "input_text.length": lambda g: len(call_text(g)),
    "input_text.sentence_count": lambda g: len(sentence_spans(call_text(g))),
    "input_text.word_count": lambda g: len(word_spans(call_text(g))),
    "input_text.language": source_language,
    "input_text.translation": translation,
    "input_word": lambda g: _word(g)[1],
    "input_word.start": lambda g: _word(g)[0],
    "input_word.end": lambda g: _word(g)[0] + len(_word(g)[1]),
    "input_word.length": lambda g: len(_word(g)[1]),
    "input_word.lemma": lambda g: _word(g)[1].lower(),
    "input_keyword": lambda g: _keyword(g)[1],
    "input_keyword.start": lambda g: _keyword(g)[0],
    "input_keyword.end": lambda g: _keyword(g)[0] + len(_keyword(g)[1]),
    "input_sentence": lambda g: _sentence(g)[1],
    "input_sentence.offset": lambda g: _sentence(g)[0],
    "input_sentence.length": lambda g: len(_sentence(g)[1]),
}
