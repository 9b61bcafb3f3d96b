"""A record's language is the language its own text is written in.

Every title, quote, message and description the engine writes comes from our vocabularies,
which are English; a quote that reads "Mountains are climbed one foothold at a time" is not
``"language": "ja"``, nor is a tweet in English ``"lang": "zh"``. ``language_step(entity,
props)`` is asked once per object schema (``record_steps``): a record with a field of text
and a language field says English, unless the call named the language (then it is echoed).

Records *about* languages (a list of languages, a translation or an edition in one, a detected
language, a place's spoken languages), records of code (a repository's or a snippet's
language is a programming language) and a work's ``original_language`` keep their own values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import PLACE_ENTITIES, snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

# The fields that say which language a record's text is in.
LANGUAGE_FIELDS = frozenset({"language", "lang", "language_code", "lang_code", "text_language", "content_language",
                             "default_language", "default_audio_language", "iso_language"})
# Fields of text our vocabularies write (a title, a quote, a message, a description).
TEXT_FIELDS = frozenset({"title", "name", "quote", "text", "content", "body", "message", "advice", "joke", "caption",
                         "comment", "review", "description", "summary", "headline", "bio", "status", "snippet",
                         "subject", "excerpt", "abstract", "overview", "synopsis", "full_text", "tweet", "post",
                         "slip", "setup", "punchline", "answer", "question", "lyrics", "intro"})
# Records about languages themselves, or where a language is what was asked or found.
_ABOUT_LANGUAGE = frozenset({"language", "languages", "translation", "translations", "detection", "detected", "locale",
                             "locales", "dictionary", "word", "words", "lemma", "entry", "definition", "transliteration",
                             "voice", "voices", "speech", "ocr", "subtitle", "subtitles", "caption_track",
                             "edition", "editions"})
# Records of code: their language is a programming language.
_CODE = frozenset({"repository", "repositories", "repo", "repos", "snippet", "snippets", "gist", "gists", "code",
                   "run", "script", "package", "library", "project", "query", "queries", "kernel", "notebook",
                   "compiler", "file", "commit", "language_stat"})
ENGLISH = "en"


def language_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that gives a record with text the language of that text, or None."""
    words = set(snake(entity).split("_"))
    if words & _ABOUT_LANGUAGE or words & PLACE_ENTITIES or words & _CODE:
        return None
    keys = [k for k, sub in props.items() if snake(k) in LANGUAGE_FIELDS and _takes_code(sub)]
    if not keys or not any(snake(k) in TEXT_FIELDS for k in props):
        return None
    chosen = {k: english_in(props[k]) for k in keys}
    if any(v is None for v in chosen.values()):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        for key, value in chosen.items():
            if key in record and snake(key) not in sent:
                record[key] = value

    return step


def english_in(schema: Any) -> str | None:
    """How the field's schema writes English: "en", an enum's own spelling of it, or None
    when the enum has no English."""
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if not isinstance(enum, list):
        return ENGLISH
    for option in enum:
        if isinstance(option, str) and option.lower() in ("en", "eng", "english", "en-us", "en_us", "en-gb"):
            return option
    return None


def _takes_code(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type", "string") == "string"
