"""A record's social accounts are its own: a handle made from its name, and the network's
profile address around it.

A lyrics service lists an artist's Twitter page (``artist_twitter_url``), a jobs board a
company's Twitter handle, a parliament a member's. Each names the account of the record it
sits in, so the handle is made from the record's name: its letters and digits, accents
folded, at most fifteen characters (Twitter's limit), lower case ("Crimson Atlas" ->
``crimsonatlas``). A URL field holds the network's profile page for it
(``https://twitter.com/crimsonatlas``); a handle field holds the handle, with the ``@`` when
the field's name says handle. A video link on a recipe (``strYoutube``) is no account and is
left alone; so are counts of shares (an integer ``twitter``).

``social_step(props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

PROFILE = {
    "twitter": "https://twitter.com/{}",
    "instagram": "https://www.instagram.com/{}/",
    "facebook": "https://www.facebook.com/{}",
    "tiktok": "https://www.tiktok.com/@{}",
}
HANDLE_MAX = {"twitter": 15, "instagram": 30, "facebook": 50, "tiktok": 24}
_FIELD = re.compile(r"(?:^|_)(twitter|instagram|facebook|tiktok)(?:_(url|link|page|handle|username|account|name))?$")
# Where a record keeps its own name, best first: an artist's, a display name, then any name.
_NAME_FIELDS = ("artist_name", "name_display_as", "display_name", "full_name", "company_name", "name",
                "short_name", "title", "name_full_title")
# Courtesy titles and honours that a handle leaves out ("Rt Hon Sir ... KC MP").
_HONOURS = frozenset({"rt", "hon", "sir", "dame", "lord", "lady", "dr", "mr", "mrs", "ms", "mp", "kc", "qc", "kcb",
                      "obe", "mbe", "cbe", "the", "baroness", "baron"})


def social_step(props: Mapping[str, Any]) -> Step | None:
    """The step that writes a record's social fields from its name, or None when it has none."""
    fields: list[tuple[str, str, bool]] = []  # (field, network, holds a URL)
    for key, sub in props.items():
        match = _FIELD.search(snake(key))
        if match is None or not isinstance(sub, dict) or sub.get("type") != "string":
            continue
        as_url = sub.get("format") == "uri" or match.group(2) in ("url", "link", "page")
        fields.append((key, match.group(1), as_url))
    names = _name_keys(props)
    if not fields or not names:
        return None
    name_key = names[0]

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        name = record.get(name_key)
        if not isinstance(name, str) or not name.strip():
            return
        for key, network, as_url in fields:
            if not isinstance(record.get(key), str):
                continue
            handle = handle_of(name, HANDLE_MAX[network])
            if as_url:
                record[key] = PROFILE[network].format(handle)
            else:
                record[key] = f"@{handle}" if "handle" in snake(key) else handle

    return step


def _name_keys(props: Mapping[str, Any]) -> list[str]:
    by_snake = {snake(key): key for key, sub in props.items() if isinstance(sub, dict) and sub.get("type") == "string"}
    return [by_snake[name] for name in _NAME_FIELDS if name in by_snake]


def handle_of(name: str, limit: int = 15) -> str:
    """An account handle made from a name: its words' letters and digits, lower case, honours
    dropped, cut to ``limit`` at a word where it can be."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = [w for w in re.findall(r"[a-z0-9]+", folded) if w not in _HONOURS] or re.findall(r"[a-z0-9]+", folded)
    handle = ""
    for word in words:
        if handle and len(handle) + len(word) > limit:
            break
        handle += word
    return handle[:limit] or "official"
