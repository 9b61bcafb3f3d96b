"""Whole providers whose content a person who knows the API believes: food tables that add up,
slugs that spell names, a release's songs, Unix times, search hits that mention the term
in words, Bible passages that are the reference asked."""

from __future__ import annotations

import datetime as dt
import itertools

from env_server.catalog import Catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.content_rules import FileType, Nutrients, SlugSpells, StatusRollup, energy_of, slug_of
from env_server.simulators.records import default_facts
from env_server.simulators.scripture import TRANSLATIONS, parse_reference
from env_server.specs.content_checks import (
    candle_series_hits,
    coin_figure_hits,
    content_hits,
    epoch_hits,
    nutrient_hits,
    product_hits,
    repeated_title_hits,
    upc_a_check,
)
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_NEW_TESTAMENT = {"MAT", "MRK", "LUK", "JHN", "ACT", "ROM", "1CO", "2CO", "GAL", "EPH", "PHP", "COL", "1TH", "2TH",
                  "1TI", "2TI", "TIT", "PHM", "HEB", "JAS", "1PE", "2PE", "1JN", "2JN", "3JN", "JUD", "REV"}


def test_a_fruit_per_100_g_is_mostly_water_and_its_energy_follows_its_macros(env: ToolEnvironment):
    fruits = call(env, "fruityvice_list_fruits")["fruits"]
    assert fruits
    for fruit in fruits:
        n = fruit["nutritions"]
        assert n["protein"] + n["fat"] + n["carbohydrates"] <= 30, fruit
        assert n["fat"] < 1 and n["sugar"] <= n["carbohydrates"], fruit
        assert abs(n["calories"] - energy_of(n["protein"], n["fat"], n["carbohydrates"])) <= 1, fruit


def test_a_food_parser_gives_per_100_g_macros_that_fit_in_100_g(env: ToolEnvironment):
    for hint in call(env, "edamam_parse_food", ingr="chicken")["hints"]:
        n = hint["nutrients"]
        assert n["PROCNT"] + n["FAT"] + n["CHOCDF"] <= 100, hint
        assert abs(n["ENERC_KCAL"] - energy_of(n["PROCNT"], n["FAT"], n["CHOCDF"])) <= 1, hint


def test_a_recipe_hit_counts_the_calories_of_its_nutrient_table(env: ToolEnvironment):
    hits = call(env, "edamam_search_recipes", q="chicken curry")["hits"]
    assert hits and all(h["calories"] == h["totalNutrients"]["ENERC_KCAL"] for h in hits)


def test_an_author_read_by_slug_is_named_by_it_and_quotes_carry_their_authors_slug(env: ToolEnvironment):
    assert call(env, "quotable_get_author", slug="maya-angelou")["name"] == "Maya Angelou"
    quotes = call(env, "quotable_get_random_quote", limit=5)["quotes"]
    assert quotes and all(q["author_slug"] == slug_of(q["author"]) for q in quotes)


def test_a_release_lists_songs_of_its_own_not_its_title_again(env: ToolEnvironment):
    release = call(env, "musicbrainz_lookup_release", mbid="5b952be6-81f9-4f9a-a3a0-bb09f8b7e491")
    titles = [t["title"] for t in release["tracks"]]
    assert len(titles) >= 2 and release["title"] not in titles and len(set(titles)) == len(titles)


def test_a_season_is_titled_like_a_series_not_by_the_id_asked(env: ToolEnvironment):
    season = call(env, "omdb_get_season", i="tt4177772", Season=2)
    assert season["Title"] != "tt4177772"
    assert all(e["Title"] not in (season["Title"], "tt4177772") for e in season["Episodes"])


def test_a_video_created_time_is_a_unix_time_before_now(env: ToolEnvironment):
    videos = call(env, "dailymotion_search_videos", search="sunset")["list"]
    assert videos and all(1_000_000_000 < v["created_time"] < 2_000_000_000 for v in videos)


def test_a_search_hit_mentions_the_term_in_a_sentence_rather_than_a_pasted_label(env: ToolEnvironment,
                                                                                  catalog: Catalog):
    for tool, args in (("newsapi_search_everything", {"q": "camping gear"}),
                       ("musicbrainz_search_recordings", {"query": "science"}),
                       ("quotable_search_quotes", {"query": "festivals"})):
        result = call(env, tool, **args)
        assert content_hits(catalog.tools[tool], args, result) == [], tool
        text = str(result).lower()
        assert args.get("q", args.get("query", "")).lower() in text


