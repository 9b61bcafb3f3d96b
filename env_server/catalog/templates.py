"""Entity templates: what one record of a domain holds, kept as data.

An imported tool (WildToolBench, ToolAlpaca, an OpenAI tool list) names its inputs but not
its output. ``tool_specs/templates/<name>.json`` describes, per domain, the record a real
API answers with (a weather report, a stock quote, a show, a flight …): its fields with
types, enums and bounds, and the value kind of each field whose name alone is ambiguous.
``choose_template`` picks the template whose keywords best match the tool's name and
description; ``infer`` builds the tool's output schema around that record.

Scoring: a keyword among the tool name's words scores 3 (2 after "by", "for", "and" …,
where names list filters: ``getBooksByAuthor``; 1 for a leading verb that is also a noun:
``storeJsonData``, ``bookTrainTickets``); a keyword of several words found whole in the
name scores 3 per word, so "air quality" outscores "air". Otherwise a keyword found in
the description scores 1 per word. Singular and plural forms match. The highest score wins; a tie goes to
the template whose keyword sits later in the name (``getAirportWeather`` is weather, not
an airport), then to the template name. Below ``MIN_SCORE`` the ``generic`` template
answers.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from env_server.catalog.words import split_words, text_words, word_forms
from env_server.errors import CatalogError

GENERIC = "generic"
NAME_SCORE = 3
DESCRIPTION_SCORE = 1
MIN_SCORE = 2
# Keywords JSON Schema may use in a record; anything else (``$ref``, ``oneOf``, ``pattern``)
# is refused, as in native specs.
_ALLOWED_KEYS = frozenset(
    {"type", "properties", "required", "items", "enum", "format", "minimum", "maximum", "minItems", "maxItems",
     "uniqueItems", "description", "additionalProperties"}
)
_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean"})


class EntityTemplate(BaseModel):
    """One ``tool_specs/templates/<name>.json`` file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Equals the file stem.")
    description: str = Field(min_length=10, description="The domain, and which real APIs the record follows.")
    keywords: list[str] = Field(description="Words matched against a tool's name words and description.")
    entity: str | None = Field(
        default=None, pattern=r"^[a-z][a-z0-9_]*$",
        description="Profile entity for tools that read or act without an id (the generator reads it).",
    )
    has_id: bool = Field(
        default=True,
        description="False for observations (weather, quotes, conversions): no entity id unless the call uses one.",
    )
    record: dict[str, Any] = Field(description="JSON Schema of ONE record: an object with typed properties.")
    hints: dict[str, str] = Field(default_factory=dict, description="Record field name -> value kind.")

    @field_validator("keywords")
    @classmethod
    def _keywords_are_words(cls, value: list[str]) -> list[str]:
        for keyword in value:
            if not keyword or keyword != keyword.strip().lower() or not all(w.isalnum() for w in keyword.split()):
                raise ValueError(f"keyword {keyword!r}: lowercase words separated by single spaces")
        forms = [[word_forms(w) for w in k.split()] for k in value]
        for i, a in enumerate(forms):
            for b in forms[:i]:
                if len(a) == len(b) and all(x & y for x, y in zip(a, b, strict=True)):
                    raise ValueError(f"keyword {value[i]!r} repeats another (singular and plural match)")
        return value

    @field_validator("record")
    @classmethod
    def _record_is_an_object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        Draft202012Validator.check_schema(value)
        if value.get("type") != "object" or not value.get("properties"):
            raise ValueError("record must be an object schema with properties")
        problems = list(_schema_problems(value, "record"))
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @model_validator(mode="after")
    def _hints_name_fields(self) -> EntityTemplate:
        unknown = sorted(set(self.hints) - set(self.field_names()))
        if unknown:
            raise ValueError(f"hints name fields the record lacks: {unknown}")
        return self

    @property
    def properties(self) -> dict[str, Any]:
        props: dict[str, Any] = self.record["properties"]
        return props

    @property
    def required(self) -> list[str]:
        return [r for r in self.record.get("required") or [] if r in self.properties]

    def field_names(self) -> list[str]:
        """Every property name of the record, nested ones included."""
        return [name for name, _ in iter_fields(self.record)]


def _schema_problems(schema: Any, path: str) -> Iterator[str]:
    if not isinstance(schema, dict):
        yield f"{path}: not a schema object"
        return
    extra = set(schema) - _ALLOWED_KEYS
    if extra:
        yield f"{path}: unsupported keywords {sorted(extra)}"
    if "enum" not in schema and schema.get("type") not in _TYPES:
        yield f"{path}: needs a type (one of {sorted(_TYPES)}) or an enum"
    if schema.get("type") == "object":
        props = schema.get("properties")
        if not isinstance(props, dict) or not props:
            yield f"{path}: objects need properties"
        for key, sub in (props or {}).items():
            yield from _schema_problems(sub, f"{path}.{key}")
        missing = [r for r in schema.get("required") or [] if r not in (props or {})]
        if missing:
            yield f"{path}: required names missing properties {missing}"
    if schema.get("type") == "array":
        if not isinstance(schema.get("items"), dict):
            yield f"{path}: arrays need items"
        else:
            yield from _schema_problems(schema["items"], f"{path}[]")


