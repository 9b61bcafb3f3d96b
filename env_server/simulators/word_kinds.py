"""Words that answer the word question asked: completions start with the typed prefix,
rhymes end like the word, "means like" gives its synonyms.

Datamuse-style tools list ``word`` rows; drawn freely they ignore the query. The ``word``
kind reads the call's prefix / rhyme / meaning argument and draws from the dictionary
vocabulary (its words, synonyms and antonyms) the ones that fit, item ``index`` of a list
taking the ``index``-th fit so a list does not repeat itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.vocab import Vocabulary

_PREFIX_ARGS = ("prefix", "starts_with", "sp", "s")
_RHYME_ARGS = ("rhymes_with", "rel_rhy", "rhyme", "rel_nry")
_MEANING_ARGS = ("means_like", "ml", "related_to", "synonym_of", "rel_syn")


class WordIndex:
    """Every word the dictionary vocabulary holds (headwords and their related words), sorted,
    and each headword's synonyms."""

    def __init__(self, vocab: Vocabulary) -> None:
        records = vocab.get("dictionary_word").records
        words = {str(r["word"]) for r in records}
        for r in records:
            words.update(str(w) for w in (*r.get("synonyms", ()), *r.get("antonyms", ())) if " " not in str(w))
        self.words: tuple[str, ...] = tuple(sorted(words))
        self.synonyms: dict[str, tuple[str, ...]] = {str(r["word"]): tuple(r.get("synonyms", ())) for r in records}
        self.glossed: tuple[tuple[str, frozenset[str]], ...] = tuple(
            (str(r["word"]), frozenset(w.strip(".,;:'").lower() for w in str(r["definition"]).split()))
            for r in records)

    def described_by(self, phrase: str) -> tuple[str, ...]:
        """Headwords whose definition uses a content word of ``phrase`` ("ringing in the ears")."""
        wanted = {w for w in phrase.lower().split() if len(w) > 3}
        return tuple(word for word, gloss in self.glossed if wanted & gloss)

    def fitting(self, gen: Generation) -> tuple[str, ...]:
        """The words that fit the call's word question, or () when it asks none."""
        args = gen.snaked_args
        prefix = _arg(args, _PREFIX_ARGS)
        if prefix:
            return tuple(w for w in self.words if w.startswith(prefix.lower()))
        rhyme = _arg(args, _RHYME_ARGS)
        if rhyme:
            tail = rhyme.lower()[-3:]
            return tuple(w for w in self.words if w.endswith(tail) and w != rhyme.lower())
        meaning = _arg(args, _MEANING_ARGS)
        if meaning:
            return self.synonyms.get(meaning.lower().strip(), ()) or self.described_by(meaning)
        return ()


def _arg(args: dict[str, Any], names: tuple[str, ...]) -> str | None:
    value = next((args[n] for n in names if isinstance(args.get(n), str) and args[n].strip()), None)
    return str(value).strip() if value is not None else None


def _word(gen: Generation) -> str:
    fits = gen.facts.words.fitting(gen)
    if fits:
        start = gen.draw_offset % len(fits)
        return fits[(start + gen.scope.index) % len(fits)]
    return str(gen.scope.vocab_record("dictionary_word")["word"])


WORD_KINDS: dict[str, Callable[[Generation], Any]] = {"word": _word}
