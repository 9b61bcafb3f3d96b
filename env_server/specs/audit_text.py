"""Audit checks for text that gives a tool away: URLs off the provider's host, and naming
fields filled from a vocabulary of another domain.

* ``url_host``: a record's page or image URL (``url``, ``html_url``, ``gitguardian_url``,
  ``thumbnail``) lies on neither the provider's web host nor its CDN (see
  ``simulators/sites.py``). Fields that hold the record's own address (a website, a short
  link's destination) and URLs the caller sent are exempt.
* ``domain_text``: a field whose name says what it names (``detector_name``,
  ``section_id``, ``requirements``) drew its text from a catch-all vocabulary (document
  titles, personal notes, generic tags) in a tool that is not about documents or notes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

from env_server.catalog.models import ToolSpec
from env_server.simulators.agreement_rules import page_on_domain
from env_server.simulators.naming import description_kind, resolve_kind, snake, title_kind
from env_server.simulators.plans import singular
from env_server.simulators.sites import ProviderSites, Site, own_site, registrable
from env_server.specs.audit_checks import CheckKind, walk_strings

Hit = tuple[str, str]

# Kinds that stand in when nothing better is known: the text of an office, not of the domain.
CATCH_ALL_KINDS = frozenset({"document_title", "note_text", "tag"})
# Categories whose records really are documents, notes and tags.
_DOCUMENT_CATEGORIES = frozenset({"documents & productivity", "cloud storage & file sharing", "email",
                                  "test data", "text analysis", "calendar"})
_FREE_TEXT_WORDS = frozenset({"description", "summary", "details", "desc", "about", "body", "text"})
_TAG_HOLDERS = frozenset({"label", "labels", "tag", "tags", "keyword", "keywords", "topic", "topics", "genre",
                          "genres", "quote_genre", "column_names", "class"})
# Field words that say the field names a thing of the domain (not a free label).
_NAMING_WORDS = frozenset({"name", "title", "type", "requirements", "requirement", "objective", "section",
                           "detector", "model", "dataset", "framework", "category", "genre", "kind", "class",
                           "details", "description", "summary", "label"})


def text_checks(spec: ToolSpec, result: Any, sent: frozenset[str],
                sites: ProviderSites) -> Iterator[tuple[CheckKind, str, str]]:
    """Both checks of this module, tagged (the audit's one hook into it)."""
    site = sites.site_for(spec.provider, spec.link) if spec.link else None
    for path, detail in url_host_hits(result, spec, site, sent):
        yield CheckKind.URL_HOST, path, detail
    for path, detail in domain_text_hits(spec):
        yield CheckKind.DOMAIN_TEXT, path, detail


# Public hosts that real APIs link to for facts they do not host themselves: country flags
# (REST Countries, disease.sh, GeoDB all point at flagcdn.com), an author's encyclopedia
# article (Open Library's author records link to Wikipedia).
SHARED_IMAGE_HOSTS = frozenset({"flagcdn.com", "en.wikipedia.org"})


def url_host_hits(result: Any, spec: ToolSpec, site: Site | None, sent: frozenset[str]) -> list[Hit]:
    """URLs of the provider's own pages that are not on the provider's hosts (or a shared image host)."""
    if site is None:
        return []
    allowed = {site.web, site.cdn}
    home = registrable(site.web)
    hits: list[Hit] = []
    # A scanned page is on the record's own domain, not the provider's (``UrlOnItsDomain``).
    on_domain = {page for record in _records(result) if (page := page_on_domain(record)) is not None}
    for path, field, text in walk_strings(result):
        if not text.startswith(("http://", "https://")) or text in sent or text in on_domain or own_site(
                singular(field), spec.profile.entity):
            continue
        host = urlparse(text).netloc.lower()
        if host not in allowed and host not in SHARED_IMAGE_HOSTS and not host.endswith("." + home) and host != home:
            hits.append((path, f"{field}={text[:80]!r} is not on {spec.provider}'s host ({site.web} or {site.cdn})"))
    return hits


def _records(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside a result, itself included."""
    if isinstance(value, dict):
        yield value
        for sub in value.values():
            yield from _records(sub)
    elif isinstance(value, list):
        for sub in value:
            yield from _records(sub)


def domain_text_hits(spec: ToolSpec) -> list[Hit]:
    """Naming fields whose kind is a catch-all vocabulary, in a tool not about documents."""
    if spec.category.lower() in _DOCUMENT_CATEGORIES:
        return []
    profile = spec.profile
    inputs = {snake(k) for k in (spec.input_schema.get("properties") or {})}
    documents = "document" in spec.description.lower()  # the tool handles documents: their titles fit
    hits: list[Hit] = []
    for path, name, parent in _string_fields(spec.output_schema, "", "", "$"):
        words = set(snake(name).split("_"))
        if snake(name) in inputs or words.isdisjoint(_NAMING_WORDS):
            continue
        kind = _drawn_kind(resolve_kind(name, profile.entity, parent, profile.hints), profile.entity)
        if kind == "note_text" and not words.isdisjoint(_FREE_TEXT_WORDS):
            continue  # a post's, an issue's description may read as a note
        if kind == "tag" and not {snake(parent), snake(profile.entity), snake(name)}.isdisjoint(_TAG_HOLDERS):
            continue  # a label's name is a tag
        if kind == "document_title" and (title_kind(profile.entity) == "document_title" or documents):
            continue  # the record is a document, a page, a report
        if kind in CATCH_ALL_KINDS:
            hits.append((path, f"field '{name}' is drawn from the catch-all vocabulary '{kind}', not from "
                               f"{spec.provider}'s domain (give it a hint or a vocabulary of its own)"))
    return hits


def _drawn_kind(kind: str | None, entity: str) -> str | None:
    """The vocabulary a record-aware kind ends up drawing from."""
    if kind == "title":
        return title_kind(entity)
    if kind == "description":
        return description_kind(entity)
    return kind


def _string_fields(schema: Any, name: str, parent: str, path: str) -> Iterator[tuple[str, str, str]]:
    """``(path, field, parent)`` of every free string field of an output schema."""
    if not isinstance(schema, dict):
        return
    typ = schema.get("type")
    if typ == "object":
        for key, sub in (schema.get("properties") or {}).items():
            yield from _string_fields(sub, key, name, f"{path}.{key}")
    elif typ == "array":
        yield from _string_fields(schema.get("items") or {}, singular(name), name, f"{path}[]")
    elif typ == "string" and not ({"enum", "const", "format"} & set(schema)):
        yield path, name, parent
