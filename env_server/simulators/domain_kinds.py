"""Value kinds whose shape a real API fixes: phone numbers, short links, platform ids.

A person who knows the API reads the format before the value: Twilio writes numbers in
E.164 (``+41446681800``), a Slack message's ``ts`` is ``"1736931600.123456"`` and its
users are ``U…`` ids, Discord ids are snowflakes, a Bluesky post is an ``at://`` URI,
a Matrix room is ``!opaque:server``. These kinds draw values in those shapes; the specs
name them in ``profile.hints``. ``DOMAIN_KINDS`` joins ``values.KINDS``.

Short links sit on the shortener's own short host (``bit.ly``, ``cutt.ly``, ``tinyurl.com``)
or on the branded domain the call names, never on a random domain.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import faker_pool
from env_server.simulators.pet_kinds import PET_FORMATS, PET_KINDS

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_BASE62 = string.digits + string.ascii_letters
_BASE36 = string.digits + string.ascii_lowercase
_UPPER_ALNUM = string.ascii_uppercase + string.digits
_BASE32 = "abcdefghijklmnopqrstuvwxyz234567"
# Discord's epoch (2015-01-01) in Unix milliseconds: a snowflake's high bits count from it.
_DISCORD_EPOCH_MS = 1_420_070_400_000
# How far a city may be from the neighbour whose area code it takes, when it has none of its own.
_AREA_KM = 100.0
# Arguments naming the branded domain a short link is made on.
_DOMAIN_ARGS = ("domain", "domain_id", "branded_domain", "custom_domain")
# Arguments naming the alias (back-half) a short link is to have.
_ALIAS_ARGS = ("alias", "slashtag", "path", "address", "custom_alias", "back_half", "name")
# Shorteners whose short host is not their web site's domain.
_SHORT_HOSTS = {"Bitly": "bit.ly", "Rebrandly": "rebrand.ly", "Kutt": "kutt.it", "Short.io": "short.gy"}


def _chars(gen: Generation, alphabet: str, n: int) -> str:
    return "".join(gen.rng.choice(alphabet) for _ in range(n))


def phone_e164(gen: Generation) -> str:
    """A number in E.164 for the record's country: ``+<calling code><national number>``, one
    that can exist there (``phone_facts``: a Chinese mobile has eleven digits, a US area code
    is in service)."""
    from env_server.simulators.geo_kinds import country  # geo_kinds imports values, which imports us
    from env_server.simulators.phone_facts import valid_e164
    from env_server.simulators.values import KINDS

    region = country(gen).cca2
    local = _city_numbers(gen, region)
    if local:
        return gen.rng.choice(local)
    valid = valid_e164(region, gen.rng)
    if valid is not None:
        return valid
    code = "".join(ch for ch in str(KINDS["calling_code"](gen)) if ch.isdigit()) or "1"
    if code.startswith("1"):  # NANP: area code and exchange never start with 0 or 1
        area = f"{gen.rng.randint(2, 9)}{gen.rng.randint(0, 9)}{gen.rng.randint(0, 9)}"
        national = f"{area[:3] if len(code) == 1 else ''}{gen.rng.randint(2, 9)}{gen.rng.randint(0, 999999):06d}"
        return f"+{code}{national}"
    return f"+{code}{gen.rng.randint(2, 9)}{gen.rng.randint(0, 99_999_999):08d}"


def _city_numbers(gen: Generation, region: str) -> tuple[str, ...]:
    """Numbers whose area code serves the record's city, else its nearest neighbour's within
    ``_AREA_KM``, else its region's (``phone_places``); () when the geocoder knows none there."""
    from env_server.simulators.phone_places import has_prefixes, local_numbers

    place = gen.scope.place
    if place.country_code.upper() != region.upper():
        return ()
    own = (place.name, place.region)
    if has_prefixes(region, *own):
        return local_numbers(region, (own,))
    near = tuple((p.name, p.region) for p, _ in gen.facts.reference.places_near(place, _AREA_KM)[1:8])
    return local_numbers(region, (own, *near, (place.region, "")))  # a US state names its area codes


