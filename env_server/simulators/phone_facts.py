"""Phone numbers that can exist, and lookups that describe the number asked about.

Numbers come from Google's libphonenumber metadata (the ``phonenumbers`` package, Apache-2.0):
a record's phone is a valid number of its country, drawn from a per-country pool made once
with a fixed seed (``national_pool``), so "+86" is followed by an eleven-digit mobile and a
US number has an area code that is in service; a number of a known city has that city's
area code (``phone_places`` reads the geocoder once, on first use). Its carrier table is
loaded on first lookup.

A number lookup (Twilio Lookup, Telnyx, Vonage Number Insight, imported "check phone line
type" tools) describes the number the call sends: its country, calling code, national and
international formats, validity, line type and (for mobiles) its carrier.
``lookup_step(name, entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumber, PhoneNumberFormat, PhoneNumberType

from env_server.simulators.naming import snake
from env_server.simulators.phone_places import place_of

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

POOL_SIZE = 64
_POOL_SEED = 20260115
_TRIES = 400
# Arguments that carry the number a lookup is about.
NUMBER_ARGS = ("phone_number", "number", "phone", "msisdn", "phonenumber", "mobile", "mobile_number", "tel")
# libphonenumber's line types as lookup APIs name them.
LINE_TYPES = {
    PhoneNumberType.MOBILE: "mobile", PhoneNumberType.FIXED_LINE: "landline",
    PhoneNumberType.FIXED_LINE_OR_MOBILE: "mobile", PhoneNumberType.TOLL_FREE: "toll_free",
    PhoneNumberType.PREMIUM_RATE: "premium_rate", PhoneNumberType.VOIP: "voip",
    PhoneNumberType.SHARED_COST: "shared_cost", PhoneNumberType.PERSONAL_NUMBER: "personal",
    PhoneNumberType.PAGER: "pager", PhoneNumberType.UAN: "uan", PhoneNumberType.VOICEMAIL: "voicemail",
}
# Other spellings of a line type an output enum may use.
_LINE_SYNONYMS = {"landline": ("landline", "fixed_line", "fixed-line", "fixedline", "fixed", "fixed line", "line",
                              "local", "geographic"),
                  "mobile": ("mobile", "cellphone", "cell", "wireless"),
                  "toll_free": ("toll_free", "tollfree", "toll-free", "toll free"),
                  "voip": ("voip", "nonfixedvoip", "non_fixed_voip", "fixedvoip"),
                  "premium_rate": ("premium_rate", "premium rate", "premium")}


# -- drawing numbers ---------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def national_pool(region: str) -> tuple[str, ...]:
    """Valid national numbers of ``region`` (ISO 3166 alpha-2): mobiles and fixed lines made
    from the region's example numbers with their trailing digits redrawn, each checked."""
    rng = random.Random(f"{_POOL_SEED}:{region}")
    examples = [n for t in (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE)
                if (n := phonenumbers.example_number_for_type(region, t)) is not None]
    found: list[str] = []
    for attempt in range(_TRIES):
        if not examples or len(found) >= POOL_SIZE:
            break
        example = examples[attempt % len(examples)]
        digits = str(example.national_number)
        # Redraw the tail; keep more of the example's head when the tail alone rarely fits
        # (a Caribbean number keeps its area code, a US one draws it).
        keep = (1 if region in ("US", "CA") else 3) if example.country_code == 1 else min(3, max(1, len(digits) - 6))
        keep = min(len(digits) - 2, keep + 2 * (attempt * 3 // _TRIES))
        drawn = digits[:keep] + "".join(str(rng.randint(0, 9)) for _ in digits[keep:])
        number = PhoneNumber(country_code=example.country_code, national_number=int(drawn))
        if phonenumbers.is_valid_number_for_region(number, region) and drawn not in found:
            found.append(drawn)
    if not found and examples:
        found.append(str(examples[0].national_number))
    return tuple(found)


def valid_e164(region: str, rng: random.Random) -> str | None:
    """A valid number of ``region`` in E.164, or None when libphonenumber has none for it."""
    pool = national_pool(region.upper())
    if not pool:
        return None
    code = phonenumbers.country_code_for_region(region.upper())
    return f"+{code}{rng.choice(pool)}"


def national_format(e164: str) -> str:
    """``e164`` as its country writes it at home; the number itself when it does not parse."""
    number = parse_number(e164)
    return phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL) if number is not None else e164


# -- a lookup of the number asked about ----------------------------------------------------


@functools.lru_cache(maxsize=1024)
def parse_number(text: str) -> PhoneNumber | None:
    """The number a call sends ("+14155550100", "447700900000", "+1 (312) 555-0000"), or None."""
    digits = re.sub(r"[^\d+]", "", text)
    if not digits:
        return None
    try:
        return phonenumbers.parse(digits if digits.startswith("+") else f"+{digits}", None)
    except NumberParseException:
        return None


def number_facts(number: PhoneNumber) -> dict[str, Any]:
    """What a lookup API knows of ``number``, by the role of the field that says it."""
    region = phonenumbers.region_code_for_number(number) or phonenumbers.region_code_for_country_code(
        number.country_code or 0)
    valid = phonenumbers.is_valid_number(number)
    line = LINE_TYPES.get(phonenumbers.number_type(number), "unknown") if valid else "unknown"
    return {
        "region": region if region and region != "ZZ" else None,
        "calling_code": str(number.country_code),
        "national": phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL),
        "international": phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL),
        "e164": phonenumbers.format_number(number, PhoneNumberFormat.E164),
        "valid": valid,
        "line": line,
        "carrier": _carrier(number) if line == "mobile" else "",
    }


