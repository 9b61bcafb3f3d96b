"""Loose texts drawn for the record they describe: a board's description, a channel's topic,
an author's biography, a news section.

``note_text``, ``bio`` and ``category`` are everyday vocabularies (a to-do note, a social
profile's bio, a shop's category). Written into a Pinterest board, a Slack channel's topic,
an Open Library author or a New York Times section they read as text from another domain.
These kinds keep the vocabularies for the records they fit and draw the record's own kind
of text elsewhere; ``values.KINDS`` takes them over the vocabulary files of the same name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.medium import NEWS, record_medium
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Entity words of records their owner describes in a line: boards, albums, word lists, images.
_COLLECTIONS = frozenset({"collection", "collections", "board", "boards", "album", "albums", "gallery", "userset",
                          "wordlist", "list", "set", "image", "photo", "picture", "upload", "model", "deck"})
# Entity words of group conversations, whose description is a topic.
_CHANNELS = frozenset({"channel", "conversation", "guild", "chat", "room", "group"})
# Categories whose people are authors, artists and other notable people, not social profiles.
_CREATOR_CATEGORIES = frozenset({"books", "art & design", "personality", "music"})
_CRYPTO_CATEGORIES = frozenset({"cryptocurrency", "blockchain"})  # catalog categories of crypto APIs
_CRYPTO_TAGGED = frozenset({"article", "articles", "news", "story", "stories", "headline", "coin", "coins", "asset",
                            "assets", "token", "tokens"})  # what a crypto API tags with a market category
_SOCIAL_PEOPLE = frozenset({"user", "account", "member", "follower", "profile", "customer", "contact"})


def _words(gen: Generation) -> set[str]:
    return set(snake(gen.entity).split("_"))


def _vocab(gen: Generation, kind: str) -> str:
    from env_server.simulators.values import _fill_slots  # values imports this module

    return _fill_slots(str(gen.rng.choice(gen.facts.vocab.get(kind).texts)), gen)


def note_text(gen: Generation) -> str:
    """A note, except where the record is a collection (its owner's line about it) or a
    group conversation (its topic)."""
    words = _words(gen)
    if words & _CHANNELS:
        return _vocab(gen, "channel_topic")
    if words & _COLLECTIONS:
        return _vocab(gen, "collection_description")
    return _vocab(gen, "note_text")


def bio(gen: Generation) -> str:
    """A social profile's bio, or a notable person's biography on a books, art, quotes or
    music API."""
    words = _words(gen)
    if words & _COLLECTIONS:  # a user's set of objects: its owner's line about it
        return _vocab(gen, "collection_description")
    if gen.category.strip().lower() in _CREATOR_CATEGORIES and not words & _SOCIAL_PEOPLE:
        return _vocab(gen, "creator_bio")
    return _vocab(gen, "bio")


def category(gen: Generation) -> str:
    """A category; on a crypto API, a coin or a topic of the crypto market ("BTC", "Mining");
    on a news API, a section of the paper."""
    if gen.category.strip().lower() in _CRYPTO_CATEGORIES and _words(gen) & _CRYPTO_TAGGED:
        return _vocab(gen, "crypto_category")
    return _vocab(gen, "news_section" if record_medium(gen) == NEWS else "category")


DOMAIN_TEXT_KINDS: dict[str, Callable[[Generation], Any]] = {
    "note_text": note_text,
    "bio": bio,
    "category": category,
}
