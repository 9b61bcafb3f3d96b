"""Value kinds: what one field holds, drawn in the context of the record it belongs to.

A kind is a short name (``city``, ``temperature_c``, ``film_title``, …). ``draw_kind(kind,
gen)`` draws one value of it; ``known_kind`` says whether a profile hint names a kind that
can be drawn. Four sources back the kinds:

* engine kinds (``KINDS``): seeded draws and fixed-seed Faker pools (``draws``), and
  the kinds in ``coherent_kinds`` that agree with the record's weather, trip or vehicle;
* reference facts (``reference``): places, airports, countries, currencies, languages,
  vehicles, read through the record's scope, so a city, its country, its coordinates and
  its timezone agree;
* the session market (``market``): tickers, names and prices that every tool agrees on;
* vocabularies (``tool_specs/vocab/<kind>.json``): our own titles, names and texts. Any
  vocabulary file is a kind; a record vocabulary's fields are kinds too
  (``dog_breed.sub_breeds``, ``dictionary_word.definition``).

Which kind a field gets is decided in ``naming``: ``resolve_kind(field, entity, parent,
hints)`` takes the profile's hint unless it is generic, else ``kind_for(field, entity,
parent)``'s guess from the field name, the record's entity and its parent.
"""

from __future__ import annotations

import string
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.alert_kinds import ALERT_KINDS
from env_server.simulators.aviation_kinds import AVIATION_KINDS
from env_server.simulators.calendar_kinds import CALENDAR_KINDS
from env_server.simulators.clock_kinds import CLOCK_KINDS
from env_server.simulators.coherent_kinds import (
    AIRLINE_ICAO,
    airline,
    condition,
    distance_km,
    holiday,
    language,
    precipitation,
    price,
    temperature_c,
    trip,
    trip_minutes,
    vehicle,
    vin_country,
    vin_year,
)
from env_server.simulators.compose import entity_summary, entity_title, equipment_name, record_summary
from env_server.simulators.dev_kinds import DEV_KINDS
from env_server.simulators.domain_kinds import DOMAIN_KINDS
from env_server.simulators.domain_texts import DOMAIN_TEXT_KINDS
from env_server.simulators.draws import (
    COMPASS,
    EXTENSIONS,
    INGREDIENTS,
    MIME,
    STATUSES,
    WEEKDAYS,
    between,
    chosen,
    distinct,
    draw_date,
    draw_datetime,
    draw_hex,
    faker_pool,
    pooled,
    slugify,
)
from env_server.simulators.emission_kinds import EMISSION_KINDS
from env_server.simulators.fx import FX_KINDS
from env_server.simulators.geo_kinds import GEO_KINDS
from env_server.simulators.id_formats import ID_FORMAT_KINDS
from env_server.simulators.journey_kinds import JOURNEY_KINDS
from env_server.simulators.lineup import vin_lineup
from env_server.simulators.magnitudes import MAGNITUDE_KINDS
from env_server.simulators.marine_kinds import MARINE_KINDS
from env_server.simulators.market_figures import FIGURE_KINDS
from env_server.simulators.media_kinds import MEDIA_KINDS
from env_server.simulators.media_numbers import MEDIA_NUMBER_KINDS
from env_server.simulators.medium import media_title_kind
from env_server.simulators.naming import (
    GENERIC_HINTS,
    description_kind,
    kind_for,
    snake,
    title_kind,
)
from env_server.simulators.news_story import news_content, news_summary
from env_server.simulators.pack_sizes import PACK_KINDS
from env_server.simulators.package_kinds import PACKAGE_KINDS
from env_server.simulators.place_query import PLACE_QUERY_KINDS
from env_server.simulators.product_facts import PRODUCT_KINDS
from env_server.simulators.public_money import PUBLIC_MONEY_KINDS
from env_server.simulators.security_kinds import SECURITY_KINDS
from env_server.simulators.shape_kinds import SHAPE_KINDS
from env_server.simulators.shop_kinds import SHOP_KINDS
from env_server.simulators.sport_teams import SPORT_KINDS, playing_position, racing_team, team
from env_server.simulators.text_kinds import TEXT_KINDS
from env_server.simulators.timeline import draw_year
from env_server.simulators.uk_postcodes import UK_POSTCODE_KINDS
from env_server.simulators.us_zips import ZIP_KINDS
from env_server.simulators.uv_kinds import UV_KINDS
from env_server.simulators.word_kinds import WORD_KINDS

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