def short_code(gen: Generation) -> str:
    """The back-half of a short link, once per record (its URL and alias agree): the alias
    the call asks for, else a drawn one."""
    def make() -> str:
        if gen.scope.is_top:
            for key in _ALIAS_ARGS:
                value = gen.snaked_args.get(key)
                if isinstance(value, str) and value and len(value) <= 64 and " " not in value:
                    return value.strip("/")
        return _chars(gen, _BASE62, 7)

    code: str = gen.scope.once("short_code", make)
    return code


def short_host(gen: Generation) -> str:
    """The host a short link lives on: the branded domain the call names, else the shortener's."""
    for key in _DOMAIN_ARGS:
        value = gen.snaked_args.get(key)
        if isinstance(value, str) and "." in value and " " not in value:
            return value.removeprefix("https://").removeprefix("http://").strip("/")
    given = _SHORT_HOSTS.get(gen.provider)
    if given:
        return given
    site = gen.site
    return site.web.removeprefix("www.") if site is not None else "short.link"


def short_url(gen: Generation) -> str:
    """The link itself: the one the call names when it names one on the short host."""
    host = short_host(gen)
    if gen.scope.is_top:
        for value in gen.args.values():
            if isinstance(value, str) and value.startswith((f"https://{host}/", f"http://{host}/")):
                return value
    return f"https://{host}/{short_code(gen)}"


def bitlink_id(gen: Generation) -> str:
    """Bitly's id for a link: ``bit.ly/3xYzAbC`` (host and back-half, no scheme)."""
    return f"{short_host(gen)}/{short_code(gen)}"


_VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"  # no I, O or Q
_VIN_VALUES = dict(zip("ABCDEFGHJKLMNPRSTUVWXYZ", (1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9),
                       strict=True)) | {str(d): d for d in range(10)}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
_VIN_YEARS = "ABCDEFGHJKLMNPRSTVWXY123456789"  # model-year codes, 2010 = "A"


@functools.cache
def _wmis() -> tuple[str, ...]:
    """Real makers' world manufacturer identifiers (vininfo's table), sorted."""
    from vininfo.dicts.wmi import WMI

    return tuple(sorted(w for w in WMI if len(w) == 3 and w.isalnum() and not set(w) & set("IOQ")))


def sample_vin(gen: Generation) -> str:
    """A valid 17-character VIN: a real maker's WMI, a year code and a correct check digit."""
    body = (gen.rng.choice(_wmis()) + _chars(gen, _VIN_CHARS, 5) + "0"
            + _VIN_YEARS[gen.rng.randint(5, 15)] + _chars(gen, _VIN_CHARS, 1) + f"{gen.rng.randint(0, 999_999):06d}")
    total = sum(_VIN_VALUES[ch] * w for ch, w in zip(body, _VIN_WEIGHTS, strict=True))
    check = "X" if total % 11 == 10 else str(total % 11)
    return body[:8] + check + body[9:]


def snowflake(gen: Generation) -> str:
    """A Discord/Twitter-style snowflake: milliseconds since 2015 shifted left 22 bits."""
    ms = int(gen.now.timestamp() * 1000) - _DISCORD_EPOCH_MS - gen.rng.randint(0, 400 * 86_400_000)
    return str((ms << 22) | gen.rng.getrandbits(22))


def slack_ts(gen: Generation) -> str:
    """A Slack message timestamp: Unix seconds and a six-digit sequence."""
    seconds = int(gen.now.timestamp()) - gen.rng.randint(60, 30 * 86_400)
    return f"{seconds}.{gen.rng.randint(0, 999_999):06d}"


def did_plc(gen: Generation) -> str:
    return f"did:plc:{_chars(gen, _BASE32, 24)}"


def bsky_handle(gen: Generation) -> str:
    return f"{gen.rng.choice(faker_pool('user_name')).replace('_', '-')}.bsky.social"


def at_uri(gen: Generation) -> str:
    """A Bluesky post's URI: its author's DID, the collection and a TID record key."""
    author: str = gen.scope.once("did", lambda: did_plc(gen))
    return f"at://{author}/app.bsky.feed.post/3l{_chars(gen, _BASE32, 11)}"