def test_a_passage_is_the_reference_asked_with_its_verses_joined(env: ToolEnvironment):
    one = call(env, "bible_api_get_passage", reference="John 3:16")
    assert [(v["book_id"], v["book_name"], v["chapter"], v["verse"]) for v in one["verses"]] == [("JHN", "John", 3, 16)]
    assert one["text"] == one["verses"][0]["text"]
    assert (one["translation_id"], one["translation_name"]) == ("web", "World English Bible")
    three = call(env, "bible_api_get_passage", reference="rom 12:1-3", translation="kjv")
    assert [(v["book_id"], v["chapter"], v["verse"]) for v in three["verses"]] == [("ROM", 12, n) for n in (1, 2, 3)]
    assert three["text"] == " ".join(v["text"] for v in three["verses"])
    assert three["translation_name"] == "King James Version"


def test_a_verse_reads_the_same_in_every_call(env: ToolEnvironment):
    verse = call(env, "bible_api_get_passage", reference="Genesis 1:1")["verses"][0]["text"]
    chapter = call(env, "bible_api_get_chapter", translation="web", book_id="GEN", chapter=1)["verses"]
    assert chapter[0]["verse"] == 1 and chapter[0]["text"] == verse
    assert [v["verse"] for v in chapter] == list(range(1, len(chapter) + 1))
    assert {(v["book_id"], v["book_name"], v["chapter"]) for v in chapter} == {("GEN", "Genesis", 1)}


def test_a_random_verse_comes_from_the_testament_asked_and_a_chapter_its_book_has(env: ToolEnvironment):
    for n in range(6):
        verse = call(env, "bible_api_get_random_verse", books="NT", translation=["web", "kjv", "ylt"][n % 3])
        assert verse["random_verse"]["book_id"] in _NEW_TESTAMENT


def test_translations_are_named_as_their_ids_say(env: ToolEnvironment):
    for row in call(env, "bible_api_list_translations")["translations"]:
        name, language, code = TRANSLATIONS[row["identifier"]]
        assert (row["name"], row["language_code"]) == (name, code)


def test_references_parse_by_name_id_prefix_and_abbreviation():
    books = default_facts().vocab.get("bible_book").records
    assert parse_reference("jn 3:16-18", books)[0]["book_id"] == "JHN"  # type: ignore[index]
    assert parse_reference("1 Corinthians 13:4", books)[1:] == (13, 4, 4)  # type: ignore[index]
    assert parse_reference("PSA 23", books)[0]["name"] == "Psalms"  # type: ignore[index]
    assert parse_reference("Narnia 2:1", books) is None


def test_the_content_rules_repair_and_report_what_they_bind():
    rule = Nutrients()
    record = {"calories": 500.0, "protein": 1.0, "fat": 0.5, "carbohydrates": 10.0, "sugar": 30.0}
    assert rule.violation(record, {}) is not None
    rule.enforce(record, {})
    assert rule.violation(record, {}) is None and record["sugar"] <= record["carbohydrates"]
    slug = SlugSpells("author_slug", ("author",))
    quote = {"author": "Ada Lovelace", "author_slug": "northgate-quote"}
    assert slug.violation(quote, {}) is not None
    slug.enforce(quote, {})
    assert quote["author_slug"] == "ada-lovelace"


def test_the_content_checks_flag_what_a_reader_would_not_believe():
    assert nutrient_hits("$", {"nutritions": {"protein": 9.0, "fat": 39.0, "carbohydrates": 79.0}})
    assert epoch_hits("$", {"created_time": 412})
    assert not epoch_hits("$", {"created_time": 1_760_000_000, "duration": 412})
    assert repeated_title_hits("$", {"title": "Blue", "tracks": [{"title": "Blue"}, {"title": "Blue"}]})


def test_a_vat_number_places_its_company_in_the_member_state_it_names(env: ToolEnvironment):
    for number, code, country in (("NL810462783B01", "NL", "Netherlands"), ("PT501964843", "PT", "Portugal"),
                                  ("EL094014201", "GR", "Greece")):
        found = call(env, "vatcomply_validate_vat_number", vat_number=number)
        assert found["country_code"] == code and found["address"].endswith(country), found


def test_a_vat_table_lists_member_states_at_their_real_rates(env: ToolEnvironment):
    rows = call(env, "vatcomply_list_vat_rates")["countries"]
    assert len({r["country_code"] for r in rows}) == len(rows)
    rates = {r["country_code"]: r for r in default_facts().vocab.get("eu_vat_rate").records}
    for row in rows:
        fact = rates[row["country_code"]]
        assert (row["country_name"], row["standard_rate"], row["currency"]) == (
            fact["country_name"], fact["standard_rate"], fact["currency"])
    assert call(env, "vatcomply_list_vat_rates", country_code="DE")["countries"][0]["standard_rate"] == 19.0