__all__ = ["KINDS", "draw_kind", "kind_for", "known_kind", "snake"]

# -- record-aware kinds ----------------------------------------------------------------------


_TITLE_ARGS = ("title", "name", "subject", "summary", "headline")


def _record_title(gen: Generation) -> str:
    """The record's own title: drawn once, reused by its slug, url and description."""
    scope = gen.scope

    def make() -> str:
        own_name = (f"{snake(gen.entity)}_name", f"{snake(gen.entity)}_title")  # "instanceName"
        # An event's or a message's title is its subject (Outlook, mail) or summary (Google Calendar).
        named = next((v for k in _TITLE_ARGS if isinstance(v := gen.args.get(k), str) and v), None) or next(
            (v for k in own_name if isinstance(v := gen.snaked_args.get(k), str) and v), None)
        own = named if scope.is_top else None  # the caller (or the stored row) named the record
        return own or str(draw_kind(media_title_kind(gen), gen))

    title: str = scope.once("title", make)
    return title


def _person_name(gen: Generation) -> str:
    name: str = gen.scope.once("person", lambda: gen.rng.choice(faker_pool("name")))
    return name


_MUSIC_TITLES = frozenset({"song_title", "album_title", "band_name", "show_title", "playlist_name"})


def _artist(gen: Generation) -> str:
    """A band or a performer for music; a person (a painter, an author) otherwise."""
    if title_kind(gen.entity) in _MUSIC_TITLES and gen.rng.random() < 0.5:
        return str(draw_kind("band_name", gen))
    return gen.rng.choice(faker_pool("name"))


def _address(gen: Generation) -> str:
    place = gen.scope.place
    return f"{gen.rng.choice(faker_pool('street_address'))}, {place.name}, {place.country}"


def _own_url(gen: Generation) -> str:
    return f"https://{gen.rng.choice(faker_pool('domain_name'))}/{slugify(_record_title(gen))}"


def _page_url(gen: Generation) -> str:
    site = gen.site
    return site.page(gen.entity, slugify(_record_title(gen))) if site is not None else _own_url(gen)


def _image_url(gen: Generation) -> str:
    site = gen.site
    if site is not None:
        return site.image(gen.entity, draw_hex(gen, 12))
    return f"https://images.{gen.rng.choice(faker_pool('domain_name'))}/{draw_hex(gen, 12)}.jpg"


def _file_name(gen: Generation) -> str:
    return f"{slugify(draw_kind('document_title', gen))}.{gen.rng.choice(tuple(EXTENSIONS.values()))}"


def _fill_slots(text: str, gen: Generation) -> str:
    if "{" not in text:
        return text
    scope = gen.scope
    return (text.replace("{city}", scope.place.name).replace("{country}", scope.place.country)
            .replace("{first_name}", gen.rng.choice(faker_pool("first_name")))
            .replace("{weekday}", WEEKDAYS[gen.today.weekday()]))


def draw_kind(kind: str, gen: Generation) -> Any:
    """One value of ``kind``; vocabulary kinds (and their record fields) included."""
    draw = KINDS.get(kind)  # an engine kind may add coherence to a vocabulary of its name
    if draw is not None:
        return draw(gen)
    base, _, part = kind.partition(".")
    vocab = gen.facts.vocab
    if base not in vocab:
        raise KeyError(f"unknown value kind '{kind}'")
    spec = vocab.get(base)
    if spec.records:
        record = gen.scope.vocab_record(base)
        value = record[part] if part else next(iter(record.values()))
        return _fill_slots(value, gen) if isinstance(value, str) else value
    return _fill_slots(gen.rng.choice(spec.values), gen)


# Generic hints from before the vocabularies; still read (see ``naming.resolve_kind``).
LEGACY_HINTS = frozenset(GENERIC_HINTS)


def known_kind(kind: str, facts_vocab: Any) -> bool:
    """Whether a hint names a kind the engine can draw (engine kind or vocabulary)."""
    if kind in KINDS:
        return True
    base, _, part = kind.partition(".")
    if base not in facts_vocab:
        return False
    spec = facts_vocab.get(base)
    if spec.slots:  # templates a record's step fills from the record's facts, not drawn alone
        return False
    return not part or bool(spec.records and part in spec.records[0])


_BASE32 = "abcdefghijklmnopqrstuvwxyz234567"