def bsky_cid(gen: Generation) -> str:
    return f"bafyrei{_chars(gen, _BASE32, 52)}"


def matrix_server(gen: Generation) -> str:
    value = gen.snaked_args.get("server_name")
    return value if isinstance(value, str) and "." in value else "matrix.org"


def phone_national(gen: Generation) -> str:
    """A number as its country dials it at home ("(312) 555-0172", "030 12345678")."""
    from env_server.simulators.phone_facts import national_format

    return national_format(phone_e164(gen))


DOMAIN_KINDS: dict[str, Callable[[Generation], Any]] = {
    "phone": phone_e164,
    "phone_national": phone_national,
    "icao24": lambda g: f"{g.rng.getrandbits(24):06x}",
    "airport_icao": lambda g: g.scope.airport().icao,
    "short_code": short_code,
    "short_url": short_url,
    "short_host": short_host,
    "bitlink_id": bitlink_id,
    "snowflake_id": snowflake,
    "numeric_id": lambda g: str(g.rng.randint(10_000_000, 999_999_999)),
    "slack_ts": slack_ts,
    "slack_user_id": lambda g: "U" + _chars(g, _UPPER_ALNUM, 10),
    "slack_channel_id": lambda g: "C" + _chars(g, _UPPER_ALNUM, 10),
    "reddit_id": lambda g: _chars(g, _BASE36, 7),
    "did_plc": did_plc,
    "bsky_handle": bsky_handle,
    "at_uri": at_uri,
    "bsky_cid": bsky_cid,
    "matrix_event_id": lambda g: "$" + _chars(g, _BASE62, 43),
    "matrix_room_id": lambda g: f"!{_chars(g, string.ascii_letters, 18)}:{matrix_server(g)}",
    "matrix_user_id": lambda g: f"@{_person_handle(g)}:{matrix_server(g)}",
    "sample_vin": sample_vin,
    "message_sid": lambda g: "SM" + f"{g.rng.getrandbits(128):032x}",
    **PET_KINDS,  # shelter ids, miles from the place searched, Dog CEO images (pet_kinds)
}


def _person_handle(gen: Generation) -> str:
    return str(gen.rng.choice(faker_pool("user_name"))).lower()


# The shape each kind's values take, as the audit checks it (``specs/format_checks.py``).
FORMATS: dict[str, re.Pattern[str]] = {kind: re.compile(pattern) for kind, pattern in {
    "phone": r"^\+[1-9]\d{6,14}$",
    "phone_national": r"^[0-9][0-9 ()\-.]{4,19}$|^\([0-9][0-9 ()\-.]{4,19}$",
    "icao24": r"^[0-9a-f]{6}$",
    "short_url": r"^https?://[a-z0-9.-]+\.[a-z]{2,}/[^/\s]+$",
    "bitlink_id": r"^[a-z0-9.-]+\.[a-z]{2,}/[^/\s]+$",
    "snowflake_id": r"^\d{17,20}$",
    "numeric_id": r"^\d{6,12}$",
    "slack_ts": r"^\d{10}\.\d{6}$",
    "slack_user_id": r"^[UW][A-Z0-9]{8,11}$",
    "slack_channel_id": r"^[CGD][A-Z0-9]{8,11}$",
    "did_plc": r"^did:plc:[a-z2-7]{24}$",
    "bsky_handle": r"^[a-z0-9-]+(\.[a-z0-9-]+)+$",
    "at_uri": r"^at://did:[a-z]+:[A-Za-z0-9._:-]+/[a-z.]+/[a-z2-7]{13}$",
    "bsky_cid": r"^bafy[a-z2-7]{50,}$",
    "matrix_event_id": r"^\$[A-Za-z0-9_-]{20,}$",
    "matrix_room_id": r"^![A-Za-z]+:[a-z0-9.-]+$",
    "matrix_user_id": r"^@[a-z0-9._=-]+:[a-z0-9.-]+$",
    "message_sid": r"^(SM|MM)[0-9a-f]{32}$",
    **PET_FORMATS,
}.items()}
