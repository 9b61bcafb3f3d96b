"""From a field's name and its record's entity to a value kind.
``name`` in a city record is a city, in a track record a song title, in a user record a person's name;
``description`` of a hotel describes a place, of a film it is a synopsis. The rules are data: first match
wins, patterns match the snake_case field name."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from env_server.catalog import words
from env_server.simulators.aviation_kinds import AVIATION_RULES, trip_end_kind
from env_server.simulators.budget_kinds import budget_kind
from env_server.simulators.dev_kinds import DEV_RULES
from env_server.simulators.geo_naming import geo_kind, overrides_hint
from env_server.simulators.id_formats import OVERRIDABLE_HINTS, id_format_kind
from env_server.simulators.org_roles import role_kind
from env_server.simulators.shape_kinds import SHAPE_RULES
from env_server.simulators.us_zips import county_field_kind

_TAXON_RANKS = frozenset({"kingdom", "phylum", "order", "family", "genus"})
_LIVING = frozenset({"species", "specie", "taxon", "fruit", "fruits", "plant", "animal", "bird", "organism",
                     "occurrence", "tree", "flower", "insect", "fish", "mammal", "creature"})
_AIRLINE_WORDS = frozenset({"airline", "airlines", "carrier", "carriers", "operator"})
_AIRLINE_CODES = frozenset({"icao", "icao_code", "iata", "iata_code"})
_TRIP_ENTITIES = frozenset({"flight", "offer", "booking", "fare", "trip", "ticket", "itinerary", "route", "leg",
                            "segment", "journey"})

PERSON_ENTITIES = frozenset(
    {"user", "author", "player", "customer", "character", "person", "member", "contact", "employee", "driver",
     "athlete", "actor", "owner", "guest", "patient", "doctor", "account", "profile", "follower", "candidate",
     "speaker", "attendee", "staff", "student", "teacher", "agent", "assignee", "friend", "people", "creator",
     "uploader", "reporter"}
)
PLACE_ENTITIES = frozenset(
    {"city", "location", "place", "region", "geocode", "geo", "locality", "town", "timezone", "country", "toponym",
     "geoname", "settlement", "municipality", "neighbourhood", "neighborhood", "suburb", "feature"}
)

# Entity word -> the vocabulary its titles and names come from. An entity matches a row
# when one of the row's words is a word of the entity (``tv_show`` matches ``tv``).
_TITLE_BY_ENTITY: tuple[tuple[frozenset[str], str], ...] = tuple(
    (frozenset(words.split()), kind)
    for words, kind in (
        ("tv series episode season", "tv_show_title"),
        ("movie film", "film_title"),
        ("show concert performance gig festival ticket exhibition", "show_title"),
        ("book ebook novel edition work", "book_title"),
        ("track song lyric lyrics recording", "song_title"),
        ("album release", "album_title"),
        ("artist band musician", "band_name"),
        ("podcast", "podcast_title"),
        ("game boardgame", "game_title"),
        ("anime manga", "anime_title"),
        ("artwork painting object artifact", "artwork_title"),
        ("playlist mix", "playlist_name"),
        ("article news story headline", "headline"),
        ("post blog entry gist", "article_title"),
        ("issue bug ticket incident pull merge", "issue_title"),
        ("commit", "commit_message"),
        ("task todo card checklist reminder", "task_title"),
        ("event meeting calendar appointment", "event_title"),
        ("message email mail draft thread", "email_subject"),
        ("project board workspace space", "project_name"),
        ("repo repository package library module", "repo_name"),
        ("dataset data table", "dataset_name"),
        ("app application", "app_name"),
        ("file document doc page note folder sheet spreadsheet form report", "document_title"),
        ("product listing offer deal sku variant", "product_name"),
        ("restaurant cafe bar eatery", "restaurant_name"),
        ("hotel property stay accommodation lodging", "hotel_name"),
        ("venue arena stadium theater theatre", "venue_name"),
        ("shop store business merchant", "shop_name"),
        ("recipe dish meal food", "dish_name"),
        ("beer beers ale lager brew", "beer_name"),  # before drinks: a beer is not a latte
        ("cocktail cocktails mocktail", "cocktail"),  # a mixed drink with its glass and method (entry_fields)
        ("drink wine coffee", "drink_name"),
        ("job position vacancy", "job_posting_title"),
        ("category collection", "category"),
        ("breed dog", "dog_breed"),
        ("cat", "cat_breed"),
        ("bird", "bird_species.common_name"),
        ("plant tree flower", "plant_species.common_name"),
        ("animal species taxon", "animal_species.common_name"),
        ("photo photos image images photograph", "photo_caption"),  # last: an image category is a category
    )
)
PHOTO_CAPTION = "photo_caption"
# A broad hint on a record of a narrower kind names that kind: an artwork title on a
# photograph is its caption, a drink's name (or a product's text) on a beer is a beer's.
_NARROWED = {("artwork_title", PHOTO_CAPTION): PHOTO_CAPTION, ("drink_name", "beer_name"): "beer_name",
             ("product_description", "beer_name"): "beer_description"}

_DESCRIPTION_BY_TITLE = {
    "tv_show_title": "film_synopsis", "film_title": "film_synopsis", "anime_title": "film_synopsis",
    "show_title": "event_description", "event_title": "event_description", "book_title": "book_description",
    "headline": "news_summary", "article_title": "news_summary", "repo_name": "repo_description",
    "dataset_name": "dataset_description", "product_name": "product_description",
    "restaurant_name": "place_description", "hotel_name": "place_description", "venue_name": "place_description",
    "shop_name": "place_description", "dish_name": "product_description", "drink_name": "product_description",
    "beer_name": "beer_description",
    "app_name": "repo_description", "issue_title": "note_text", "task_title": "note_text",
    "project_name": "note_text", "document_title": "note_text", "email_subject": "chat_message",
    "entity_title": "entity_summary", "photo_caption": "photo_caption",
}


# The catalog's rule, cached: the value engine asks for the same few thousand names per call.
snake = functools.lru_cache(maxsize=65536)(words.snake)


@functools.lru_cache(maxsize=4096)
def title_kind(entity: str) -> str:
    """The vocabulary a record's title or name comes from."""
    words = set(snake(entity).split("_"))
    for entity_words, kind in _TITLE_BY_ENTITY:
        if words & entity_words:
            return kind
    if words & PLACE_ENTITIES:
        return "city"
    if words & PERSON_ENTITIES:
        return "name"
    return "entity_title"  # composed from the entity (compose.py), not an office document's title