KINDS: dict[str, Callable[[Generation], Any]] = {
    # identity
    "id": lambda g: f"{g.id_prefix}_{draw_hex(g, 10)}",
    "uuid": lambda g: str(uuid.UUID(int=g.rng.getrandbits(128), version=4)),
    "code": lambda g: "".join(g.rng.choice(string.ascii_uppercase + string.digits) for _ in range(8)),
    "version": lambda g: f"{g.rng.randint(0, 9)}.{g.rng.randint(0, 30)}.{g.rng.randint(0, 20)}",
    "hex_color": lambda g: f"#{g.rng.getrandbits(24):06x}",
    "isbn": pooled("isbn13"),
    # people and organisations
    "name": _person_name,
    "first_name": lambda g: _person_name(g).split(" ")[0],
    "last_name": lambda g: _person_name(g).split(" ")[-1],
    "username": pooled("user_name"),
    "email": pooled("email"),
    "phone": pooled("phone_number"),
    "company": pooled("company"),
    "job_title": pooled("job"),
    "author": lambda g: g.rng.choice(faker_pool("name")),
    "player": lambda g: g.rng.choice(faker_pool("name")),
    "artist": _artist,
    "team": team,
    "racing_team": racing_team,
    "playing_position": playing_position,
    # titles and texts: the record's entity picks the vocabulary
    "title": _record_title,
    "entity_title": entity_title,
    "equipment_name": equipment_name,
    "entity_summary": lambda g: entity_summary(g, _record_title(g)),
    "description": lambda g: draw_kind(description_kind(g.entity), g),
    # A generic record's description: its entity's own texts where a vocabulary has them.
    "record_summary": lambda g: record_summary(g, _record_title(g))
    if description_kind(g.entity) in ("note_text", "entity_summary")
    else draw_kind(description_kind(g.entity), g),
    "hashtag": lambda g: "#" + slugify(draw_kind("tag", g)).replace("-", ""),
    "slug": lambda g: slugify(_record_title(g)),
    "word": lambda g: draw_kind("dictionary_word", g),
    "definition": lambda g: draw_kind("dictionary_word.definition", g),
    "news_content": news_content,  # an article body's shown opening (news_story)
    "news_summary": news_summary,  # the summary of the record's own story (news_story)
    "part_of_speech": lambda g: draw_kind("dictionary_word.part_of_speech", g),
    "recipe": lambda g: draw_kind("dish_name", g),
    "album": lambda g: draw_kind("album_title", g),
    "song": lambda g: draw_kind("song_title", g),
    "movie": lambda g: draw_kind("film_title", g),
    "book": lambda g: draw_kind("book_title", g),
    "ingredient": distinct(INGREDIENTS, "ingredient"),
    "cuisine": chosen(("Italian", "Mexican", "Japanese", "Indian", "Thai", "French", "Greek", "Lebanese",
                       "Korean", "Vietnamese", "Spanish", "Turkish", "Ethiopian", "Peruvian")),
    "color": pooled("color_name"),
    "status": chosen(STATUSES),
    # places, all from the record's one place
    "city": lambda g: g.scope.place.name,
    "country": lambda g: g.scope.place.country,
    "country_code": lambda g: g.scope.place.country_code,
    "state": lambda g: g.scope.place.region,
    "timezone": lambda g: g.scope.place.timezone,
    "latitude": lambda g: g.scope.point[0],
    "longitude": lambda g: g.scope.point[1],
    "population": lambda g: g.scope.place.population,
    "address": _address,
    "street": pooled("street_address"),
    "postal_code": pooled("postcode"),
    "currency_code": lambda g: g.call_currency() or g.scope.place.currency_code,
    "quote_currency": lambda g: g.call_currency() or "USD",  # a market quote's: the pair's or the dollar
    "currency_name": lambda g: g.facts.reference.currencies.get(g.call_currency() or g.scope.place.currency_code, ""),
    "language_code": lambda g: language(g),
    "language_name": lambda g: g.facts.reference.languages.get(language(g), "English"),
    "airport_code": lambda g: g.scope.airport().iata,
    "airport_name": lambda g: g.scope.airport().name,
    "airport_icao": lambda g: g.scope.airport().icao or g.scope.airport().iata,
    "destination_airport_code": lambda g: g.scope.airport("destination").iata,
    "airline": lambda g: airline(g)[1],
    "airline_code": lambda g: airline(g)[0],
    "airline_icao": lambda g: AIRLINE_ICAO[airline(g)[0]],
    "flight_number": lambda g: f"{airline(g)[0]}{g.rng.randint(100, 2999)}",
    "departure_time": lambda g: trip(g)[0].strftime("%Y-%m-%dT%H:%M:00Z"),
    "arrival_time": lambda g: trip(g)[1].strftime("%Y-%m-%dT%H:%M:00Z"),
    "elevation_m": lambda g: g.rng.randint(0, 600),
    "distance_km": distance_km,
    "distance_m": lambda g: round(distance_km(g) * 1000),  # postcodes.io: metres from the point
    # web: a record's page and images on the answering provider's hosts; its own site elsewhere
    "url": _page_url,
    "own_url": _own_url,
    "image_url": _image_url,
    # An AT Protocol record URI (Bluesky): at://<did:plc>/<collection>/<record key>.
    "at_uri": lambda g: (f"at://did:plc:{''.join(g.rng.choice(_BASE32) for _ in range(24))}/app.bsky.feed.post/"
                         f"{''.join(g.rng.choice(_BASE32) for _ in range(13))}"),
    "domain": pooled("domain_name"),
    "ip": pooled("ipv4_public"),
    "file_name": _file_name,
    "mime_type": chosen(MIME),
    # dates on the session clock
    "date": lambda g: (g.window_day() or (g.today if g.current else draw_date(g, -30, 30))).isoformat(),
    "past_date": lambda g: (g.window_day("past_date") or draw_date(g, -730, -1)).isoformat(),
    "future_date": lambda g: (g.window_day("future_date") or draw_date(g, 1, 90)).isoformat(),
    "datetime": lambda g: g.window_time_text() or (g.current_time_text() if g.current else draw_datetime(g, -30, 0)),
    "now": lambda g: g.now_text(),
    "current_time": lambda g: g.current_time_text(),
    "today": lambda g: g.today.isoformat(),
    "past_datetime": lambda g: draw_datetime(g, -730, -1),
    "birth_date": lambda g: draw_date(g, -85 * 365, -18 * 365).isoformat(),
    "birth_year": lambda g: g.today.year - g.rng.randint(18, 85),
    "time": lambda g: f"{g.rng.randint(7, 21):02d}:{g.rng.choice((0, 15, 30, 45)):02d}",
    "year": draw_year,
    "weekday": lambda g: WEEKDAYS[g.today.weekday()],
    "reminder_minutes": lambda g: g.rng.choice((0, 5, 10, 10, 15, 15, 15, 30, 30, 60)),  # the calendar's choices
    "duration_minutes": lambda g: trip_minutes(g) if g.is_trip() else g.rng.randint(20, 180),
    # money and markets
    "price": price,
    "amount": between(10, 5000, 2),
    "ticker": lambda g: g.scope.instrument().symbol,
    "instrument_name": lambda g: g.scope.instrument().name,
    "exchange_rate": lambda g: g.fx_rate(),
    "currency_pair": lambda g: f"{g.rng.choice(('EUR', 'GBP', 'USD', 'AUD'))}/{g.rng.choice(('USD', 'JPY', 'CHF', 'CAD'))}",
    "rate": lambda g: g.fx_rate() if g.names_currencies() else round(g.rng.uniform(0.5, 9.5), 2),
    "price_open": lambda g: g.quote_price("open"),
    "price_high": lambda g: g.quote_price("high"),
    "price_low": lambda g: g.quote_price("low"),
    "previous_close": lambda g: g.quote_price("previous_close"),
    "percentage": between(0, 100, 1),
    "rating": between(3.2, 4.9, 1),
    "score": between(0, 100),
    "count": between(0, 500),
    # weather
    "temperature_c": temperature_c,
    "temperature_f": lambda g: round(temperature_c(g) * 9 / 5 + 32, 1),
    "humidity": between(35, 92),
    "wind_speed": between(0, 35, 1),
    "wind_direction": chosen(COMPASS),
    "pressure_hpa": between(995, 1030),
    "precipitation_mm": lambda g: precipitation(g),
    "weather_condition": lambda g: condition(g),
    "aqi": between(15, 120),
    "uv_index": between(0, 9),
    "weight_kg": between(0.2, 90, 1),
    "calories": between(80, 950),
    "holiday_name": lambda g: holiday(g)[1],
    "holiday_date": lambda g: holiday(g)[0].isoformat(),
    # vehicles: one per record, coherent from make to engine
    "car_make": lambda g: g.car()[0],
    "car_model": lambda g: g.car()[1],
    "vehicle_body": lambda g: vehicle(g)[0],
    "vehicle_type": lambda g: vehicle(g)[1],
    "engine_cylinders": lambda g: vehicle(g)[2],
    "displacement_l": lambda g: vehicle(g)[3],
    "vehicle_fuel": lambda g: line["fuel_type_primary"] if (line := vin_lineup(g)) else g.rng.choice(("Gasoline",) * 14 + ("Diesel",) * 3 + ("Hybrid",) * 2
                                           + ("Flexible Fuel Vehicle (FFV)",)),
    "vin_country": lambda g: vin_country(g),
    "model_year": lambda g: vin_year(g) or g.today.year - g.rng.randint(0, 15),
    "success_code": lambda g: "0",
}
KINDS.update(GEO_KINDS)  # countries, time zones, addresses (geo_kinds)
KINDS.update(ALERT_KINDS)  # the national weather service that issues a place's alerts (alert_kinds)
KINDS.update(FX_KINDS)  # exchange-rate roles (see ``fx``)
KINDS.update(MAGNITUDE_KINDS)  # market caps, supplies and dominance (see ``magnitudes``)
KINDS.update(FIGURE_KINDS)  # a coin's rank, its changes over an hour/day/week, its FDV (market_figures)
KINDS.update(PRODUCT_KINDS)  # UPC-A codes and model numbers (product_facts)
KINDS.update(PACKAGE_KINDS)  # semver ranges, SRI digests, entry points of package manifests (package_kinds)
KINDS.update(ID_FORMAT_KINDS)  # hashes, wallets, ISBNs, IBANs, tracking numbers (id_formats)
KINDS.update(CLOCK_KINDS)  # offsets, DST flags, local times and sun times follow the record's place
KINDS.update(DOMAIN_KINDS)  # formats real APIs fix: E.164 phones, short links, platform ids (domain_kinds)
KINDS.update(DEV_KINDS)  # branches, commits, digests (dev_kinds)
KINDS.update(MEDIA_KINDS)  # genres of the record's medium (media_kinds)
KINDS.update(MEDIA_NUMBER_KINDS)  # seasons, episodes and tracks that add up (media_numbers)
KINDS.update(DOMAIN_TEXT_KINDS)  # notes, bios and categories that fit their record (domain_texts)
KINDS.update(WORD_KINDS)  # words that fit the word question asked (word_kinds)
KINDS.update(TEXT_KINDS)  # the call's own text: its words, sentences, translation (text_kinds)
KINDS.update(AVIATION_KINDS)  # FAA facility and route fields (aviation_kinds)
KINDS.update(SHAPE_KINDS)  # pages, pixel sizes, bid/ask, DSNs (shape_kinds)
KINDS.update(SECURITY_KINDS)  # CVSS vectors and scores, CPE names, CVE texts, scan facets (security_kinds)
KINDS.update(PLACE_QUERY_KINDS)  # a place search's labels and classes (place_query)
KINDS.update(UV_KINDS)  # UV readings that follow the sun (uv_kinds)
KINDS.update(CALENDAR_KINDS)  # holidays of the year asked, observances of the day asked (calendar_kinds)
KINDS.update(EMISSION_KINDS)  # emission factors and the estimates they give (emission_kinds)
KINDS.update(JOURNEY_KINDS)  # transit journeys as long as distance and mode take (journey_kinds)
KINDS.update(SHOP_KINDS)  # product listings of the query's topic (shop_kinds)
KINDS.update(ZIP_KINDS)  # a US record's county and its FIPS code (us_zips)
KINDS.update(PACK_KINDS)  # a pack size with its unit, as the label prints it (pack_sizes)
KINDS.update(MARINE_KINDS)  # waves, swells, salinity and sea levels in the ocean's ranges (marine_kinds)
KINDS.update(PUBLIC_MONEY_KINDS)  # tenders, awards, agency budgets and charity figures at their magnitudes (public_money)
KINDS.update(UK_POSTCODE_KINDS)  # a UK postcode of the call's area (uk_postcodes)
KINDS.update(SPORT_KINDS)  # jersey numbers and men's league players (sport_teams)