def test_labels_come_from_the_records_own_trade(env: ToolEnvironment):
    vocab = default_facts().vocab
    industries = set(vocab.get("industry").values)
    for company in call(env, "themuse_list_companies", page=1)["results"]:
        assert set(company["industries"]) <= industries
    ntee = set(vocab.get("charity_category").values)
    charities = call(env, "charitysearch_search_charities", searchTerm="shelter")["data"]
    assert charities and all(c["category"] in ntee for c in charities)
    senses = call(env, "oxford_get_thesaurus", word="recent")["senses"]
    assert all(s["register"] in vocab.get("word_register").values for s in senses)
    assert all(set(s["domains"]) <= set(vocab.get("subject_domain").values) for s in senses)
    card = call(env, "yugioh_get_random_card")
    assert card["archetype"] in vocab.get("yugioh_archetype").values and card["race"] in vocab.get("yugioh_race").values


def test_a_coins_figures_agree_across_tools_and_keep_their_proportions(env: ToolEnvironment):
    listed = {c["symbol"]: c for c in call(env, "coinmarketcap_list_latest_listings", limit=20)["data"]}
    quotes = {q["symbol"]: q for q in call(env, "coinmarketcap_get_quotes_latest", symbol=["BTC", "ETH"])["quotes"]}
    for symbol, rank in (("BTC", 1), ("ETH", 2)):
        quote = quotes[symbol]
        assert abs(quote["percent_change_24h"]) <= 25 and quote["volume_24h"] > 1e8, quote
        assert quote["fully_diluted_market_cap"] >= quote["market_cap"], quote
        if symbol in listed:
            assert listed[symbol]["cmc_rank"] == rank
            assert listed[symbol]["percent_change_24h"] == quote["percent_change_24h"]
    assert all(abs(c["percent_change_1h"]) <= 5 for c in listed.values())


def test_a_coin_profile_is_the_coins_own(env: ToolEnvironment):
    sol = call(env, "coingecko_get_coin", id="solana")
    assert (sol["homepage"], sol["genesis_date"]) == ("https://solana.com", "2020-03-16")
    assert sol["description"].startswith("Solana (SOL) is ")
    link = call(env, "coinmarketcap_get_metadata", symbol="LINK")
    assert link["website"] == "https://chain.link" and "oracles" in link["tags"]


def test_the_coin_checks_flag_moves_and_ranks_no_market_shows():
    assert coin_figure_hits("$", {"symbol": "ETH", "percent_change_24h": 54.6})
    assert coin_figure_hits("$", {"symbol": "ETH", "cmc_rank": 9812})
    assert not coin_figure_hits("$", {"symbol": "ETH", "cmc_rank": 2, "percent_change_24h": 1.9})


def test_a_product_is_described_as_itself_with_a_valid_upc(env: ToolEnvironment):
    for sku in (6505727, 6418599, 6535118):
        product = call(env, "bestbuy_get_product", sku=sku)
        assert product_hits("$", product, "product") == [], product
        assert len(product["upc"]) == 12 and product["upc"][11] == upc_a_check(product["upc"][:11])
        assert product["modelNumber"] != slug_of(product["name"])


def test_the_product_check_flags_a_description_of_something_else():
    shorts = {"name": "Compression Calf Sleeves, Pair", "longDescription": "Quick-drying shorts with a mesh lining.",
              "upc": "L56HD15S"}
    assert product_hits("$", shorts, "product")
    assert product_hits("$", {"upc": "906742350247"}, "product")  # check digit 6, not 7


def test_intraday_candles_lie_one_interval_apart_and_chain_open_to_close(env: ToolEnvironment):
    values = call(env, "twelvedata_get_time_series", symbol="AAPL", interval="30min", outputsize=5)["values"]
    moments = sorted(dt.datetime.fromisoformat(v["datetime"].replace("Z", "+00:00")) for v in values)
    assert len(moments) >= 3 and {b - a for a, b in itertools.pairwise(moments)} == {dt.timedelta(minutes=30)}
    assert moments[-1] <= dt.datetime(2026, 1, 15, 9, tzinfo=dt.UTC)  # nothing after the session's now
    bars = sorted(values, key=lambda v: v["datetime"])
    assert all(b["open"] == a["close"] for a, b in itertools.pairwise(bars))
    assert all(v["low"] <= min(v["open"], v["close"]) <= max(v["open"], v["close"]) <= v["high"] for v in bars)
    assert len({v["close"] for v in bars}) > 1 and all(v["volume"] > 1000 for v in bars)