@functools.lru_cache(maxsize=4096)
def part_title_kind(entity: str, parent: str) -> str | None:
    """The title vocabulary of a record's parts when they are another medium's (a release's
    ``track`` items: songs), else None."""
    if not parent:
        return None
    part = title_kind(parent)
    own = title_kind(entity)
    return part if part != own and part in _TITLE_KINDS and own in _TITLE_KINDS else None


@functools.lru_cache(maxsize=4096)
def description_kind(entity: str) -> str:
    if set(snake(entity).split("_")) & PERSON_ENTITIES:
        return "bio"
    if set(snake(entity).split("_")) & PLACE_ENTITIES:
        return "place_description"
    return _DESCRIPTION_BY_TITLE.get(title_kind(entity), "note_text")


_TITLE_KINDS = frozenset(kind for _, kind in _TITLE_BY_ENTITY)

# Field-name rules, first match wins.
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), k)
    for p, k in [
        (r"^(icao|icao_id|icao_code|station_icao|airport_icao)$", "airport_icao"),
        (r"^(airport_code|airport_iata|iata_code)$", "airport_code"),
        (r"^(arrival_airport|destination_code|destination_location_code|arr_iata|to_airport|destination_iata)$",
         "destination_airport_code"),
        (r"^(departure_airport|origin_code|origin_location_code|dep_iata|from_airport|origin_iata)$", "airport_code"),
        (r"(carrier|airline)_?(code|iata)$", "airline_code"),
        (r"^(common_name|official_name)$", "title"),
        (r"^(state_full|state_name|province_name|subdivision)$", "state"),
        (r"^(border|borders|neighbou?rs?)$", "country_code"),
        (r"^synonyms?$", "dictionary_word.synonyms"),
        (r"^antonyms?$", "dictionary_word.antonyms"),
        (r"^(fact|trivia)$", "fun_fact"),
        (r"^(access_token|refresh_token|token|api_key|secret|discriminator)$", "code"),
        (r"^(manager|owner_name|contact|character_name|person_name)$", "name"),
        # Codes that name a place, a currency or a language have kinds of their own below.
        (r"^(?!.*(country|postal|zip|currency|language|lang|locale)_code$).*(_ident|_code|_artcc|_icao)$",
         "code"),
        (r"^(pdf_name|document_name|attachment_name)$", "file_name"),
        (r"^(pdf_path|path|download_path)$", "url"),
        (r"^(last_update|last_updated_at|updated|modified)$", "current_time"),
        (r"^(facility_name|airport_name)$", "airport_name"),
        (r"^(utc_offset|gmt_offset)$", "timezone"),
        (r"(^|_)e?mail(_address)?$", "email"),
        (r"(image|thumb|thumbnail|photo|picture|avatar|icon|poster|cover|logo)(_url)?$", "image_url"),
        (r"(^|_)(url|link|href|website|homepage|uri|permalink)$", "url"),
        (r"(^|_)(phone|telephone|mobile)(_number)?$", "phone"),
        (r"(^|_)(lat|latitude)$", "latitude"),
        (r"(^|_)(lon|lng|long|longitude)$", "longitude"),
        (r"country_code$", "country_code"),
        (r"(^|_)(language_code|lang_code|locale_code)$", "language_code"),
        (r"(^|_)currency_code$", "currency_code"),
        (r"(^|_)country(_name)?$", "country"),
        (r"(^|_)(city|town|location|place|origin_city|destination_city|near)(_name)?$", "city"),
        (r"(^|_)(currency_pair|pair)$", "currency_pair"),
        (r"(^|_)(state|province|region)$", "state"),
        (r"(^|_)(zip|postal_code|postcode|zip_code)$", "postal_code"),
        (r"(^|_)street", "street"),
        (r"address$", "address"),
        (r"(^|_)(timezone|tz|time_zone|tz_id)$", "timezone"),
        (r"(^|_)(currency|currency_code|base_currency)$", "currency_code"),
        (r"(fahrenheit|temp_f|temperature_f|_f)$", "temperature_f"),
        (r"(^|_)(temp|temperature|feels_?like|dew_?point|heat_?index|wind_?chill)", "temperature_c"),
        (r"humidity", "humidity"),
        (r"wind_(dir|direction)$", "wind_direction"),
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
        (r"(^|_)(exchange_rate|conversion_rate|fx_rate)$", "exchange_rate"),
        (r"(^|_)rate$", "rate"),
        (r"(price|cost|fee|fare|subtotal|total_price|unit_price)", "price"),
        (r"(amount|balance|total|salary|revenue|volume|market_cap|value)$", "amount"),
        (r"(^|_)(year|release_year)$", "year"),
        (r"(^|_)(reminder|remind|alert|notify)(_\w+)?_minutes|minutes_before", "reminder_minutes"),
        (r"(duration|runtime|length_minutes|minutes)", "duration_minutes"),
        (r"(^|_)(last_updated|localtime|local_time|observation_time|observed_at|as_of|updated_at|timestamp|time_last_update)$|^(t|dt|ts|last_refreshed)$", "current_time"),
        (r"^(departure|depart|departs|departing|departure_date_?time|dep_time|outbound)(_at|_time|_datetime)?$",
         "departure_time"),
        (r"^(arrival|arrive|arrives|arriving|arrival_date_?time|arr_time)(_at|_time|_datetime)?$", "arrival_time"),
        (r"(_at|timestamp|datetime|date_time)$", "datetime"),
        (r"(^|_)(date|day|release_date|published|birthday|dob)$|_date$|_on$", "date"),
        (r"(^|_)time$", "time"),
        (r"(^|_)(uuid|guid)$", "uuid"),
        (r"(^|_)(id|identifier|txid|guid)$|_id$|^id_", "id"),
        (r"(^|_)(code|sku|barcode|reference|ref)$", "code"),
        (r"(^|_)first_name$", "first_name"),
        (r"(^|_)last_name$", "last_name"),
        (r"(^|_)(username|user_name|handle|login|screen_name)$", "username"),
        (r"(^|_)(make|manufacturer)$", "car_make"),
        (r"(company|organization|organisation|publisher|brand|employer|studio)", "company"),
        (r"(author|writer)", "author"),
        (r"(artist|singer|band|composer)", "artist"),
        (r"(director|owner|creator|actor|host|speaker|customer_name|full_name|contact_name)", "name"),
        (r"(job_title|occupation|position)$", "job_title"),
        (r"(^|_)album", "album"),
        (r"(^|_)(song|track)(_name|_title)?$", "song"),
        (r"(title|headline|caption)", "title"),
        (r"(^|_)subject$", "email_subject"),
        (r"(description|summary|overview|synopsis|abstract|details|excerpt)$", "description"),
        (r"(^|_)bio$", "bio"),
        (r"(^|_)review", "review"),
        (r"(^|_)comment", "comment"),
        (r"(^|_)(message|text|body|content)$", "chat_message"),
        (r"(^|_)(note|notes|memo)$", "note_text"),
        (r"(^|_)(reason|error|error_message)$", "error_message"),
        (r"(^|_)(definition|meaning|gloss)", "definition"),
        (r"part_of_speech|(^|_)pos$", "part_of_speech"),
        (r"(^|_)quote", "quote"),
        (r"(^|_)genre", "genre"),
        (r"(^|_)(category|categories)$", "category"),
        (r"(^|_)(language|lang|locale)$", "language_code"),
        (r"(^|_)status$", "status"),
        (r"(^|_)version$", "version"),
        (r"(^|_)(hex|color_hex)$", "hex_color"),
        (r"(^|_)colou?r$", "color"),
        (r"(^|_)(ip|ip_address)$", "ip"),
        (r"(^|_)(domain|hostname|host)$", "domain"),
        (r"(^|_)(symbol|ticker)$", "ticker"),
        (r"(airport|iata|icao)", "airport_code"),
        (r"airline|carrier", "airline"),
        (r"flight_(number|no)$", "flight_number"),
        (r"(^|_)team", "team"),
        (r"(^|_)player", "player"),
        (r"(^|_)(holiday|holiday_name|local_name)$", "holiday_name"),
        (r"(^|_)(recipe|dish)", "recipe"),
        (r"(^|_)sub_?breeds?$", "dog_breed.sub_breeds"),
        (r"(^|_)breeds?(_name|_primary)?$", "dog_breed"),
        (r"ingredient", "ingredient"),
        (r"cuisine", "cuisine"),
        (r"(hashtag)s?$", "hashtag"),
        (r"(^|_)(tag|tags|label|labels|keyword|keywords|topic|topics)$", "tag"),
        (r"(^|_)(slug)$", "slug"),
        (r"(file_?name|filename)$", "file_name"),
        (r"(mime|content_type|media_type)", "mime_type"),
        (r"(^|_)(word|term)$", "word"),
        (r"(^|_)(count|num|number|quantity|views|likes|followers|total_results|results_count)$", "count"),
    ]
]
_RULES[:0] = DEV_RULES  # branches, commits and digests (dev_kinds)
_RULES[:0] = AVIATION_RULES + SHAPE_RULES  # FAA fields, pages, pixel sizes, DSNs (aviation_kinds, shape_kinds)


