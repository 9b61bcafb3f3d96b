"""Word lists that follow WordNet (``lexicon``): related words, lemmas, example sentences,
Datamuse's "means like", "related to" and completions.

``list_filler`` answers the records of ``lexicon_answers`` that list words rather than
senses: WordsAPI's ``related`` (synonyms, typeOf, hasParts ...), Oxford's ``lemmas`` and
``sentences``. ``word_list_step`` is chosen once per object schema of a Datamuse-style answer
(a query field and ``results``/``suggestions`` of ``word`` and ``score``): words that mean
like the query (its synonyms, similar and broader words), the relation asked (``syn``,
``ant``, ``spc``, ``gen``, ``com``, ``par``) or completions of a prefix, ranked with falling
scores. A word WordNet does not know has no related words (Datamuse answers ``[]``).
Relations WordNet does not hold (rhymes, adjective-noun pairs, triggers) stay as drawn.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.lexicon import Lexicon, Sense

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.lexicon_answers import Lookup

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

# WordsAPI relation names and Datamuse rel_ codes, as WordNet pointer symbols.
RELATIONS: dict[str, tuple[str, ...]] = {
    "typeOf": ("@", "@i"), "hasTypes": ("~", "~i"), "partOf": ("#p",), "hasParts": ("%p",),
    "memberOf": ("#m",), "hasMembers": ("%m",), "similarTo": ("&",), "also": ("^",), "entails": ("*",),
    "spc": ("@", "@i"), "gen": ("~", "~i"), "com": ("%p",), "par": ("#p",),
}
_TAGS = {"n": "n", "v": "v", "a": "adj", "s": "adj", "r": "adv"}
_TOP_SCORE = 90_000


def related_words(lex: Lexicon, word: str, relation: str) -> list[str]:
    """``word``'s words by a WordsAPI relation name or a Datamuse code, most frequent sense first."""
    senses = lex.senses(word)
    if relation in ("synonyms", "syn"):
        found = [w for s in senses for w in s.words]
    elif relation in ("antonyms", "ant"):
        found = [w for s in senses for w in lex.antonyms(s, word)]
    elif relation in RELATIONS:
        found = [r.words[0] for s in senses for r in lex.related(s, RELATIONS[relation], word)]
    else:
        return []
    return [w for w in dict.fromkeys(found) if w.lower() != word.lower()]


def means_like(lex: Lexicon, word: str) -> list[tuple[str, Sense]]:
    """Words close in meaning: each sense's synonyms, then its similar words, then broader ones."""
    found: dict[str, Sense] = {}
    senses = lex.senses(word)
    if not senses and " " in word.strip():  # a description ("ringing in the ears"): its longest words' senses
        words = sorted((w for w in re.findall(r"[a-z]+", word.lower()) if len(w) > 3), key=len, reverse=True)
        senses = tuple(s for w in words[:3] for s in lex.senses(w)[:2])
    for sense in senses:
        near = [(w, sense) for w in sense.words]
        near += [(w, s) for s in lex.related(sense, ("&", "^")) for w in s.words[:2]]
        near += [(s.words[0], s) for s in lex.related(sense, ("@", "@i"))]
        for w, s in near:
            if w.lower() != word.lower():
                found.setdefault(w, s)
    return list(found.items())


def completions(lex: Lexicon, prefix: str) -> list[str]:
    """Lemmas that start with ``prefix``; single words first, then by how many senses they have."""
    lemmas = lex.lemmas
    low = prefix.lower()
    start = bisect.bisect_left(lemmas, low)
    end = bisect.bisect_left(lemmas, low + "\uffff")
    found = [w for w in lemmas[start:end] if w.isascii()]
    return sorted(found, key=lambda w: (" " in w or "-" in w, -lex.sense_count(w), w))[:200]


def syllables(word: str) -> int:
    """Vowel groups, less a silent final e: close enough for a count Datamuse reports."""
    total = 0
    for part in word.lower().split():
        groups = len(re.findall(r"[aeiouy]+", part))
        if part.endswith("e") and not part.endswith(("le", "ee")) and groups > 1:
            groups -= 1
        total += max(groups, 1)
    return total


