"""A record's fields say what the record is (sweep H): search terms only in prose, a text's
language is the language it is written in, phone numbers that can exist and lookups of the
number asked, SMS parts that follow the body."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import phonenumbers
import pytest

from env_server import ToolEnvironment
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.simulators.parcel_facts import carrier_of, eta_days
from env_server.simulators.phone_facts import national_pool, sms_segments
from env_server.simulators.records import default_facts
from env_server.specs.audit_checks import vocabulary_texts
from env_server.specs.record_checks import record_hits
from state import Database
from tests.env_server.free_play import call, catalog, env, ok, session  # noqa: F401  (fixtures)

_MENTIONS = default_facts().vocab.get("term_mention").values


def _mentions(text: str, term: str) -> bool:
    return any(frame.replace("{term}", term).lower() in text.lower() for frame in _MENTIONS)


# -- the search term shows in prose and titles, never in a name or an address ----------------


@pytest.mark.parametrize(("tool", "args", "fields"), [
    ("pexels_search_photos", {"query": "ocean"}, ("photographer",)),
    ("open_brewery_db_search_breweries", {"query": "astrophotography"}, ("address_1", "name", "city")),
    ("untappd_search_beers", {"q": "Pliny the Elder"}, ("beer_name", "brewery_name")),
    ("phone_specs_search_phones", {"query": "galaxy s23"}, ("phone_name", "brand")),
    ("meetup_search_events", {"query": "python", "lat": 52.52, "lon": 13.405}, ("group_name",)),
])
def test_a_search_hit_never_carries_a_sentence_about_the_term_in_a_name_or_address(
        env: ToolEnvironment, tool: str, args: dict[str, Any], fields: tuple[str, ...]):
    rows = next(v for v in call(env, tool, **args).values() if isinstance(v, list))
    term = next(iter(args.values()))
    for row in rows:
        for field in fields:
            assert not _mentions(str(row.get(field, "")), term), (field, row[field])


def test_a_search_hit_with_a_description_mentions_the_term_there(env: ToolEnvironment):
    rows = call(env, "digikey_keyword_search", Keywords="STM32F103")["Products"]
    assert rows and all("stm32f103" in row["Description"].lower() for row in rows)


# -- a record's language is its text's ---------------------------------------------------------


def test_quotes_and_posts_in_english_say_english(env: ToolEnvironment):
    quotes = call(env, "theysaidso_list_private_quotes")["quotes"]
    assert quotes and {q["language"] for q in quotes} == {"en"}
    assert call(env, "mastodon_post_status", status="Shipping the new release today")["language"] == "en"


def test_a_language_the_call_names_is_echoed_and_a_language_list_keeps_its_languages(env: ToolEnvironment):
    assert call(env, "theysaidso_add_quote", quote="Un petit pas.", author="Anon", language="fr")["language"] == "fr"
    languages = call(env, "calendarific_list_languages")["languages"]
    assert len({lang["code"] for lang in languages}) == len(languages) > 1


def test_imported_quotes_in_english_say_english(wtb_catalog: Catalog):
    env = ToolEnvironment(wtb_catalog, Database(), ServerSettings())
    env.create_session(tools=["getQuotesByAnime", "getRandomQuote__4"], session_id="q", seed=3)
    rows = env.call_tool("q", "getQuotesByAnime", {"title": "Naruto"}).result["results"]
    assert rows and {r["language"] for r in rows} == {"en"}
    assert env.call_tool("q", "getRandomQuote__4", {}).result["language"] == "en"


# -- phone numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize("region", ["US", "CN", "GB", "DE", "BR", "IN", "NG", "JM"])
def test_every_drawn_number_of_a_country_is_valid_there(region: str):
    pool = national_pool(region)
    code = phonenumbers.country_code_for_region(region)
    assert len(pool) >= 8
    for national in pool:
        number = phonenumbers.parse(f"+{code}{national}")
        assert phonenumbers.is_valid_number_for_region(number, region), national


def test_stores_and_breweries_list_numbers_that_exist(env: ToolEnvironment):
    stores = call(env, "bestbuy_find_stores", postal_code="55423")["stores"]
    breweries = call(env, "open_brewery_db_list_breweries")
    rows = stores + (breweries if isinstance(breweries, list) else next(iter(breweries.values())))
    numbers = [r.get("phone") for r in rows if isinstance(r.get("phone"), str) and r["phone"].startswith("+")]
    assert numbers and all(phonenumbers.is_valid_number(phonenumbers.parse(n)) for n in numbers)


def test_a_twilio_lookup_describes_the_number_asked(env: ToolEnvironment):
    got = call(env, "twilio_lookup_phone_number", phone_number="+4915123456789")
    assert (got["country_code"], got["calling_country_code"]) == ("DE", "49")
    assert got["national_format"] == "01512 3456789" and got["valid"] is True and got["validation_errors"] == []
    assert got["line_type_intelligence"]["type"] == "mobile"
    assert got["line_type_intelligence"]["carrier_name"] == "T-Mobile"


def test_a_vonage_insight_names_the_country_and_prefix_of_the_number(env: ToolEnvironment):
    got = call(env, "vonage_get_number_insight", number="447400123456")
    assert (got["country_code"], got["country_name"], got["country_prefix"]) == ("GB", "United Kingdom", "44")
    assert got["national_format_number"] == "07400 123456" and got["valid_number"] == "valid"


def test_an_imported_line_type_check_reads_the_number_sent(wtb_catalog: Catalog):
    env = ToolEnvironment(wtb_catalog, Database(), ServerSettings())
    env.create_session(tools=["checkPhoneLineType"], session_id="p", seed=3)
    got = env.call_tool("p", "checkPhoneLineType", {"phone_number": "+81312345678"}).result
    assert (got["country_code"], got["country"], got["location"], got["line_type"]) == ("JP", "Japan", "Tokyo", "landline")
    assert all(re.sub(r"\D", "", str(v)).endswith("312345678") for k, v in got.items() if "format" in k)


def test_an_sms_counts_its_parts_from_its_body(env: ToolEnvironment):
    short = call(env, "twilio_send_message", To="+14155550100", Body="Table for 2 at 7pm is confirmed.")
    long = call(env, "twilio_send_message", To="+14155550100", Body="x" * 200)
    assert (short["num_segments"], long["num_segments"]) == (1, 2)
    assert (sms_segments("é" * 70), sms_segments("ж" * 71), sms_segments("a" * 306), sms_segments("a" * 307)) == (
        1, 2, 2, 3)


# -- the audit holds the line ------------------------------------------------------------------


def test_the_record_audit_names_each_kind_of_break(catalog: Catalog):
    vocabulary = vocabulary_texts(default_facts().vocab)
    quote = default_facts().vocab.get("quote").values[0] if "quote" in default_facts().vocab.kinds else next(
        iter(vocabulary))
    result = {"photos": [{"photographer": "Gail Whitaker. It also covers ocean.", "description": "Sea"}],
              "quote": {"quote": quote, "language": "ja"},
              "store": {"phone": "+86878319513"},
              "sms": {"body": "Hi", "num_segments": 3}}
    hits = record_hits(catalog.tools["pexels_search_photos"], {"query": "ocean"}, result, vocabulary)
    paths = {path for path, _ in hits}
    assert paths == {"$.photos[0].photographer", "$.quote.language", "$.store.phone", "$.sms.num_segments"}
    lookup = {"country_code": "MX", "national_format": "+52350012343", "calling_country_code": "52"}
    hits = record_hits(catalog.tools["twilio_lookup_phone_number"], {"phone_number": "+13125550000"}, lookup,
                       vocabulary)
    assert {path for path, _ in hits} == {"$.country_code", "$.national_format", "$.calling_country_code"}


# -- public holidays ---------------------------------------------------------------------------


def test_calendarific_holidays_are_national_days_described_as_themselves(env: ToolEnvironment):
    days = call(env, "calendarific_get_holidays", country="US", year=2026)["holidays"]
    assert days and {d["primary_type"] for d in days} == {"National holiday"}
    assert all(d["type"] == ["National holiday"] and d["locations"] == "All" for d in days)
    assert all(d["name"] in d["description"] and "the United States" in d["description"] for d in days)


def test_nager_holidays_are_nationwide_with_local_names_and_true_fixed_flags(env: ToolEnvironment):
    days = {d["name"]: d for d in call(env, "nager_date_get_public_holidays", year=2026, countryCode="DE")["holidays"]}
    new_year, good_friday = days["New Year's Day"], days["Good Friday"]
    assert (new_year["localName"], new_year["fixed"], good_friday["localName"], good_friday["fixed"]) == (
        "Neujahr", True, "Karfreitag", False)
    assert all(d["global"] is True and d["counties"] == [] and d["types"] == ["Public"] for d in days.values())
    assert all("launchYear" not in d for d in days.values())


def test_the_holiday_audit_names_a_county_holiday_a_moved_fixed_day_and_a_workshop(catalog: Catalog):
    record = {"date": "2026-01-01", "name": "New Year's Day", "countryCode": "DE", "fixed": False, "global": False,
              "counties": ["DE-BY"], "launchYear": 2027, "description": "A pasta-making workshop."}
    hits = record_hits(catalog.tools["nager_date_get_public_holidays"], {"year": 2026, "countryCode": "DE"},
                       {"holidays": [record]}, frozenset())
    assert {path for path, _ in hits} == {"$.holidays[0].launchYear", "$.holidays[0].global",
                                          "$.holidays[0].description", "$.holidays[0].fixed"}


# -- parcels -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("number", "slug", "name"), [
    ("1Z999AA10123456784", "ups", "UPS"), ("9400111899223197428490", "usps", "USPS"),
    ("123456789012", "fedex", "FedEx"), ("RR123456785GB", "royal-mail", "RoyalMail"),
    ("EE123456789CN", "china-ems", "ChinaEMS"),
])
def test_a_tracking_number_names_its_carrier(number: str, slug: str, name: str):
    assert carrier_of(number) == (slug, name)


def test_tracked_parcels_name_the_carrier_of_their_number_and_a_fitting_delivery_day(env: ToolEnvironment):
    rows = call(env, "aftership_list_trackings")["trackings"]
    created = call(env, "aftership_create_tracking", tracking_number="RR123456785GB")
    assert created["slug"] == "royal-mail"
    today = env.settings.today
    for row in rows:
        assert carrier_of(row["tracking_number"])[0] == row["slug"]
        low, high = eta_days(row["tag"])
        assert low <= (dt.date.fromisoformat(row["expected_delivery"]) - today).days <= high
    trackers = call(env, "easypost_list_trackers")["trackers"]
    assert all(carrier_of(t["tracking_code"])[1] == t["carrier"] for t in trackers)


def test_the_parcel_audit_names_a_wrong_carrier_and_a_delivered_parcel_due_next_month(catalog: Catalog):
    row = {"tracking_number": "9400120295124783977359", "slug": "china-ems", "tag": "Delivered",
           "expected_delivery": "2026-02-14"}
    hits = record_hits(catalog.tools["aftership_list_trackings"], {}, {"trackings": [row]}, frozenset(),
                       dt.date(2026, 1, 15))
    assert {path for path, _ in hits} == {"$.trackings[0].slug", "$.trackings[0].expected_delivery"}


# -- photographs -------------------------------------------------------------------------------


def test_stock_photos_are_captioned_with_what_they_show_not_museum_titles(env: ToolEnvironment):
    artworks = set(default_facts().vocab.get("artwork_title").values)
    captions = set(default_facts().vocab.get("photo_caption").values)
    photos = call(env, "pexels_get_curated_photos")["photos"]
    assert photos and all(p["alt"] in captions and p["alt"] not in artworks for p in photos)
    uploaded = call(env, "imgur_upload_image", image="https://example.com/a.jpg")
    assert uploaded["title"] in captions


def test_a_photo_search_retells_captions_around_the_term(env: ToolEnvironment):
    rows = call(env, "unsplash_search_photos", query="mountain lake")["results"]
    assert rows and all("lake" in f"{r['description']} {r['alt_description']}".lower() for r in rows)
    assert any(r["description"].startswith("Mountain lake") for r in rows)
    assert not any(_mentions(r["description"], "mountain lake") for r in rows)


def test_the_photo_audit_names_a_museum_title_on_a_photo(catalog: Catalog):
    title = default_facts().vocab.get("artwork_title").values[0]
    hits = record_hits(catalog.tools["pexels_search_photos"], {}, {"photos": [{"alt": title}]}, frozenset())
    assert [path for path, _ in hits] == ["$.photos[0].alt"]


# -- events ------------------------------------------------------------------------------------


def _local(value: str, zone: str) -> dt.datetime:
    from zoneinfo import ZoneInfo

    return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(ZoneInfo(zone))


def test_shows_in_chicago_start_in_the_chicago_evening_on_the_listed_utc_day(env: ToolEnvironment):
    shows = call(env, "ticketmaster_search_shows", city="Chicago", start_date="2026-02-01", end_date="2026-02-28")["shows"]
    assert shows
    for show in shows:
        local = _local(show["date"], "America/Chicago")
        assert 18 <= local.hour <= 21, show["date"]
        assert "2026-02-01" <= show["date"][:10] <= "2026-02-28"


def test_calendar_events_are_held_in_working_hours_of_their_zone_and_end_the_same_day(env: ToolEnvironment):
    items = call(env, "google_calendar_list_events")["items"]
    assert items
    for item in items:
        start, end = _local(item["start"], item["timeZone"]), _local(item["end"], item["timeZone"])
        assert 8 <= start.hour <= 17 and dt.timedelta(minutes=30) <= end - start <= dt.timedelta(minutes=90), item


def test_a_reminder_fires_before_its_event(env: ToolEnvironment):
    rows = call(env, "outlook_calendar_list_reminders", startDateTime="2026-01-01T00:00:00Z",
                endDateTime="2026-03-31T00:00:00Z")["value"]
    assert rows and all(r["reminderFireTime"] < r["eventStartTime"] for r in rows)


def test_an_imported_show_starts_in_the_evening(wtb_catalog: Catalog):
    env = ToolEnvironment(wtb_catalog, Database(), ServerSettings())
    env.create_session(tools=["getCityShow"], session_id="e", seed=3)
    rows = env.call_tool("e", "getCityShow", {"city": "Detroit", "startDate": "2026-02-01",
                                              "endDate": "2026-02-10"}).result["results"]
    assert rows and all("18:00" <= r["start_time"] <= "21:30" for r in rows)


def test_the_event_audit_names_a_dawn_concert_and_a_three_day_meeting(catalog: Catalog):
    show = {"show_id": "s1", "city": "Chicago", "date": "2026-02-01T12:00:00Z"}
    hits = record_hits(catalog.tools["ticketmaster_search_shows"], {}, {"shows": [show]}, frozenset())
    assert [path for path, _ in hits] == ["$.shows[0].date"]
    meeting = {"start": "2026-02-01T15:00:00Z", "end": "2026-02-04T16:00:00Z", "timeZone": "Europe/London"}
    hits = record_hits(catalog.tools["google_calendar_list_events"], {}, {"items": [meeting]}, frozenset())
    assert [path for path, _ in hits] == ["$.items[0].end"]


# -- jobs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("tool", "args", "rows", "url"), [
    ("adzuna_search_jobs", {"country": "gb", "what": "data engineer"}, "results", "redirect_url"),
    ("themuse_list_jobs", {"page": 0}, "results", "landing_page"),
    ("greenhouse_list_board_jobs", {"board_token": "acme"}, "jobs", "absolute_url"),
])
def test_a_job_page_url_names_the_job_it_lists(env: ToolEnvironment, tool: str, args: dict[str, Any], rows: str,
                                              url: str):
    from env_server.simulators.draws import slugify

    found = call(env, tool, **args)[rows]
    assert found
    for row in found:
        title = row.get("title") or row.get("name")
        assert row[url].rstrip("/").endswith(slugify(title)), (title, row[url])


# -- beers -------------------------------------------------------------------------------------


def test_beers_are_named_and_described_as_beers(env: ToolEnvironment):
    names = set(default_facts().vocab.get("beer_name").values)
    texts = set(default_facts().vocab.get("beer_description").values)
    beer = call(env, "untappd_get_beer_info", bid=325)
    assert beer["beer_name"] in names and beer["beer_description"] in texts
    brewery = beer["brewery"]["brewery_name"]
    assert brewery.endswith(("Brewing", "Brewery", "Brewhouse", "Ale House", "Beer Works", "Ales", "Co.", "Company")) or \
        brewery in set(default_facts().vocab.get("brewery_name").values)
    rows = call(env, "untappd_list_wishlist_items", username="anthonysellers")["beers"]
    assert rows and all(r["beer_name"] in names for r in rows)


def test_the_beer_audit_names_a_beer_called_cold_brew(catalog: Catalog):
    drink = default_facts().vocab.get("drink_name").values[2]
    hits = record_hits(catalog.tools["untappd_get_beer_info"], {}, {"beer_name": drink}, frozenset())
    assert [path for path, _ in hits] == ["$.beer_name"]


# -- prices and their currency -----------------------------------------------------------------


def test_a_shop_price_is_written_in_its_currency_or_its_currency_is_the_dollar(env: ToolEnvironment):
    table = default_facts().market_table.fx_per_usd
    rows = call(env, "woocommerce_list_orders")["orders"] + call(env, "etsy_find_active_listings")["results"]
    rows += call(env, "mercadolibre_search_items", site_id="MLC")["results"]
    assert rows
    for row in rows:
        code = row.get("currency") or row.get("currency_code") or row.get("currency_id")
        money = row.get("total") or row.get("price")
        assert code in table
        assert money / table[code] > 1.0, row  # at least a dollar's worth, in any currency


def test_the_money_audit_names_dollar_prices_labelled_dong(catalog: Catalog):
    hits = record_hits(catalog.tools["etsy_find_active_listings"], {},
                       {"results": [{"price": 42.35, "currency_code": "VND"}]}, frozenset())
    assert [path for path, _ in hits] == ["$.results[0].currency_code"]


# -- related entities keep their ids -----------------------------------------------------------


def test_models_of_one_make_share_the_make_id_across_calls(env: ToolEnvironment):
    first = call(env, "nhtsa_get_models_for_make_year", make="honda")["Results"]
    again = call(env, "nhtsa_get_models_for_make_year", make="Honda", modelyear=2015)["Results"]
    assert len({(r["Make_Name"], r["Make_ID"]) for r in first + again}) == 1


def test_the_shared_id_audit_names_one_make_with_three_ids(catalog: Catalog):
    rows = [{"Make_ID": i, "Make_Name": "Honda", "Model_ID": 10 + i, "Model_Name": m} for i, m in enumerate("ABC")]
    hits = record_hits(catalog.tools["nhtsa_get_models_for_make_year"], {"make": "honda"}, {"Results": rows},
                       frozenset())
    assert [path for path, _ in hits] == ["$.Results"]


# -- recipes list each ingredient once ---------------------------------------------------------


def test_a_cocktail_lists_each_ingredient_once_and_not_as_itself(catalog: Catalog):
    env = session(catalog, "thecocktaildb_get_cocktail")
    for drink_id in ("11007", "11000", "17222"):
        drink = ok(env, "thecocktaildb_get_cocktail", i=drink_id)
        names = [part["ingredient"] for part in drink["ingredients"]]
        assert len(set(names)) == len(names), names


def test_the_recipe_audit_names_an_ingredient_listed_twice(catalog: Catalog):
    record = {"strDrink": "Sea Breeze", "ingredients": [{"ingredient": "Vodka"}, {"ingredient": "vodka"}]}
    hits = record_hits(catalog.tools["thecocktaildb_get_cocktail"], {"i": "1"}, record, frozenset())
    assert [path for path, _ in hits] == ["$.ingredients"]


# -- ranges named in words ---------------------------------------------------------------------


def test_a_budget_minimum_is_at_most_its_maximum_and_a_lowest_price_at_most_the_average(env: ToolEnvironment):
    from env_server.simulators.numeric import stat_violations

    projects = call(env, "freelancer_search_active_projects")["projects"]
    events = call(env, "seatgeek_search_events")["events"]
    assert projects and events
    assert all(p["budget_minimum"] <= p["budget_maximum"] for p in projects)
    assert all(e["lowest_price"] <= e["average_price"] for e in events)
    assert stat_violations({"budget_minimum": 134.85, "budget_maximum": 45.51}) == [
        "budget_minimum=134.85 is above budget_maximum=45.51"]
    assert stat_violations({"lowest_price": 207.27, "average_price": 45.03})
