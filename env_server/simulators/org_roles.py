"""Organisations of a role: a field read as a company (a ``company`` hint, or no hint) whose
name and record say which kind of organisation it names.

An IP lookup's ``isp`` or ``org`` is the network that holds the address ("Hetzner Online
GmbH"), a domain's ``registrar`` a registrar ("NameCheap, Inc."), an article's ``source``
or ``news_site`` a news outlet, a car park's ``location_name`` a car park. Invented firm
names ("Smith-Jones PLC") read wrong in each. Decided once per field when a plan compiles
(``naming.resolve_kind``); the values are vocabularies of the same names.
"""

from __future__ import annotations

import functools

from env_server.catalog.words import snake
from env_server.simulators.art_kinds import art_kind

# Hints a role may narrow: an invented firm's name, or nothing said.
_NARROWABLE = frozenset({None, "company"})

_NETWORK_FIELDS = frozenset({"isp", "org", "organization", "organisation", "organizations", "organisations",
                             "asn_name", "as_name", "asname", "as_org", "asn_org", "as_owner", "asn_owner",
                             "network_owner", "hosting_provider", "isp_name", "org_name"})
# Records about an address, a host or a network (an IP's whois contact is a registrant: not here).
_NETWORK_WORDS = frozenset({"ip", "ips", "host", "hosts", "asn", "asns", "prefix", "prefixes", "dns", "netblock",
                            "network", "geolocation", "geoip", "address"})
_ASN_WORDS = frozenset({"asn", "asns", "autonomous", "prefix", "prefixes"})
_REGISTRAR_FIELDS = frozenset({"registrar", "registrar_name", "sponsoring_registrar"})
_NEWS_FIELDS = frozenset({"source", "source_name", "news_site", "outlet", "news_source"})
_STORY_WORDS = frozenset({"article", "articles", "headline", "headlines", "news", "story", "stories", "blog",
                          "post", "report", "reports"})
_OUTLET_WORDS = frozenset({"source", "sources", "outlet", "outlets"})
_PARKING_FIELDS = frozenset({"name", "location_name", "development", "facility_name", "carpark_name", "lot_name",
                             "garage_name", "car_park_name"})
_PARKING_WORDS = frozenset({"parking", "carpark", "carparks", "garage", "garages", "lot", "lots"})


@functools.lru_cache(maxsize=8192)
def role_kind(field: str, entity: str, parent: str, hint: str | None) -> str | None:
    """The vocabulary of the organisation ``field`` names in its record, or None when the
    field is no organisation of a known role (or its hint already says more)."""
    if hint not in _NARROWABLE:
        return art_kind(field, entity, hint)  # a museum object's classification is no firm either
    low = snake(field)
    words = set(snake(entity).split("_")) | set(snake(parent).split("_"))
    if low in _REGISTRAR_FIELDS:
        return "domain_registrar"
    if low in _NETWORK_FIELDS and words & _NETWORK_WORDS:
        return "network_operator"
    if low == "name" and words & _ASN_WORDS:
        return "network_operator"  # an autonomous system's holder
    if low in _PARKING_FIELDS and words & _PARKING_WORDS:
        return "parking_location"
    if words & _STORY_WORDS and (low in _NEWS_FIELDS or low == "name" and snake(parent) in _OUTLET_WORDS):
        return "news_outlet"
    if low == "name" and hint == "company" and {"news"} <= words and words & _OUTLET_WORDS:
        return "news_outlet"  # a news API's list of its sources
    return art_kind(field, entity, hint)
