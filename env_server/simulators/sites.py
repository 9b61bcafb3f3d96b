"""Where a provider's pages and images live: URLs on the provider's own host.

A record's ``url`` (an incident, an article, a playlist) is a page of the service that
answered, so it sits on that service's host: ``dashboard.gitguardian.com/…``, not a random
domain. The host comes from the spec's ``link`` (its docs), with the docs labels taken off
(``api.gitguardian.com`` -> ``gitguardian.com``), or from
``tool_specs/reference/provider_sites.json`` when the link points at a shared docs host
(GitHub, Google Developers, Apiary…) or the web app lives elsewhere. Images sit on the
provider's CDN (``cdn.<domain>`` unless the file names another).

Links that belong to the record itself (a news source's website, a short link's
destination, a company's homepage) stay off the provider's host: see ``own_site``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake

# Leading labels of a docs host that are not the service's own site.
_DOC_LABELS = frozenset({
    "api", "apis", "docs", "doc", "developer", "developers", "dev", "apidocs", "api-docs", "api-reference",
    "documentation", "learning", "wiki", "techdocs", "platform", "open-api", "open-platform", "min-api",
    "api-web", "api-v3", "devcenter", "core", "spec", "info", "site", "develop", "documenter", "data",
})
# Docs platforms that host many providers: the link says nothing about the provider's site.
_SHARED_HOSTS = ("github.com", "github.io", "gitbook.io", "apiary.io", "readme.io", "redoc.ly", "postman.com",
                 "getpostman.com", "developers.google.com", "cloud.google.com", "learn.microsoft.com",
                 "developer.atlassian.com", "apilayer.com", "bund.dev", "rapidapi.com")
# Second-level labels under a country code that are not registrable on their own (co.uk, com.br).
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "gov", "ac", "edu", "or", "ne"})
# Fields (snake_case) that hold the record's own web address, not a page of the provider (its
# social profiles too: ``social_links``).
_OWN_FIELDS = re.compile(r"(^|_)(website|homepage|home_page|domain|destination|long_url|original_url|target_url"
                         r"|source_url|str_source|callback_url|webhook_url|redirect_uri|feed_url|site_url|blog"
                         r"|twitter_url|instagram_url|facebook_url|tiktok_url)$")
# Records that are themselves websites or organisations: their url is their own site.
_OWN_ENTITIES = frozenset({"source", "publisher", "website", "site", "company", "organization", "organisation",
                           "domain", "feed", "webhook", "brewery", "charity", "business", "merchant", "link",
                           "shortlink", "bitlink", "url", "redirect", "hostname", "host", "subdomain", "store"})


@dataclass(frozen=True, slots=True)
class Site:
    """A provider's web host (record pages) and image host."""

    web: str
    cdn: str

    def page(self, entity: str, slug: str) -> str:
        """A record's page: ``https://<web>/<entities>/<slug>``."""
        return f"https://{self.web}/{entity_path(entity)}/{slug}"

    def image(self, entity: str, name: str, ext: str = "jpg") -> str:
        return f"https://{self.cdn}/{entity_path(entity)}/{name}.{ext}"


def entity_path(entity: str) -> str:
    """The path segment of an entity's pages: ``secret_incident`` -> ``secret-incidents``."""
    words = snake(entity).strip("_") or "item"
    if words.endswith("y") and not words.endswith(("ay", "ey", "oy", "uy")):
        plural = words[:-1] + "ies"
    elif words.endswith(("s", "x", "ch", "sh")):
        plural = words + ("" if words.endswith("s") else "es")
    else:
        plural = words + "s"
    return plural.replace("_", "-")


_PAGE_LINKS = ("url", "html_url", "web_url", "link", "permalink", "page_url")
_PAGE = re.compile(r"^(?P<base>https://[^/]+/[a-z0-9-]+/)(?P<last>[a-z0-9-]+)$")