def iter_fields(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(name, schema)`` of every property in a schema, depth first."""
    for key, sub in (schema.get("properties") or {}).items():
        yield key, sub
        if sub.get("type") == "array" and isinstance(sub.get("items"), dict):
            yield from iter_fields(sub["items"])
        elif sub.get("type") == "object":
            yield from iter_fields(sub)


# -- loading --------------------------------------------------------------------------------


def templates_dir() -> Path:
    """``tool_specs/templates`` as shipped inside the package."""
    return Path(str(resources.files("tool_specs") / "templates"))


def read_templates(directory: Path) -> tuple[EntityTemplate, ...]:
    """Every template of a directory, sorted by name; a bad file is a ``CatalogError``."""
    found: list[EntityTemplate] = []
    for path in sorted(directory.glob("*.json")):
        try:
            template = EntityTemplate.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except ValueError as exc:
            raise CatalogError(f"{path}: {exc}") from exc
        if template.name != path.stem:
            raise CatalogError(f"{path}: name '{template.name}' differs from the file name")
        found.append(template)
    if not any(t.name == GENERIC for t in found):
        raise CatalogError(f"{directory}: the '{GENERIC}' fallback template is missing")
    return tuple(found)


@functools.lru_cache(maxsize=1)
def default_templates() -> tuple[EntityTemplate, ...]:
    return read_templates(templates_dir())


# -- choosing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """How well a template fits a tool: its score and where its best name word sits."""

    template: EntityTemplate
    score: int
    position: int

    @property
    def key(self) -> tuple[int, int]:
        return self.score, self.position


@dataclass(frozen=True)
class ToolWords:
    """A tool's name words (with how much each counts) and its description words."""

    name: tuple[frozenset[str], ...]
    weights: tuple[int, ...]
    description: tuple[frozenset[str], ...]

    @functools.cached_property
    def starts(self) -> dict[str, tuple[int, ...]]:
        """Each word form of the description -> the positions it appears at."""
        found: dict[str, list[int]] = {}
        for i, forms in enumerate(self.description):
            for form in forms:
                found.setdefault(form, []).append(i)
        return {form: tuple(at) for form, at in found.items()}

    @classmethod
    def of(cls, name: str, description: str) -> ToolWords:
        words = split_words(name)
        weights: list[int] = []
        weight = NAME_SCORE
        for i, word in enumerate(words):
            if word in _LINKS:
                weight = NAME_SCORE - 1  # "getBooksByAuthor": the author filters, the book is the subject
            leading_verb = i == 0 and len(words) > 1 and word in _NOUN_VERBS
            weights.append(DESCRIPTION_SCORE if leading_verb else weight)
        return cls(tuple(map(word_forms, words)), tuple(weights), tuple(map(word_forms, text_words(description))))


# Leading verbs that are also nouns of a domain: ``bookTrainTickets`` books no book.
_NOUN_VERBS = frozenset({"book", "store", "place", "post", "order", "track", "stream", "report", "print", "share",
                         "play", "rate", "save", "plan", "process", "list", "set", "check", "map", "park", "pin",
                         "note", "file", "mail", "message", "alert", "ride", "trade", "transfer", "match", "search",
                         "schedule", "reserve", "ticket", "tip", "get"})
# Words after which a name's words name filters rather than the thing returned.
_LINKS = frozenset({"by", "for", "with", "from", "in", "of", "and", "to", "per", "on", "at"})


def score_template(template: EntityTemplate, words: ToolWords) -> Match:
    score, position = 0, -1
    for keyword in template.keywords:
        wanted = keyword_forms(keyword)
        at = [_last_index(forms, words.name) for forms in wanted]
        if all(i >= 0 for i in at):
            # A phrase found whole in the name is specific: every word counts fully.
            score += NAME_SCORE * len(at) if len(at) > 1 else words.weights[at[0]]
            position = max(position, *at)
        elif _phrase_in(wanted, words):
            score += DESCRIPTION_SCORE * len(wanted)
    return Match(template, score, position)


def _last_index(forms: frozenset[str], name: tuple[frozenset[str], ...]) -> int:
    return next((i for i in range(len(name) - 1, -1, -1) if forms & name[i]), -1)


@functools.lru_cache(maxsize=1024)
def keyword_words(keywords: tuple[str, ...]) -> frozenset[str]:
    """Every form of every word of a template's keywords."""
    return frozenset().union(*(forms for keyword in keywords for forms in keyword_forms(keyword)))


@functools.lru_cache(maxsize=4096)
def keyword_forms(keyword: str) -> tuple[frozenset[str], ...]:
    return tuple(word_forms(w) for w in keyword.split())


def _phrase_in(wanted: tuple[frozenset[str], ...], words: ToolWords) -> bool:
    """Whether the description holds the phrase: its first word's positions, then the rest."""
    text, n = words.description, len(wanted)
    starts = {i for form in wanted[0] for i in words.starts.get(form, ())}
    return any(i + n <= len(text) and all(w & text[i + j] for j, w in enumerate(wanted[1:], 1)) for i in starts)


def rank_templates(name: str, description: str,
                   templates: tuple[EntityTemplate, ...] | None = None) -> list[Match]:
    """Every non-generic template's match for a tool, best first."""
    words = ToolWords.of(name, description)
    present = frozenset().union(*words.name, *words.description)
    # A template none of whose keyword words the tool mentions scores nothing: skip the scan.
    matches = [score_template(t, words) if keyword_words(tuple(t.keywords)) & present else Match(t, 0, -1)
               for t in templates or default_templates() if t.name != GENERIC]
    # Stable sort: equal keys keep the templates' (name) order.
    return sorted(matches, key=lambda m: m.key, reverse=True)


def choose_template(name: str, description: str,
                    templates: tuple[EntityTemplate, ...] | None = None) -> EntityTemplate:
    """The template a tool's output follows; ``generic`` when no domain fits."""
    pool = templates or default_templates()
    ranked = rank_templates(name, description, pool)
    if ranked and ranked[0].score >= MIN_SCORE:
        return ranked[0].template
    return next(t for t in pool if t.name == GENERIC)