@functools.lru_cache(maxsize=65536)
def kind_for(field: str, entity: str, parent: str = "") -> str | None:
    """The value kind a field name suggests, or None to fall back on the schema alone."""
    low = snake(field)
    geo = geo_kind(low, snake(entity), snake(parent))
    if geo is not None:
        return geo
    if (ident := id_format_kind(low, snake(entity))) is not None:
        return ident
    if low in _TAXON_RANKS and set(snake(entity).split("_")) & _LIVING:
        return f"taxon.{low}"
    if low in ("origin", "destination", "from", "to"):  # an airport on a trip, a city otherwise
        trip = bool(set(snake(entity).split("_")) & _TRIP_ENTITIES)
        if trip:
            return "airport_code" if low in ("origin", "from") else "destination_airport_code"
        return "city" if low in ("origin", "destination") else None
    if low in ("name", "display_name", "full_name", "real_name") or low == snake(entity) + "_name":
        if set(snake(parent).split("_")) & PLACE_ENTITIES:
            return "city"
        return "title" if low == "name" or title_kind(entity) not in ("name",) else "name"
    county = county_field_kind(low, snake(entity))
    if county is not None:
        return county
    if low in _AIRLINE_CODES and set(snake(entity).split("_")) & _AIRLINE_WORDS:
        return "airline_icao" if "icao" in low else "airline_code"  # an airline's designator ("KLM"), not an airport's
    for pattern, kind in _RULES:
        if pattern.search(low):
            return kind
    return None


