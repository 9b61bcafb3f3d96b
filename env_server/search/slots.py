"""What a query hands over, and which tools take it: a place, a URL, a domain, an IP, an email, a phone.

"Job openings in London" names a place, so a tool with a ``where`` or ``city`` parameter can
answer it directly, while one that lists a single employer's openings cannot. "Is this URL safe
to open?" holds a URL, so a tool that checks URLs fits better than one that lists threat
categories. The query side reads values and phrases ("in Paris", "this domain", an address
like 8.8.8.8); the tool side reads the names and descriptions of the tool's parameters.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from env_server.catalog.models import ToolSpec


class Slot(str, Enum):
    PLACE = "place"
    URL = "url"
    DOMAIN = "domain"
    IP = "ip"
    EMAIL = "email"
    PHONE = "phone"
    DATE = "date"
    IMAGE = "image"
    TEXT = "text"


_HELD = r"\b(?:this|that|my|the|a|an|its|our)\s+"
_THIS = r"\b(?:this|that|these|those|the following)\s+(?:\w+\s+)?"
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
# How a query shows it holds a value of each kind: the value itself, or "this <kind>".
_QUERY: dict[Slot, re.Pattern[str]] = {
    # "in London", "near Union Square", "around Lyon": a capital letter marks a name; "near me" a position.
    Slot.PLACE: re.compile(
        r"\b(?:in|near|around|at|from|to)\s+(?:the\s+)?[A-Z][a-zà-ÿ]+"
        r"|\b(?:near me|nearby|near here|around here|close to me|closest|nearest)\b"
    ),
    Slot.URL: re.compile(rf"https?://|\bwww\.|{_HELD}(?:url|link|website|web ?page|site)\b", re.IGNORECASE),
    Slot.DOMAIN: re.compile(
        rf"(?<![@\w.-])[a-z0-9-]+\.(?:com|org|net|io|dev|app|co|uk|de|fr|info)\b|{_HELD}(?:domain|hostname)\b",
        re.IGNORECASE,
    ),
    Slot.IP: re.compile(rf"\b\d{{1,3}}(?:\.\d{{1,3}}){{3}}\b|{_HELD}ip\b", re.IGNORECASE),
    Slot.EMAIL: re.compile(rf"\b[\w.+-]+@[\w-]+\.[\w.]+\b|{_HELD}email address\b", re.IGNORECASE),
    Slot.PHONE: re.compile(rf"\+\d[\d ()-]{{6,}}\d|{_HELD}(?:phone )?number\b|\bphone number\b", re.IGNORECASE),
    # A time in the past or a written date: "on 2020-01-01", "yesterday", "last month", "in 2019".
    Slot.DATE: re.compile(
        rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b|\byesterday\b|\b\d+\s+(?:days?|weeks?|months?|years?)\s+ago\b"
        rf"|\blast\s+(?:night|week|weekend|month|year|{_MONTH})\b|\b(?:in|since|during)\s+(?:19|20)\d\d\b"
        rf"|\b(?:on|since)\s+(?:\d{{1,2}}\s+)?{_MONTH}\b",
        re.IGNORECASE,
    ),
    # A picture the user holds: "this photo", "in the image", a file name ending in .jpg.
    Slot.IMAGE: re.compile(
        rf"{_THIS}(?:photo|image|picture|pic|screenshot|selfie)s?\b|\b(?:in|from|of)\s+(?:the|my|a)\s+(?:photo|image|picture)\b"
        r"|\.(?:jpe?g|png|gif|webp)\b",
        re.IGNORECASE,
    ),
    # A piece of writing the user holds: "this sentence", "this review".
    Slot.TEXT: re.compile(
        rf"{_THIS}(?:text|sentence|paragraph|article|review|comment|message|document|essay|passage|tweet|post"
        r"|letter|transcript|description)s?\b",
        re.IGNORECASE,
    ),
}

# Which parameters take a value of each kind, by name or by what their description says.
_PARAM_NAME: dict[Slot, re.Pattern[str]] = {
    Slot.PLACE: re.compile(
        r"^(?:city|location|where|place|address|lat|latitude|lon|lng|longitude|coordinates|near|postcode|"
        r"postal_?code|zip|zipcode|region|metro_?area|country|country_?code|state|destination|origin)$",
        re.IGNORECASE,
    ),
    Slot.URL: re.compile(r"(?:^|_)(?:url|urls|uri|link|long_url)$|Url$", re.IGNORECASE),
    Slot.DOMAIN: re.compile(r"domain|hostname", re.IGNORECASE),
    Slot.IP: re.compile(r"(?:^|_)ip(?:_?address)?$|^ipAddress$", re.IGNORECASE),
    Slot.EMAIL: re.compile(r"email", re.IGNORECASE),
    Slot.PHONE: re.compile(r"phone|msisdn", re.IGNORECASE),
    Slot.DATE: re.compile(r"date|^dt$|_dt$|timestamp|^(?:start|end|since|until|day|year)$", re.IGNORECASE),
    Slot.IMAGE: re.compile(r"^(?:image|images|photo|picture|img)(?:_?(?:url|urls|file|data|base64))?$", re.IGNORECASE),
    Slot.TEXT: re.compile(r"^(?:document|sentence|paragraph|input_text|source_text)$", re.IGNORECASE),
}
_PARAM_TEXT: dict[Slot, re.Pattern[str]] = {
    Slot.PLACE: re.compile(r"\b(?:city|place name|location|address|latitude|coordinate|postcode|postal code)\b", re.IGNORECASE),
    Slot.URL: re.compile(r"\bURLs?\b"),
    Slot.DOMAIN: re.compile(r"\bdomain\b", re.IGNORECASE),
    Slot.IP: re.compile(r"\bIP(?:v4|v6)?\b"),
    Slot.EMAIL: re.compile(r"\bemail address\b", re.IGNORECASE),
    Slot.PHONE: re.compile(r"\bphone number\b|\bE\.164\b", re.IGNORECASE),
    Slot.DATE: re.compile(r"\bdate\b|YYYY|\bISO ?8601\b|\bunix time", re.IGNORECASE),
    Slot.IMAGE: re.compile(r"\b(?:URL|url|address) of (?:the|an|a) (?:image|photo|picture)\b"),
    # A parameter that is itself the writing to work on: "Text to classify.", "Document to summarise."
    Slot.TEXT: re.compile(
        r"^(?:the |an? |english |plain |raw |input )?(?:text|document|content|passage|sentence|paragraph)s? "
        r"(?:to (?!search|look|match|find|filter|paste)|whose )",
        re.IGNORECASE,
    ),
}


def query_slots(query: str) -> frozenset[Slot]:
    """The kinds of value the query itself supplies."""
    return frozenset(slot for slot, pattern in _QUERY.items() if pattern.search(query))


def tool_slots(spec: ToolSpec) -> frozenset[Slot]:
    """The kinds of value the tool takes as input."""
    props: dict[str, Any] = spec.input_schema.get("properties") or {}
    takes: set[Slot] = set()
    for name, prop in props.items():
        text = str(prop.get("description") or "") if isinstance(prop, dict) else ""
        takes.update(
            slot for slot in Slot if _PARAM_NAME[slot].search(name) or _PARAM_TEXT[slot].search(text)
        )
    return frozenset(takes)