def test_daily_bars_of_several_tickers_price_each_ticker_and_adjust_to_the_close(env: ToolEnvironment):
    rows = call(env, "marketstack_get_eod", symbols=["AAPL", "MSFT"], limit=6)["data"]
    closes = {r["symbol"]: r["close"] for r in rows}
    assert {"AAPL", "MSFT"} <= closes.keys() and abs(closes["MSFT"] / closes["AAPL"] - 1) > 0.2
    assert all(r["adj_close"] == r["close"] and r["volume"] > 100_000 and r["date"][:10] <= "2026-01-15" for r in rows)
    assert all(r["low"] < r["high"] for r in rows)  # a trading day moves


def test_the_candle_check_flags_flat_series_and_bars_a_day_apart_for_an_intraday_interval():
    flat = {"values": [{"datetime": f"2026-01-{d}T12:00:00Z", "open": 199.74, "close": 199.74} for d in (15, 16, 17)]}
    found = candle_series_hits({"interval": "30min"}, flat)
    assert any("same open" in h[1] for h in found) and any("apart" in h[1] for h in found)


def test_a_status_page_indicator_is_its_worst_component(env: ToolEnvironment):
    page = call(env, "digitalocean_status_get_summary")
    rollup = StatusRollup()
    assert rollup.violation(page, {}) is None, page
    down = {"indicator": "none", "description": "All Systems Operational",
            "components": [{"status": "operational"}, {"status": "partial_outage"}]}
    rollup.enforce(down, {})
    assert (down["indicator"], down["description"]) == ("major", "Partial System Outage")


def test_a_users_rarer_badges_count_fewer(env: ToolEnvironment):
    for user_id in (586418, 22656, 1144035):
        badges = call(env, "stackexchange_get_user", user_id=user_id, site="stackoverflow")["badge_counts"]
        assert badges["gold"] <= badges["silver"] <= badges["bronze"], badges


def test_a_package_manifest_has_ranges_an_entry_point_and_an_integrity_digest(env: ToolEnvironment):
    manifest = call(env, "npm_registry_get_version", package="left-pad", version="1.3.0")
    assert manifest["main"].endswith((".js", ".cjs", ".mjs"))
    assert manifest["integrity"].startswith("sha512-") and manifest["engines_node"].startswith((">=", "^"))
    assert all(d["range"].lstrip("^~")[0].isdigit() for d in manifest["dependencies"])


def test_a_media_items_file_name_ends_in_its_mime_types_extension(env: ToolEnvironment):
    items = call(env, "google_photos_search_media_items", pageSize=5)["mediaItems"]
    assert items and all(FileType().violation(i, {}) is None for i in items), items
    assert any(i["mimeType"] == "image/jpeg" and i["filename"].endswith(".jpg") for i in items)
    assert FileType().violation({"filename": "notes.txt", "mimeType": "image/png"}, {}) is not None


def test_a_vat_price_applies_the_member_states_real_rate_to_the_amount_asked(env: ToolEnvironment):
    # Germany: 19% standard, 7% reduced (books); incl=True means the amount already holds the VAT.
    plain = call(env, "vatlayer_calculate_price", amount=2400, country_code="DE")
    assert (plain["country_name"], plain["vat_rate"], plain["type"]) == ("Germany", 19.0, "standard")
    assert (plain["price_excl_vat"], plain["price_incl_vat"]) == (2400.0, 2856.0)
    books = call(env, "vatlayer_calculate_price", amount=119, country_code="de", type="books", incl=True)
    assert (books["vat_rate"], books["price_incl_vat"], books["price_excl_vat"]) == (7.0, 119.0, 111.21)


def test_a_vat_rate_table_lists_reduced_rates_by_category_as_its_schema_says(env: ToolEnvironment):
    # Czechia: 21% standard, one reduced rate (12%) for every category; Austria: 10% and 13%.
    czech = call(env, "vatlayer_get_rate", country_code="CZ")
    assert czech["standard_rate"] == 21.0 and set(czech["reduced_rates"].values()) == {12.0}
    austria = call(env, "vatlayer_get_rate", country_code="AT")["reduced_rates"]
    assert austria["books"] == 10.0 and austria["hotels"] == 13.0


def test_holidays_of_a_year_outside_a_calendars_table_come_without_a_warning(env: ToolEnvironment):
    # The holidays package tables India's lunar holidays for 2001-2035 only and warns outside
    # them; the tests turn warnings into errors, so a warning here fails the call.
    assert call(env, "nager_date_get_public_holidays", year=1999, countryCode="IN") is not None