# Hints written before the vocabularies existed name generic text; the field's own name
# (and its record's entity) now says more.
GENERIC_HINTS = {"word": "tag", "words": "tag", "sentence": "description", "paragraph": "description"}
_QUOTE_ENTITY_WORDS = frozenset({"quote", "stock", "ticker", "coin", "crypto", "cryptocurrency", "candle",
                                 "ohlc", "bar", "asset", "price", "market", "trade", "security", "equity"})
# Kinds a field's name can establish that beat a broad hint written before they existed.
_SPECIFIC = frozenset({"airport_icao", "current_time", "departure_time", "arrival_time", "airline_code", "destination_airport_code",
                       "holiday_name", "holiday_date", "rate", "exchange_rate"})
_BROAD = frozenset({"date", "datetime", "future_date", "past_date", "time", "airline", "airport_code", "code",
                    "title", "tag", "price", "amount", "percentage"})
_TASK_TEXT = frozenset({"content", "text", "task", "todo", "task_name", "task_content", "summary"})
_TASK_HINTS = frozenset({"word", "words", "sentence", "paragraph", "title", "job_title", "description", "chat_message"})
_POSITIONS = frozenset({"position", "player_position", "playing_position", "primary_position"})
_PLAYERS = frozenset({"player", "players", "athlete", "squad", "roster", "lineup", "footballer", "batter", "pitcher"})
_HOLIDAY_FIELDS = {"name": "holiday_name", "local_name": "holiday_name", "holiday_name": "holiday_name",
                   "date": "holiday_date", "observed": "holiday_date", "holiday_date": "holiday_date"}
