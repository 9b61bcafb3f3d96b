"""A dictionary record of the word asked, from WordNet (``lexicon``): its own senses.

``lexicon_step`` is chosen once per object schema of a dictionary answer: a record with the
call's word and a list of senses in one of the shapes the dictionary APIs use (Free
Dictionary's ``meanings``, a thesaurus's ``senses``, Oxford's ``lexical_entries``,
Wiktionary's ``usages``, Merriam-Webster's ``entries``, Wordnik's and WordsAPI's flat
definition lists, a pooled ``synonyms``/``antonyms`` record, WordsAPI's ``related``). It
rewrites those lists with the word's real senses, part of speech asked for, definitions,
examples, synonyms, antonyms and broader terms; other fields of an item (a register, a
domain) stay as drawn. A word WordNet does not know is the API's 404. Datamuse-style word
lists are ``lexicon_lists``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.errors import EntityNotFoundError
from env_server.simulators import lexicon_lists
from env_server.simulators.lexicon import Lexicon, Sense
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]
Filler = Callable[[dict[str, Any], "Lookup"], None]

_POS_KEYS = ("part_of_speech", "functional_label", "lexical_category")
_DEF_KEYS = ("definition", "gloss")
_PER_GROUP = 6
_FLAT = 10
WORDNET_ATTRIBUTION = "from WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved."


class Lookup:
    """One call's word, its senses and the list schemas to fill."""

    def __init__(self, word: str, gen: Generation, props: Mapping[str, Any]) -> None:
        self.word = word
        self.gen = gen
        self.props = props
        self.lex: Lexicon = gen.facts.reference.lexicon
        self.senses = self.lex.senses(word)

    def item_props(self, key: str) -> Mapping[str, Any]:
        items = (self.props.get(key) or {}).get("items") or {}
        return items.get("properties") or {}

    def synonyms(self, sense: Sense) -> list[str]:
        return [w for w in sense.words if w.lower() != self.word.lower()]

    def antonyms(self, sense: Sense) -> list[str]:
        return list(dict.fromkeys(self.lex.antonyms(sense, self.word)))

    def broader(self, sense: Sense) -> list[str]:
        return [s.words[0] for s in self.lex.related(sense, ("@", "@i"))]

    def groups(self) -> list[tuple[str, list[Sense]]]:
        """The senses by part of speech, in WordNet's order (nouns, verbs, adjectives, adverbs)."""
        found: dict[str, list[Sense]] = {}
        for sense in self.senses:
            found.setdefault(sense.part_of_speech, []).append(sense)
        return [(pos, senses[:_PER_GROUP]) for pos, senses in found.items()]


def _base(record: dict[str, Any], key: str, i: int) -> dict[str, Any]:
    drawn = record.get(key)
    if isinstance(drawn, list) and drawn and isinstance(drawn[0], dict):
        return dict(drawn[i % len(drawn)])
    return {}


def fill_sense(item: dict[str, Any], props: Mapping[str, Any], sense: Sense, look: Lookup) -> dict[str, Any]:
    """``item`` with every lexical field of ``props`` set from ``sense``."""
    for key in props:
        name = snake(key)
        if name in _POS_KEYS:
            item[key] = sense.part_of_speech
        elif name in ("definition", "example") and name != key:
            item[key] = sense.definition if name == "definition" else (sense.examples or ("",))[0]
        elif key in _POS_KEYS:
            item[key] = sense.part_of_speech
        elif key in _DEF_KEYS or (key == "text" and "source_dictionary" in props):
            item[key] = sense.definition
        elif key in ("examples", "sentences"):
            item[key] = list(sense.examples)
        elif key == "example":
            item[key] = sense.examples[0] if sense.examples else ""
        elif key == "synonyms":
            item[key] = look.synonyms(sense)
        elif key == "antonyms":
            item[key] = look.antonyms(sense)
        elif key == "near_antonyms":
            item[key] = []
        elif key == "type_of":
            item[key] = look.broader(sense)
    return item