def _carrier(number: PhoneNumber) -> str:
    from phonenumbers import carrier  # loaded on the first lookup only

    return str(carrier.name_for_number(number, "en"))


# Field names (snake_case) by the fact they show.
_ROLES: dict[str, str] = {
    **dict.fromkeys(("country_code", "region_code", "country_iso", "country_code_iso", "country_code_alpha2",
                     "iso_country_code", "country"), "region"),
    **dict.fromkeys(("calling_country_code", "country_prefix", "calling_code", "dial_code", "country_calling_code",
                     "dialing_code", "phone_prefix"), "calling_code"),
    **dict.fromkeys(("national_format", "national_format_number", "local_format", "national"), "national"),
    # Lookup APIs write the "international format" as E.164 (numverify, Vonage); spaced only when named so.
    **dict.fromkeys(("international_format", "international_format_number", "e164", "e164_format", "number_e164"),
                    "e164"),
    **dict.fromkeys(("international", "international_spaced", "formatted_international"), "international"),
    **dict.fromkeys(("valid", "is_valid", "valid_number", "is_possible", "possible"), "valid"),
    **dict.fromkeys(("line_type", "number_type", "phone_type", "phone_number_type"), "line"),
    **dict.fromkeys(("carrier", "carrier_name", "network", "network_name", "operator"), "carrier"),
    **dict.fromkeys(("validation_errors", "errors"), "errors"),
    "country_name": "country_name",
    # The place the number's range serves (``phone_places``), its country when none is known.
    **dict.fromkeys(("location", "city", "locality", "area", "geo_location"), "place"),
}
_LINE_PARENTS = ("line_type", "carrier", "line_type_intelligence", "current_carrier", "original_carrier", "network")


def lookup_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a number lookup's record describe the number the call sends."""
    parent = snake(name)
    roles = {k: role for k in props if (role := _field_role(snake(k), parent, props[k])) is not None}
    if len(roles) < 2 and not (roles and (parent in _LINE_PARENTS or any(snake(k) in NUMBER_ARGS for k in props))):
        return None

    own = next((k for k in props if snake(k) in NUMBER_ARGS), None)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = _sent_number(gen)
        shown = roles
        if sent is None and own is not None and isinstance(record.get(own), str):
            sent = parse_number(record[own])  # a listed number's own line type (its place is the record's)
            shown = {k: role for k, role in roles.items() if role == "line"}
        if sent is None:
            return
        facts = number_facts(sent)
        if "place" in shown.values():
            facts["place"] = place_of(sent) if facts["valid"] else None
        for key, role in shown.items():
            value = _shown(role, facts, props[key], gen)
            if role == "region" and isinstance(record.get(key), str) and len(record[key]) > 3:
                value = _shown("country_name", facts, props[key], gen)  # the field writes names
            if value is not None and key in record and snake(key) not in gen.snaked_args:
                record[key] = value

    return step