def _scored(words: list[str], item_props: Mapping[str, Any], senses: Mapping[str, Sense] | None = None
            ) -> list[dict[str, Any]]:
    out = []
    for rank, word in enumerate(words):
        item: dict[str, Any] = {"word": word, "score": max(_TOP_SCORE - rank * (_TOP_SCORE // (len(words) + 5)), 1)}
        if "num_syllables" in item_props:
            item["num_syllables"] = syllables(word)
        if "tags" in item_props and senses is not None:
            item["tags"] = ["syn", _TAGS[senses[word].pos]] if senses[word].pos else []
        out.append(item)
    return out


def _max(gen: Generation) -> int:
    cap = gen.snaked_args.get("max")
    return cap if isinstance(cap, int) and cap > 0 else 100


def word_list_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that answers a Datamuse-style word query from WordNet, or None for other records."""
    key = next((k for k in ("results", "suggestions") if k in props), None)
    query = next((q for q in ("means_like", "related_to", "prefix") if q in props), None)
    if key is None or query is None:
        return None
    item_props = ((props[key].get("items") or {}).get("properties")) or {}
    if not {"word", "score"} <= set(item_props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        asked = gen.snaked_args.get(query)
        if index is not None or not isinstance(asked, str) or not asked.strip():
            return
        lex: Lexicon = gen.facts.reference.lexicon
        word = asked.strip()
        if query == "means_like":
            pairs = means_like(lex, word)[:_max(gen)]
            record[key] = _scored([w for w, _ in pairs], item_props, dict(pairs))
        elif query == "prefix":
            record[key] = _scored(completions(lex, word)[:_max(gen)], item_props)
        elif str(gen.snaked_args.get("relation")) in (*RELATIONS, "syn", "ant"):
            record[key] = _scored(related_words(lex, word, str(gen.snaked_args["relation"]))[:_max(gen)], item_props)

    return step


def _related(record: dict[str, Any], look: Lookup) -> None:
    relation = str(look.gen.snaked_args.get("relation") or "")
    if relation != "rhymes":
        record["related"] = related_words(look.lex, look.word, relation)


def _feature(word: str, lemma: str, pos: str) -> list[dict[str, str]]:
    if pos == "n":
        return [{"type": "Number", "text": "Singular" if word == lemma else "Plural"}]
    if pos == "v" and word != lemma:
        return [{"type": "Tense", "text": "Present" if word.endswith("ing") or word.endswith("s") else "Past"}]
    if pos in ("a", "s") and word != lemma:
        return [{"type": "Degree", "text": "Superlative" if word.endswith("st") else "Comparative"}]
    return []


def lemmas_filler(record: dict[str, Any], look: Lookup) -> None:
    """Oxford's lemmas: the root forms ``word`` inflects (mice -> mouse, noun, plural)."""
    word = look.word.lower()
    forms = look.lex.base_forms(word)
    if not forms:
        from env_server.errors import EntityNotFoundError
        raise EntityNotFoundError(f"No lemma found for the word '{look.word}' (404).")
    names = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}
    record["lemmas"] = [{"lemma": lemma.replace("_", " "), "lexical_category": names[pos],
                         "grammatical_features": _feature(word, lemma, pos)} for lemma, pos in forms]


def _sentences(record: dict[str, Any], look: Lookup) -> None:
    drawn = [s for s in record.get("sentences") or [] if isinstance(s, dict)]
    found = [(e, s) for s in look.senses for e in s.examples]
    limit = look.gen.snaked_args.get("limit")
    found = found[: limit if isinstance(limit, int) and limit > 0 else None]
    record["sentences"] = [{**(drawn[i % len(drawn)] if drawn else {"region": "British"}), "text": text,
                            "sense_ids": [f"m_en_gbus{sense.offset:07d}.{i + 1:03d}"]}
                           for i, (text, sense) in enumerate(found)]


def list_filler(props: Mapping[str, Any]) -> Callable[[dict[str, Any], Lookup], None] | None:
    if "related" in props and "relation" in props:
        return _related
    if "lemmas" in props:
        return lemmas_filler
    if "sentences" in props:
        return _sentences
    return None