def _flat(key: str) -> Filler:
    """A list with one item per sense (a thesaurus's senses, Wordnik's and WordsAPI's definitions)."""
    def fill(record: dict[str, Any], look: Lookup) -> None:
        props = look.item_props(key)
        senses = look.senses
        asked = str(look.gen.snaked_args.get("part_of_speech") or "").lower()
        if asked:
            senses = tuple(s for s in senses if s.part_of_speech == asked)
        limit = look.gen.snaked_args.get("limit")
        senses = senses[: limit if isinstance(limit, int) and limit > 0 else _FLAT]
        items = [fill_sense(_base(record, key, i), props, s, look) for i, s in enumerate(senses)]
        for i, item in enumerate(items):
            if "source_dictionary" in props:
                item.update(source_dictionary="wordnet", attribution_text=WORDNET_ATTRIBUTION, sequence=i)
        record[key] = items
        if isinstance(record.get("total"), int):
            record["total"] = len(items)
    return fill


def _one_sense(record: dict[str, Any], look: Lookup) -> None:
    """A record that is one sense of the word: the first of the part of speech asked, else the first."""
    asked = str(look.gen.snaked_args.get("part_of_speech") or "").lower()
    sense = next((s for s in look.senses if s.part_of_speech == asked), look.senses[0])
    fill_sense(record, look.props, sense, look)


def _grouped(key: str) -> Filler:
    """One item per part of speech holding its senses (Free Dictionary, Oxford, Wiktionary, M-W)."""
    def fill(record: dict[str, Any], look: Lookup) -> None:
        props = look.item_props(key)
        groups = look.groups()
        record[key] = [_group_item(_base(record, key, i), props, pos, senses, look)
                       for i, (pos, senses) in enumerate(groups)]
        if "meta_id" in props and len(groups) > 1:
            for i, item in enumerate(record[key]):
                item["meta_id"] = f"{look.word}:{i + 1}"
        for item in record[key]:
            _drop_sounds(item, props)
        if key == "entries" and "suggestions" in record:
            record["suggestions"] = []
    return fill


def _group_item(item: dict[str, Any], props: Mapping[str, Any], pos: str, senses: list[Sense],
                look: Lookup) -> dict[str, Any]:
    for key, sub in props.items():
        if snake(key) in _POS_KEYS:  # "partOfSpeech" too: the class of the senses it holds
            item[key] = pos
        elif key in ("definitions", "short_definitions"):
            inner = (sub.get("items") or {}).get("properties")
            item[key] = ([fill_sense({}, inner, s, look) for s in senses] if inner
                         else [s.definition for s in senses[:3 if key == "short_definitions" else None]])
        elif key == "examples":
            item[key] = [e for s in senses for e in s.examples][:4]
        elif key in ("headword", "meta_id"):
            item[key] = look.word
        elif key == "stems":
            item[key] = [look.word]
        elif key == "offensive":
            item[key] = False
        elif key == "language":
            item[key] = "en"
        elif key == "language_name":
            item[key] = "English"
    return item


_SOUND_KEYS = ("phonetic", "phonetic_spelling", "audio_file")


def _drop_sounds(record: dict[str, Any], props: Mapping[str, Any]) -> None:
    """Transcriptions and etymologies WordNet does not hold are left out, not made up."""
    for key in _SOUND_KEYS:
        if key in record and key in props:
            del record[key]
    if "etymologies" in record:
        record["etymologies"] = []


def _pos_meanings(record: dict[str, Any], look: Lookup) -> None:
    """Free Dictionary's senses of one part of speech; none of that class is its 404."""
    asked = str(look.gen.snaked_args.get("part_of_speech") or "").lower()
    senses = [s for s in look.senses if s.part_of_speech == asked]
    if not senses:
        raise EntityNotFoundError(f"No {asked} definitions found for the word '{look.word}' (404).")
    props = look.item_props("definitions")
    record["definitions"] = [fill_sense(_base(record, "definitions", i), props, s, look) for i, s in enumerate(senses)]