def _field_role(field: str, parent: str, schema: Any) -> str | None:
    if field in ("name", "type") and parent in _LINE_PARENTS:
        return "carrier" if field == "name" else "line"
    role = _ROLES.get(field)
    if role == "place" and parent:
        return None  # a nested location is a place record, not the number's
    if role == "region" and isinstance(schema, dict) and schema.get("type") in ("integer", "number"):
        return "calling_code"  # a number-typed country code is the calling code
    return role


def _sent_number(gen: Generation) -> PhoneNumber | None:
    for key in NUMBER_ARGS:
        value = gen.snaked_args.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return parse_number(str(value))
    return None


def _shown(role: str, facts: dict[str, Any], schema: Any, gen: Generation) -> Any:
    """The fact for a field of ``role``, written as the field's schema wants it (or None)."""
    typ = schema.get("type", "string") if isinstance(schema, dict) else "string"
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if role in ("country_name", "place"):
        return _place_shown(role, facts, typ, gen)
    value = facts.get(role)
    if role == "valid":
        return _valid_as(bool(value), typ, enum)
    if role == "errors":
        return [] if facts["valid"] and typ == "array" else None
    if value in (None, ""):
        return None
    if role == "calling_code" and typ in ("integer", "number"):
        return int(value)
    if role == "line" and isinstance(enum, list):
        return _enum_line(str(value), enum)
    if isinstance(enum, list) and value not in enum:
        return None
    return value if typ == "string" else None


def _place_shown(role: str, facts: dict[str, Any], typ: str, gen: Generation) -> str | None:
    """The place a number's range serves, else (and for a country field) its country's name."""
    if role == "place" and facts.get("place"):
        return str(facts["place"]) if typ == "string" else None
    found = gen.facts.reference.countries.get(facts["region"]) if facts["region"] else None
    return found.name if found is not None else None


def _valid_as(valid: bool, typ: str, enum: Any) -> Any:
    if typ == "boolean":
        return valid
    if isinstance(enum, list):
        want = ("valid", "true", "yes") if valid else ("not_valid", "invalid", "false", "no")
        return next((e for e in enum if isinstance(e, str) and e.lower() in want), None)
    return None


def _enum_line(line: str, enum: list[Any]) -> Any:
    spellings = _LINE_SYNONYMS.get(line, (line,))
    return next((e for e in enum if isinstance(e, str) and e.lower() in spellings), None)


# -- an SMS's parts ------------------------------------------------------------------------

_SEGMENT_FIELDS = ("num_segments", "segments", "message_parts", "parts", "segment_count", "sms_count", "num_parts")
_BODY_FIELDS = ("body", "text", "message", "content")
# GSM 03.38's basic set: a message in it fits 160 characters per SMS (153 when split).
_GSM = frozenset("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                 "ÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}[]~|€")


def segments_step(props: Mapping[str, Any]) -> Step | None:
    """The step that counts an SMS's parts from its body, or None for records without both."""
    count = next((k for k in _SEGMENT_FIELDS if isinstance(props.get(k), dict)
                  and props[k].get("type") in ("integer", "number")), None)
    body = next((k for k in _BODY_FIELDS if k in props), None)
    if count is None or body is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        text = record.get(body)
        if isinstance(text, str) and count in record:
            record[count] = sms_segments(text)

    return step


def sms_segments(text: str) -> int:
    """How many SMS a text is sent as: 160 GSM-7 characters in one (153 per part when split),
    70 UCS-2 characters (67 per part) when it has a character outside GSM-7."""
    gsm = all(ch in _GSM for ch in text)
    single, part = (160, 153) if gsm else (70, 67)
    return 1 if len(text) <= single else -(-len(text) // part)
