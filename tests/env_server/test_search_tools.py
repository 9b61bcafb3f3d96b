"""``search_tools`` on natural needs: ranking, intent, stemming, synonyms, the category filter."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
from mcp import Client

from env_server.catalog import Catalog
from env_server.catalog.models import Operation
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.search import ToolSearchIndex
from env_server.search.intent import Intent, classify
from env_server.search.query import SYNONYM_WEIGHT
from env_server.search.stem import stem
from env_server.search.synonyms import build_related
from env_server.search.text import terms
from state import Database
from tests.servers import running_server

NEEDS = json.loads((Path(__file__).parent / "fixtures" / "search_needs.json").read_text())["needs"]

# The first 157 needs were written first; every third of them (positions 2, 5, 8, ...) was held
# out while tuning the ranking. The next 73 are a second batch, written later the same way. The
# needs marked "part": "held out" are a third batch, written for issue 18 before the ranking
# changes it asked for; their misses were never looked at while making them. The needs marked
# "part": "held out 2" are a fourth batch of 60, written for the second round of issue 18 before
# its changes and never used to decide one. The needs marked "part": "held out 3" are a fifth batch of
# 66, written for the third round before its changes and never used to decide one. The needs marked
# "part": "held out 4" are a sixth batch of 21 about named things (breeds, species, currencies, tickers,
# artists, teams, foods, countries), written for issue 18 item 5 before its changes were measured on them.
# Item 5 tuned on the even-positioned needs of the first 512 only; the odd-positioned ones were held out.
FIRST_BATCH = 157
EARLIER = [n for n in NEEDS if "part" not in n]
HELD_OUT = [n for n in NEEDS if n.get("part") == "held out"]
HELD_OUT_2 = [n for n in NEEDS if n.get("part") == "held out 2"]
HELD_OUT_3 = [n for n in NEEDS if n.get("part") == "held out 3"]
HELD_OUT_4 = [n for n in NEEDS if n.get("part") == "held out 4"]
FIRST_512 = NEEDS[:512]
PARTS = {
    "tuned on": [n for i, n in enumerate(EARLIER[:FIRST_BATCH]) if i % 3 != 2],
    "held out": [n for i, n in enumerate(EARLIER[:FIRST_BATCH]) if i % 3 == 2],
    "second batch": EARLIER[FIRST_BATCH:],
    "third batch, held out": HELD_OUT,
    "fourth batch, held out 2": HELD_OUT_2,
    "fifth batch, held out 3": HELD_OUT_3,
    "sixth batch, held out 4": HELD_OUT_4,
    "first 512, even (item 5 tuned on)": FIRST_512[0::2],
    "first 512, odd (item 5 held out)": FIRST_512[1::2],
}
# Issue 18 asks for top-5 >= 0.95 and top-1 >= 0.80 on the labelled set; the ranking does not
# reach it. Measured on all 386 needs: top-5 0.909, top-1 0.699 (before the issue-18 changes
# 0.865 and 0.666). On the third batch, held out: 0.814 and 0.615 (before: 0.776 and 0.590);
# on the earlier 230: 0.974 and 0.757 (before: 0.926 and 0.717; the lexical ranking before
# that had 0.874 and 0.557). With the fourth batch (held out 2) added, before any change of the
# second round: all 446 0.892 and 0.677, the fourth batch 0.783 and 0.533. The second round's
# catalog-learned bridges (pseudo-relevance feedback, PMI associations, a naive Bayes category
# prior) did not generalize and were not kept (README). With the fifth batch (held out 3) added,
# before any change of the third round: all 512 0.855 and 0.639, the fifth batch 0.606 and 0.379.
# Item 5 (what named things are, WordNet hypernyms, more synonyms, mixed-case names as one word):
# all 533 0.874 and 0.649 (before: 0.857 and 0.634); the first 512's even half, tuned on, 0.910 and
# 0.672 (before: 0.875 and 0.656); their odd half, held out, 0.832 and 0.617 (before: 0.836 and
# 0.621: no gain); the sixth batch 0.952 and 0.762 (before: 0.905 and 0.524). Issue 18's 0.95 and
# 0.80 are still not reached. These floors, on the whole set, keep the figures from sliding back.
TOP5_FLOOR, TOP1_FLOOR = 0.87, 0.64
# The sixth batch, about named things, as measured.
NAMED_TOP5_FLOOR, NAMED_TOP1_FLOOR = 0.95, 0.76


def _index(catalog: Catalog) -> ToolSearchIndex:
    return ToolSearchIndex(list(catalog.tools.values()))


def _rates(index: ToolSearchIndex, needs: list[dict]) -> tuple[float, float, list[tuple[str, list[str]]]]:
    """Top-1 and top-5 rates over ``needs``, and the needs with no suitable tool in the top five."""
    top1 = top5 = 0
    misses = []
    for need in needs:
        ranked = [h.name for h in index.search(need["need"], limit=5)]
        accept = set(need["accept"])
        top1 += bool(ranked) and ranked[0] in accept
        top5 += bool(accept & set(ranked))
        if not accept & set(ranked):
            misses.append((need["need"], ranked[:3]))
    return top1 / len(needs), top5 / len(needs), misses


def test_the_labelled_needs_span_every_category_and_name_real_tools(builtin_catalog: Catalog):
    assert len(EARLIER) == 230 and len(HELD_OUT) >= 80 and len(HELD_OUT_2) == 60 and len(HELD_OUT_3) == 66
    assert len(HELD_OUT_4) == 21
    assert len(EARLIER) + len(HELD_OUT) + len(HELD_OUT_2) + len(HELD_OUT_3) + len(HELD_OUT_4) == len(NEEDS)
    assert {s.category for s in builtin_catalog.tools.values()} <= {n["area"] for n in NEEDS}
    assert [a for n in NEEDS for a in n["accept"] if a not in builtin_catalog] == []
    assert len({n["need"].lower() for n in NEEDS}) == len(NEEDS)


def test_search_tools_puts_a_suitable_tool_in_the_top_five_for_natural_needs(builtin_catalog: Catalog):
    index = _index(builtin_catalog)
    for part, needs in PARTS.items():
        top1, top5, _ = _rates(index, needs)
        print(f"search_tools on {len(needs)} needs {part}: top-1 {top1:.1%}, top-5 {top5:.1%}")
    top1, top5, misses = _rates(index, NEEDS)
    print(f"search_tools on all {len(NEEDS)} natural needs: top-1 {top1:.1%}, top-5 {top5:.1%}")
    assert top5 >= TOP5_FLOOR, misses
    assert top1 >= TOP1_FLOOR
    named1, named5, named_misses = _rates(index, HELD_OUT_4)
    assert named5 >= NAMED_TOP5_FLOOR, named_misses
    assert named1 >= NAMED_TOP1_FLOOR


def test_a_provider_name_alone_does_not_win(builtin_catalog: Catalog):
    # "tomorrow" is in every tomorrow_io_* name; the astronomy tools say "sunrise".
    ranked = [h.name for h in _index(builtin_catalog).search("sunrise in Tokyo tomorrow", limit=3)]
    assert not [n for n in ranked if n.startswith("tomorrow_io_")], ranked
    assert "sunrise" in builtin_catalog.tools[ranked[0]].description.lower()


def test_a_request_ranks_its_verbs_operation_first_and_a_question_its_reads(builtin_catalog: Catalog):
    index = _index(builtin_catalog)
    ops = {name: spec.profile.operation for name, spec in builtin_catalog.tools.items()}
    booked = index.search("book a table tonight for four", limit=3)
    assert booked[0].name == "yelp_reservations_create_reservation"
    cancelled = index.search("cancel my restaurant reservation", limit=3)
    assert cancelled[0].name == "yelp_reservations_cancel_reservation"
    asked = index.search("what's on my calendar tomorrow?", limit=3)
    assert all(ops[h.name] in (Operation.READ, Operation.SEARCH, Operation.LIST) for h in asked)
    assert builtin_catalog.tools[asked[0].name].category == "Calendar"


def test_topic_words_beat_place_names_that_match_another_domain(builtin_catalog: Catalog):
    index = _index(builtin_catalog)
    jobs = index.search("job openings in London", limit=3)
    assert {builtin_catalog.tools[h.name].category for h in jobs} == {"Jobs"}
    bitcoin = index.search("current price of bitcoin in euros", limit=1)
    assert builtin_catalog.tools[bitcoin[0].name].category == "Cryptocurrency"


def test_intent_reads_the_leading_verb_after_lead_ins():
    assert classify("book a table tonight") == (Intent.REQUEST, Operation.CREATE)
    assert classify("Could you please cancel my hotel booking") == (Intent.REQUEST, Operation.DELETE)
    assert classify("can you book a table for two?") == (Intent.REQUEST, Operation.CREATE)
    assert classify("find books by Ursula K. Le Guin") == (Intent.QUESTION, Operation.SEARCH)
    assert classify("what's the population of Germany") == (Intent.QUESTION, None)
    assert classify("sunrise in Tokyo tomorrow") == (Intent.NEUTRAL, None)
    assert classify("sunrise in Tokyo tomorrow?") == (Intent.QUESTION, None)


def test_stemming_meets_inflections_and_keeps_distinct_words_apart():
    assert stem("booking") == stem("booked") == stem("books") == stem("book") == "book"
    assert stem("reservation") == stem("reserve") == stem("reserved")
    assert stem("forecasts") == stem("forecasting") == "forecast"
    assert stem("running") == "run" and stem("vacancies") == stem("vacancy")
    assert stem("news") != stem("new") and stem("relational") == "relat"
    # Hyphenated words count joined as well; numbers and function words do not count.
    assert "todo" in terms("create a to-do list") and terms("the 42 of it") == []


def test_synonyms_and_hints_expand_queries_one_way_or_both(builtin_catalog: Catalog):
    related = build_related([["weather", "forecast"], ["crypto", "coin"]], {"bitcoin": ["crypto"]})
    assert related[stem("weather")] == {stem("forecast")} and related[stem("forecast")] == {stem("weather")}
    assert related[stem("bitcoin")] == {stem("crypto"), stem("coin")}
    assert stem("bitcoin") not in related.get(stem("crypto"), set())
    weights = _index(builtin_catalog).query_weights("job vacancies")
    assert weights[stem("job")] == 1.0 and weights[stem("posting")] == SYNONYM_WEIGHT


def test_the_index_builds_and_answers_fast(builtin_catalog: Catalog):
    tools = list(builtin_catalog.tools.values())
    started = time.process_time()
    index = ToolSearchIndex(tools)
    build = time.process_time() - started
    started = time.process_time()
    for need in NEEDS:
        index.search(need["need"], limit=10)
    per_query = (time.process_time() - started) / len(NEEDS)
    print(f"search index: {len(tools)} tools built in {build * 1000:.0f} ms CPU; {per_query * 1000:.2f} ms CPU per query")
    assert build < 3.0 and per_query < 0.01


def test_search_tools_filters_by_category_and_names_the_known_ones_for_an_unknown_one(builtin_catalog: Catalog):
    env = ToolEnvironment(builtin_catalog, Database(), ServerSettings())

    async def drive(base: str) -> None:
        async with Client(f"{base}/mcp") as client:
            weather = await client.call_tool("search_tools", {"query": "forecast", "category": "weather", "limit": 8})
            assert not weather.is_error
            results = weather.structured_content["results"]
            assert len(results) == 8 and {r["category"] for r in results} == {"Weather"}
            unfiltered = await client.call_tool("search_tools", {"query": "forecast", "limit": 20})
            assert {r["category"] for r in unfiltered.structured_content["results"]} != {"Weather"}
            wrong = await client.call_tool("search_tools", {"query": "forecast", "category": "Wether"})
            assert wrong.is_error
            text = wrong.content[0].text
            assert "unknown category 'Wether'" in text and "Weather" in text and "Cryptocurrency" in text

    with running_server(env) as base:
        anyio.run(drive, base)