def page_names_id(record: dict[str, Any], entity: str, idf: str) -> None:
    """A record's page (``https://<web>/<entities>/<slug>``) is named for something the record
    shows: its title's slug, or else its id (a map note's page is ``/notes/878717``, not a
    slug of a title it does not have)."""
    rid = record.get(idf)
    if not isinstance(rid, (int, str)) or isinstance(rid, bool) or not str(rid):
        return
    shown: set[str] | None = None
    for key in _PAGE_LINKS:
        found = _PAGE.match(link) if isinstance(link := record.get(key), str) else None
        if found is None or found["last"] == str(rid) or found["base"].rsplit("/", 2)[-2] != entity_path(entity):
            continue
        if shown is None:
            shown = {slugify(v) for k, v in record.items() if isinstance(v, str) and k not in _PAGE_LINKS}
        if found["last"] not in shown and not found["last"].isdigit():
            record[key] = found["base"] + str(rid)


def own_site(field: str, entity: str) -> bool:
    """Whether a URL field holds the record's own address rather than a provider page."""
    return bool(_OWN_FIELDS.search(snake(field))) or not _OWN_ENTITIES.isdisjoint(snake(entity).split("_"))


def registrable(host: str) -> str:
    """The host without its docs labels: ``api-docs.iqair.com`` -> ``iqair.com``."""
    labels = host.lower().split(".")
    keep = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL else 2
    while len(labels) > keep and labels[0] in _DOC_LABELS | {"www"}:
        labels = labels[1:]
    return ".".join(labels)


def _web_host(domain: str) -> str:
    """``www.`` before a bare .com/.org/.net (or co.uk-style) domain; others go bare (``newsdata.io``)."""
    labels = domain.split(".")
    classic = len(labels) == 2 and labels[-1] in ("com", "org", "net")
    national = len(labels) == 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL
    return f"www.{domain}" if classic or national else domain


def _slug_domain(provider: str) -> str:
    word = re.sub(r"\(.*?\)|\b(api|apis|open|data|the)\b", "", provider.lower())
    return (re.sub(r"[^a-z0-9]+", "", word) or "service") + ".com"


class ProviderSites:
    """Every provider's ``Site``: overrides read once, the rest derived on first use."""

    def __init__(self, overrides: dict[str, dict[str, str]] | None = None) -> None:
        self._given = overrides  # the file's, read on first use
        self._sites: dict[tuple[str, str | None], Site | None] = {}

    def site_for(self, provider: str, link: str | None) -> Site | None:
        """The provider's site, or None for a provider with no link and no override
        (an imported catalog's tool: its URLs stay generic)."""
        key = (provider, link)
        if key not in self._sites:
            self._sites[key] = self._derive(provider, link)
        return self._sites[key]

    def _derive(self, provider: str, link: str | None) -> Site | None:
        if self._given is None:
            self._given = _read_overrides()
        given = self._given.get(provider)
        host = urlparse(link).netloc.lower() if link else ""
        if given is None and not host:
            return None
        shared = any(host == h or host.endswith("." + h) for h in _SHARED_HOSTS)
        domain = registrable(host) if host and not shared else _slug_domain(provider)
        web = (given or {}).get("web") or _web_host(domain)
        cdn = (given or {}).get("cdn") or f"cdn.{registrable(web)}"
        return Site(web=web, cdn=cdn)

    def hosts(self) -> frozenset[str]:
        """Every host a site names (for the audit)."""
        return frozenset(h for s in self._sites.values() if s for h in (s.web, s.cdn))


class SiteEntry(BaseModel):
    """One provider's hosts, as ``provider_sites.json`` writes them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    web: str
    cdn: str | None = None


class SitesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    sites: dict[str, SiteEntry]


def _read_overrides() -> dict[str, dict[str, str]]:
    path = resources.files("tool_specs") / "reference" / "provider_sites.json"
    data = SitesFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    return {name: entry.model_dump(exclude_none=True) for name, entry in data.sites.items()}