_QUOTE_ROLES = {
    "o": "price_open", "open": "price_open", "open_price": "price_open", "regular_market_open": "price_open",
    "h": "price_high", "high": "price_high", "day_high": "price_high", "high_price": "price_high",
    "high_24h": "price_high", "regular_market_day_high": "price_high",
    "l": "price_low", "low": "price_low", "day_low": "price_low", "low_price": "price_low", "low_24h": "price_low",
    "regular_market_day_low": "price_low",
    "pc": "previous_close", "previous_close": "previous_close", "prev_close": "previous_close",
    "regular_market_previous_close": "previous_close",
    "c": "price", "close": "price", "price": "price", "current_price": "price", "last": "price",
    "last_price": "price", "latest_price": "price", "regular_market_price": "price", "rate": "price",
    # the two sides of the book, a spread apart about the last price (shape_kinds)
    "bid": "price_bid", "bid_price": "price_bid", "best_bid": "price_bid",
    "ask": "price_ask", "ask_price": "price_ask", "best_ask": "price_ask",
}


def _part_kind(low: str, entity: str, parent: str, hint: str | None) -> str | None:
    """The name of a record's part: a person's for a creator, a song's for a release's track."""
    if low in ("name", "display_name", "full_name") and set(snake(parent).split("_")) & PERSON_ENTITIES:
        return "name"  # the creator's name is a person's, whatever the record's own name is
    if low in ("title", "name") and hint is None:
        return part_title_kind(entity, parent)  # a release's tracks are songs, not albums
    return None