def _pooled(record: dict[str, Any], look: Lookup) -> None:
    """Every sense's synonyms and antonyms in one record; ``sense_count`` counts those senses."""
    record["synonyms"] = list(dict.fromkeys(w for s in look.senses for w in look.synonyms(s)))
    record["antonyms"] = list(dict.fromkeys(w for s in look.senses for w in look.antonyms(s)))
    record["sense_count"] = len(look.senses)


def _phonetics(record: dict[str, Any], look: Lookup) -> None:
    """No package here gives IPA under a licence we take, so no transcription is made up."""
    for key in ("phonetics", "pronunciations"):
        if key in record:
            record[key] = []


def _filler_for(props: Mapping[str, Any]) -> Filler | None:
    keys = set(props)
    def items_of(key: str) -> set[str]:
        return set(((props.get(key) or {}).get("items") or {}).get("properties") or {})
    if "meanings" in keys:
        return _grouped("meanings")
    if {"definitions", "part_of_speech"} <= keys:
        return _pos_meanings
    if {"synonyms", "antonyms", "sense_count"} <= keys:
        return _pooled
    for key in ("lexical_entries", "usages", "entries"):
        if key in keys and items_of(key) & {"definitions", "short_definitions"}:
            return _grouped(key)
    for key in ("senses", "definitions", "results"):
        if key in keys and items_of(key) & {"definition", "gloss", "synonyms", "text"}:
            return _flat(key)
    if "definition" in keys and "word" in keys:
        return _one_sense
    if "phonetics" in keys or "pronunciations" in keys:
        return _phonetics
    return lexicon_lists.list_filler(props)


def lexicon_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that answers a dictionary record with the call's word's own senses, or None."""
    if "word" not in props and not _is_lexical(entity):
        return None
    filler = _filler_for(props)
    if filler is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        word = gen.snaked_args.get("word")
        if (index is not None and "meanings" not in props) or not isinstance(word, str) or not word.strip():
            return
        look = Lookup(word.strip(), gen, props)
        if not look.senses and filler is not lexicon_lists.lemmas_filler:
            raise EntityNotFoundError(f"No definitions found for the word '{word.strip()}' (404).")
        filler(record, look)
        fit_strings(record, props)
        _drop_sounds(record, props)
        _phonetics(record, look)
        if isinstance(record.get("origin"), str):
            record["origin"] = ""  # WordNet holds no etymology: none is made up
        if "entry_label" in record:
            record["entry_label"] = look.word
        if isinstance(record.get("source_urls"), list):
            record["source_urls"] = [f"https://en.wiktionary.org/wiki/{look.word}"]

    return step


_LEXICAL_ENTITIES = frozenset({"synonym", "antonym", "example", "dictionary_entry", "word_entry", "meaning", "thesaurus_entry", "pronunciation",
                               "definition", "word_details", "word_relation", "lemma", "example_sentence"})


def _is_lexical(entity: str) -> bool:
    return entity in _LEXICAL_ENTITIES


def fit_strings(record: Any, props: Mapping[str, Any]) -> None:
    """Word lists written where the schema asks for a string (an imported spec's
    ``"synonyms": {"type": "string"}``) become one comma-separated string, at any depth."""
    if not isinstance(record, dict):
        return
    for key, value in record.items():
        schema = props.get(key)
        if not isinstance(schema, dict):
            continue
        if isinstance(value, list) and schema.get("type") == "string":
            record[key] = ", ".join(str(v) for v in value)
        elif isinstance(value, dict):
            fit_strings(value, schema.get("properties") or {})
        elif isinstance(value, list):
            item_props = (schema.get("items") or {}).get("properties") or {}
            for item in value:
                fit_strings(item, item_props)

