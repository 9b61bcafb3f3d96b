"""Labels drawn from the vocabulary of the record's own trade: a company's industries, a
charity's name and NTEE category, a dictionary sense's register and subject, not the everyday
``category`` list ("Podcasts" for a charity).

``content_kind(name, entity, hint)`` is asked once per schema node (``plans``), before the
field name's generic kind; it answers None unless the field and its record say which label.
"""

from __future__ import annotations

import functools
import re

from env_server.simulators.naming import snake

# Hints too broad to say which label (a profile's "category" for a charity's NTEE class).
_BROAD_HINTS = frozenset({None, "category", "tag", "word", "text", "title", "status", "genre", "percentage"})
_CHARITY = frozenset({"charity", "charities", "nonprofit", "nonprofits", "organization", "organisation", "ngo",
                      "foundation", "exempt"})
_DICTIONARY = frozenset({"dictionary", "entry", "entries", "sense", "senses", "thesaurus", "lemma", "definition", "translation",
                         "word", "headword", "meaning", "synonym"})

_INDUSTRY = re.compile(r"^(industry|industries|sector|sectors|industry_name)$")
_CHARITY_CLASS = re.compile(r"^(category|categories|category_desc|cause|causes|ntee_type|ntee_category|ntee_desc|"
                            r"classification)$")
_CHARITY_NAME = re.compile(r"^(name|charity_name|organization_name|organisation_name|org_name|nonprofit_name)$")
_NAME_HINTS = frozenset({None, "company", "name", "title"})
_CONTENT = frozenset({"content", "body", "full_text", "text"})
_REGISTER = re.compile(r"^(register|registers)$")
_SUBJECT = re.compile(r"^(domain|domains|subject_domain|subject_domains|subject|subjects)$")


@functools.lru_cache(maxsize=8192)
def content_kind(name: str, entity: str, hint: str | None) -> str | None:
    """The trade vocabulary of a label field, or None to let the other rules decide."""
    low, words = snake(name), set(snake(entity).split("_"))
    if words & _CHARITY and hint in _NAME_HINTS and _CHARITY_NAME.match(low):
        return "charity_name"  # "Cedar Grove Food Pantry", not the law firm "Adams, Murphy and Clayton"
    if low in _CONTENT and hint == "news_summary":
        return "news_content"  # the body's opening, longer than its summary and cut short
    if hint not in _BROAD_HINTS:
        return None
    if _INDUSTRY.match(low):
        return "industry"
    if words & _CHARITY and _CHARITY_CLASS.match(low):
        return "charity_category"
    if words & _DICTIONARY and _REGISTER.match(low):
        return "word_register"
    if words & _DICTIONARY and _SUBJECT.match(low) and hint != "title":
        return "subject_domain"
    return None
