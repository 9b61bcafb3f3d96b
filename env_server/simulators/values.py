"""Value kinds: realistic generators for one field, and the field-name rules that pick them.

A kind is a short name (``city``, ``temperature_c``, ``price``, …) listed in
``tool_specs/README.md``. ``kind_for(field, schema, entity)`` guesses the kind from the
field name; a profile's ``hints`` override the guess. ``make_value(kind, gen)`` draws a
value from the call's seeded Faker, using the session clock for dates.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import uuid

from faker import Faker
from faker.providers.lorem.en_US import Provider as LoremProvider

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_PERSON_ENTITIES = frozenset(
    {"user", "author", "artist", "player", "customer", "character", "person", "member", "contact",
     "employee", "driver", "athlete", "actor", "owner", "guest", "patient", "doctor", "account", "profile"}
)
_PLACE_ENTITIES = frozenset({"city", "location", "place", "station", "airport", "venue", "stop", "region"})

GENRES = ("Drama", "Comedy", "Action", "Jazz", "Rock", "Pop", "Documentary", "Thriller", "Fantasy",
          "Hip-Hop", "Classical", "Sci-Fi", "Romance", "Indie", "Electronic", "Musical")
CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR", "SEK", "NZD", "SGD")
LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "ja", "zh", "ko", "nl", "sv", "ru")
AIRLINES = ("Lufthansa", "Delta Air Lines", "Air France", "United Airlines", "KLM", "Emirates",
            "Qantas", "Singapore Airlines", "British Airways", "Iberia", "Japan Airlines")
AIRPORTS = ("JFK", "LAX", "LHR", "CDG", "FRA", "AMS", "HND", "SIN", "DXB", "SFO", "ORD", "MAD", "SYD")
TICKERS = ("AAPL", "MSFT", "GOOGL", "AMZN", "NVDA", "TSLA", "META", "JPM", "V", "KO", "NFLX", "IBM")
POS = ("noun", "verb", "adjective", "adverb", "pronoun", "preposition", "conjunction", "interjection")
CUISINES = ("Italian", "Mexican", "Japanese", "Indian", "Thai", "French", "Greek", "Lebanese", "Korean")
INGREDIENTS = ("chicken", "tomato", "basil", "garlic", "rice", "chickpeas", "spinach", "salmon",
               "mushroom", "lentils", "ginger", "lemon", "potato", "tofu", "mozzarella")
STATUSES = ("active", "pending", "completed", "confirmed", "open")
TEAMS = ("Lakers", "Celtics", "Warriors", "Arsenal", "Real Madrid", "Bayern Munich", "Yankees",
         "Dodgers", "Packers", "Chiefs", "Juventus", "Ajax")
MIME = ("application/pdf", "image/png", "image/jpeg", "text/plain", "application/json", "text/csv")
POSITIVE_QUOTES = (
    "The best way to predict the future is to create it.",
    "Simplicity is the ultimate sophistication.",
    "Well begun is half done.",
    "What we think, we become.",
    "Fortune favors the bold.",
    "Stay hungry, stay foolish.",
    "The journey of a thousand miles begins with one step.",
    "Quality is not an act, it is a habit.",
)


# Faker's lorem words, drawn with our own RNG calls: Faker's sentence() costs ~10x more
# per call, and free text is most of what a response holds.
WORDS: tuple[str, ...] = tuple(LoremProvider.word_list)


# Faker-backed kinds draw from a pool of values Faker made once with a fixed seed. The
# values are Faker's (realistic, locale-aware); the per-call cost is one rng.choice instead
# of Faker's weighted format expansion, which dominated call latency.
POOL_SIZE = 1000
_POOL_SEED = 20260115
_POOLS: dict[str, tuple[str, ...]] = {}


def _pool(method: str) -> tuple[str, ...]:
    pool = _POOLS.get(method)
    if pool is None:
        fake = Faker("en_US")
        fake.seed_instance(_POOL_SEED)
        pool = tuple(str(getattr(fake, method)()).replace("\n", ", ") for _ in range(POOL_SIZE))
        _POOLS[method] = pool
    return pool


# Draw shapes. Most kinds are one of three draws; the factories below tag each draw
# function with its shape, so a compiled plan (``plan_source``) can inline the draw and
# spare the call, consuming exactly the same random bits.


def pooled(method: str) -> Callable[[Generation], str]:
    def draw(gen: Generation) -> str:
        return gen.rng.choice(_POOLS.get(method) or _pool(method))

    draw.sequence = functools.partial(_pool, method)  # type: ignore[attr-defined]
    return draw


def chosen(options: tuple[Any, ...]) -> Callable[[Generation], Any]:
    def draw(gen: Generation) -> Any:
        return gen.rng.choice(options)

    draw.sequence = lambda: options  # type: ignore[attr-defined]
    return draw


def int_between(lo: int, hi: int) -> Callable[[Generation], int]:
    def draw(gen: Generation) -> int:
        return gen.rng.randint(lo, hi)

    draw.int_range = (lo, hi)  # type: ignore[attr-defined]
    return draw


def rounded_between(lo: float, hi: float, ndigits: int) -> Callable[[Generation], float]:
    def draw(gen: Generation) -> float:
        return round(gen.rng.uniform(lo, hi), ndigits)

    draw.uniform_range = (lo, hi, ndigits)  # type: ignore[attr-defined]
    return draw


def words(gen: Generation, n: int) -> str:
    return " ".join(gen.rng.choices(WORDS, k=n))


def sentence(gen: Generation, n: int) -> str:
    text = words(gen, n)
    return text[:1].upper() + text[1:] + "."


def pooled_sentence(gen: Generation) -> str:
    """A 6-12 word sentence from a fixed pool: one rng call instead of one per word.

    Free text fills most of a response, so drawing it word by word was the simulator's
    largest cost; a pool of ``POOL_SIZE`` sentences keeps the text varied.
    """
    return gen.rng.choice(sentences())


def sentences() -> tuple[str, ...]:
    pool = _POOLS.get("sentence")
    if pool is None:
        rng = random.Random(_POOL_SEED)
        made = (" ".join(rng.choices(WORDS, k=rng.randint(6, 12))) for _ in range(POOL_SIZE))
        pool = _POOLS["sentence"] = tuple(text[:1].upper() + text[1:] + "." for text in made)
    return pool


pooled_sentence.sequence = sentences  # type: ignore[attr-defined]


def paragraph(gen: Generation, k: int) -> str:
    pool, choice = sentences(), gen.rng.choice
    return " ".join([choice(pool) for _ in range(k)])


def _date(gen: Generation, lo: int, hi: int) -> dt.date:
    return gen.today + dt.timedelta(days=gen.rng.randint(lo, hi))


def _datetime(gen: Generation, lo: int, hi: int) -> str:
    day = _date(gen, lo, hi)
    return f"{day.isoformat()}T{gen.rng.randint(0, 23):02d}:{gen.rng.choice((0, 15, 30, 45)):02d}:00Z"


def _hex(gen: Generation, n: int) -> str:
    # One draw for all n digits: ids appear in most responses.
    return f"{gen.rng.getrandbits(4 * n):0{n}x}"


def _title(gen: Generation) -> str:
    return CATCH_PHRASES(gen) if gen.rng.random() < 0.5 else sentence(gen, 4).rstrip(".")


CATCH_PHRASES = pooled("catch_phrase")
_DOMAIN = pooled("domain_name")
_SLUG = pooled("slug")

KINDS: dict[str, Callable[[Generation], Any]] = {
    "id": lambda g: f"{g.id_prefix}_{_hex(g, 10)}",
    "uuid": lambda g: str(uuid.UUID(int=g.rng.getrandbits(128), version=4)),
    "name": pooled("name"),
    "first_name": pooled("first_name"),
    "last_name": pooled("last_name"),
    "username": pooled("user_name"),
    "company": pooled("company"),
    "job_title": pooled("job"),
    "title": _title,
    "word": chosen(WORDS),
    "words": lambda g: words(g, 3),
    "sentence": pooled_sentence,
    "paragraph": lambda g: paragraph(g, 3),
    "city": pooled("city"),
    "country": pooled("country"),
    "country_code": pooled("country_code"),
    "state": pooled("state"),
    "address": pooled("address"),
    "street": pooled("street_address"),
    "postal_code": pooled("postcode"),
    "latitude": rounded_between(-60, 70, 4),
    "longitude": rounded_between(-170, 170, 4),
    "timezone": pooled("timezone"),
    "language_code": chosen(LANGUAGES),
    "currency_code": chosen(CURRENCIES),
    "email": pooled("email"),
    "phone": pooled("phone_number"),
    "url": lambda g: f"https://{_DOMAIN(g)}/{_SLUG(g)}",
    "image_url": lambda g: f"https://images.{_DOMAIN(g)}/{_hex(g, 12)}.jpg",
    "domain": pooled("domain_name"),
    "ip": pooled("ipv4_public"),
    "slug": pooled("slug"),
    "hex_color": lambda g: f"#{g.rng.getrandbits(24):06x}",
    "color": pooled("color_name"),
    "isbn": pooled("isbn13"),
    "ticker": chosen(TICKERS),
    "date": lambda g: _date(g, -30, 30).isoformat(),
    "past_date": lambda g: _date(g, -730, -1).isoformat(),
    "future_date": lambda g: _date(g, 1, 90).isoformat(),
    "datetime": lambda g: _datetime(g, -30, 0),
    "time": lambda g: f"{g.rng.randint(0, 23):02d}:{g.rng.choice((0, 15, 30, 45)):02d}",
    "year": lambda g: g.today.year - g.rng.randint(0, 40),
    "duration_minutes": int_between(20, 180),
    "price": rounded_between(5, 250, 2),
    "amount": rounded_between(10, 5000, 2),
    "percentage": rounded_between(0, 100, 1),
    "rating": rounded_between(1, 5, 1),
    "score": int_between(0, 100),
    "count": int_between(0, 500),
    "temperature_c": rounded_between(-5, 32, 1),
    "temperature_f": rounded_between(23, 90, 1),
    "humidity": int_between(20, 95),
    "wind_speed": rounded_between(0, 45, 1),
    "pressure_hpa": int_between(985, 1035),
    "precipitation_mm": lambda g: round(max(0.0, g.rng.uniform(-4, 12)), 1),
    "aqi": int_between(15, 180),
    "uv_index": int_between(0, 11),
    "population": int_between(5_000, 9_000_000),
    "elevation_m": int_between(0, 2500),
    "distance_km": rounded_between(0.5, 900, 1),
    "weight_kg": rounded_between(0.2, 90, 1),
    "calories": int_between(80, 950),
    "version": lambda g: f"{g.rng.randint(0, 9)}.{g.rng.randint(0, 30)}.{g.rng.randint(0, 20)}",
    "genre": chosen(GENRES),
    "artist": pooled("name"),
    "album": lambda g: words(g, 2).title(),
    "song": lambda g: words(g, g.rng.randint(1, 3)).title(),
    "movie": lambda g: words(g, g.rng.randint(1, 3)).title(),
    "book": lambda g: words(g, 3).title(),
    "author": pooled("name"),
    "team": chosen(TEAMS),
    "player": pooled("name"),
    "recipe": lambda g: f"{g.rng.choice(INGREDIENTS).title()} {g.rng.choice(('Curry', 'Salad', 'Risotto', 'Stew', 'Tacos', 'Soup'))}",
    "ingredient": chosen(INGREDIENTS),
    "cuisine": chosen(CUISINES),
    "airport_code": chosen(AIRPORTS),
    "airline": chosen(AIRLINES),
    "flight_number": lambda g: f"{g.rng.choice(string.ascii_uppercase)}{g.rng.choice(string.ascii_uppercase)}{g.rng.randint(100, 9999)}",
    "hashtag": lambda g: "#" + g.rng.choice(WORDS),
    "quote": chosen(POSITIVE_QUOTES),
    "definition": lambda g: sentence(g, 12),
    "part_of_speech": chosen(POS),
    "file_name": pooled("file_name"),
    "mime_type": chosen(MIME),
    "status": chosen(STATUSES),
    "code": lambda g: "".join(g.rng.choice(string.ascii_uppercase + string.digits) for _ in range(8)),
}

# Field-name rules, first match wins. Each pattern is matched against the snake_case name.
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), k)
    for p, k in [
        (r"(^|_)e?mail(_address)?$", "email"),
        (r"(image|thumbnail|photo|picture|avatar|icon|poster|cover|logo)(_url)?$", "image_url"),
        (r"(^|_)(url|link|href|website|homepage|uri)$", "url"),
        (r"(^|_)(phone|telephone|mobile)(_number)?$", "phone"),
        (r"(^|_)(lat|latitude)$", "latitude"),
        (r"(^|_)(lon|lng|long|longitude)$", "longitude"),
        (r"country_code$", "country_code"),
        (r"(^|_)country(_name)?$", "country"),
        (r"(^|_)city(_name)?$", "city"),
        (r"(^|_)(state|province|region)$", "state"),
        (r"(^|_)(zip|postal_code|postcode|zip_code)$", "postal_code"),
        (r"(^|_)street", "street"),
        (r"address$", "address"),
        (r"(^|_)(timezone|tz|time_zone)$", "timezone"),
        (r"(^|_)(currency|currency_code|base_currency)$", "currency_code"),
        (r"(fahrenheit|temp_f|temperature_f)", "temperature_f"),
        (r"(^|_)(temp|temperature|feels_like|dew_point)", "temperature_c"),
        (r"humidity", "humidity"),
        (r"wind", "wind_speed"),
        (r"pressure", "pressure_hpa"),
        (r"(precip|rain|snow)", "precipitation_mm"),
        (r"(^|_)aqi", "aqi"),
        (r"(^|_)uv", "uv_index"),
        (r"(^|_)(rating|stars|avg_rating|average_rating)$", "rating"),
        (r"(percent|pct|percentage)", "percentage"),
        (r"(^|_)(score|popularity)$", "score"),
        (r"(^|_)population$", "population"),
        (r"(^|_)(elevation|altitude)", "elevation_m"),
        (r"(^|_)(distance|visibility)", "distance_km"),
        (r"(^|_)(weight)", "weight_kg"),
        (r"calories|kcal", "calories"),
        (r"(price|cost|fee|fare|subtotal|total_price|unit_price)", "price"),
        (r"(amount|balance|total|salary|revenue|volume|market_cap|value)$", "amount"),
        (r"(^|_)(year|release_year)$", "year"),
        (r"(duration|runtime|length_minutes|minutes)", "duration_minutes"),
        (r"(_at|timestamp|datetime|date_time)$", "datetime"),
        (r"(^|_)(date|day|release_date|published|birthday|dob)$|_date$|_on$", "date"),
        (r"(^|_)time$", "time"),
        (r"(^|_)(uuid|guid)$", "uuid"),
        (r"(^|_)(id|identifier|txid|guid)$|_id$|^id_", "id"),
        (r"(^|_)(code|sku|barcode|reference|ref)$", "code"),
        (r"(^|_)first_name$", "first_name"),
        (r"(^|_)last_name$", "last_name"),
        (r"(^|_)(username|user_name|handle|login|screen_name)$", "username"),
        (r"(company|organization|organisation|publisher|brand|manufacturer|employer|studio)", "company"),
        (r"(author|writer)", "author"),
        (r"(artist|singer|band|composer)", "artist"),
        (r"(director|owner|creator|actor|host|speaker|customer_name|full_name|contact_name)", "name"),
        (r"(job_title|occupation|position)$", "job_title"),
        (r"(^|_)album", "album"),
        (r"(^|_)(song|track)(_name|_title)?$", "song"),
        (r"(title|headline|subject|caption)", "title"),
        (r"(description|summary|bio|overview|synopsis|abstract|content|body|text|details|excerpt)$", "paragraph"),
        (r"(message|comment|review|note|reason|instructions|explanation|example)", "sentence"),
        (r"(^|_)(definition|meaning|gloss)", "definition"),
        (r"part_of_speech|(^|_)pos$", "part_of_speech"),
        (r"(^|_)quote", "quote"),
        (r"(^|_)genre", "genre"),
        (r"(^|_)(language|lang|locale)$", "language_code"),
        (r"(^|_)status$", "status"),
        (r"(^|_)version$", "version"),
        (r"(^|_)(hex|color_hex)$", "hex_color"),
        (r"(^|_)colou?r$", "color"),
        (r"(^|_)(ip|ip_address)$", "ip"),
        (r"(^|_)(domain|hostname|host)$", "domain"),
        (r"(^|_)isbn", "isbn"),
        (r"(^|_)(symbol|ticker)$", "ticker"),
        (r"(airport|iata|icao)", "airport_code"),
        (r"airline|carrier", "airline"),
        (r"flight_(number|no)$", "flight_number"),
        (r"(^|_)team", "team"),
        (r"(^|_)player", "player"),
        (r"(^|_)(recipe|dish)", "recipe"),
        (r"ingredient", "ingredient"),
        (r"cuisine", "cuisine"),
        (r"(hashtag|(^|_)tag)s?$", "hashtag"),
        (r"(^|_)(slug)$", "slug"),
        (r"(file_?name|filename)$", "file_name"),
        (r"(mime|content_type|media_type)", "mime_type"),
        (r"(^|_)(word|term|keyword)$", "word"),
        (r"(^|_)(count|num|number|quantity|views|likes|followers|total_results|results_count)$", "count"),
    ]
]

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@functools.lru_cache(maxsize=65536)
def snake(name: str) -> str:
    return _CAMEL.sub("_", name).lower().replace("-", "_").replace(" ", "_")


@functools.lru_cache(maxsize=65536)
def kind_for(field: str, entity: str) -> str | None:
    """The value kind a field name suggests, or None to fall back on the schema alone."""
    low = snake(field)
    if low == "name" or low.endswith("_name") and low[:-5] in ("display", "full", "real"):
        if entity in _PERSON_ENTITIES:
            return "name"
        if entity in _PLACE_ENTITIES:
            return "city"
        return "title"
    for pattern, kind in _RULES:
        if pattern.search(low):
            return kind
    return None