def _fixed_kind(low: str, entity: str, parent: str, hint: str | None) -> str | None:
    """A kind the record's entity fixes whatever the hint (a holiday's date, a budget's accounts, a photo's title)."""
    if (role := role_kind(low, entity, parent, hint)) is not None:  # an IP's network, an article's outlet
        return role
    if hint is not None and (narrowed := _NARROWED.get((hint, title_kind(entity)))) is not None:
        return narrowed  # a broad hint narrowed to the record: a beer is no iced tea
    if low in ("constructor", "constructor_name"):  # a Formula One constructor, whatever the tool calls its teams
        return "racing_team"
    if low in _POSITIONS and set(snake(entity).split("_")) & _PLAYERS and hint in (None, "job_title", "title"):
        return "playing_position"  # a player's position is on the pitch, not in an org chart
    if (budget := budget_kind(low, entity, hint)) is not None:  # "Joint Checking", "Groceries"
        return budget
    if "holiday" in snake(entity).split("_") and low in _HOLIDAY_FIELDS:
        return _HOLIDAY_FIELDS[low]
    if low in _TASK_TEXT and title_kind(entity) == "task_title" and (hint is None or hint in _TASK_HINTS):
        return "task_title"  # a to-do's content is the thing to do ("Send invoice to Acme"), not a chat line
    return None


def resolve_kind(field: str, entity: str, parent: str, hints: Mapping[str, str]) -> str | None:
    """The kind a field is drawn as: its hint, unless generic, else its name's kind."""
    hint = hints.get(field)
    low = snake(field)
    county = county_field_kind(low, snake(entity))
    if county is not None:
        return county
    fixed = _fixed_kind(low, entity, parent, hint)
    if fixed is not None:
        return fixed
    if set(snake(entity).split("_")) & _QUOTE_ENTITY_WORDS and low in _QUOTE_ROLES and hint in (None, "price", "amount"):
        return _QUOTE_ROLES[low]
    part = _part_kind(low, entity, parent, hint)
    if part is not None:
        return part
    named = kind_for(field, entity, parent)
    if named is not None and geo_kind(low, snake(entity), snake(parent)) == named and overrides_hint(hint):
        return named  # "cca3" is an alpha-3 code, whatever broader hint a profile gives
    if named is not None and (hint is None or hint in OVERRIDABLE_HINTS) and id_format_kind(low, snake(entity)) == named:
        return named  # "sha256" is a hex digest, whatever broad hint a profile gives
    if hint in GENERIC_HINTS:
        return named or GENERIC_HINTS[hint]
    if named in _SPECIFIC and hint in _BROAD:  # the name says more than an older, broad hint
        return named
    return trip_end_kind(low, hint) or hint or named  # a trip's two ends are two airports

