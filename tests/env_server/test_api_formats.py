"""Values in the shape the real API writes them, and sample arguments a real user would send."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import anyio
from mcp import Client
from vininfo import Vin

from env_server import ToolEnvironment
from env_server.catalog import Catalog
from env_server.config import ServerSettings
from env_server.simulators.domain_kinds import DOMAIN_KINDS, FORMATS
from env_server.specs.format_checks import format_hits
from env_server.specs.samples import sample_arguments
from state import Database
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)
from tests.servers import running_server

E164 = re.compile(r"^\+[1-9]\d{6,14}$")


def test_sample_arguments_use_the_example_a_description_gives(catalog: Catalog):
    assert sample_arguments(catalog.tools["navitia_get_departures"])["coverage"] == "fr-idf"
    assert sample_arguments(catalog.tools["flightaware_get_flight_status"])["ident"] == "UAL4"
    assert sample_arguments(catalog.tools["cuttly_get_stats"])["stats"] == "https://cutt.ly/abc123"


def test_sample_arguments_draw_the_kind_a_description_names(catalog: Catalog):
    assert E164.match(sample_arguments(catalog.tools["twilio_send_message"])["To"])
    assert E164.match(sample_arguments(catalog.tools["vonage_start_verification"])["number"])
    vin = sample_arguments(catalog.tools["nhtsa_decode_vin"])["vin"]
    assert len(vin) == 17 and Vin(vin).verify_checksum()
    assert re.match(r"^[0-9a-f]{6}$", sample_arguments(catalog.tools["opensky_get_track"])["icao24"])


def test_phone_numbers_are_e164_in_the_records_country(env: ToolEnvironment):
    messages = call(env, "twilio_list_messages")["messages"]
    assert messages and all(E164.match(m["to"]) and E164.match(m["from"]) for m in messages)
    assert all(m["sid"].startswith("SM") for m in messages)


def test_short_links_live_on_the_shorteners_short_host(env: ToolEnvironment):
    made = call(env, "tinyurl_create_url", url="https://example.org/a/long/page", alias="spring-sale")
    assert made["tiny_url"] == "https://tinyurl.com/spring-sale" and made["domain"] == "tinyurl.com"
    cut = call(env, "cuttly_shorten_url", short="https://example.org/a/long/page")
    assert urlparse(cut["shortLink"]).netloc == "cutt.ly" and cut["status"] == 7
    links = call(env, "kutt_list_links")["data"]
    assert links and all(link["link"] == f"https://kutt.it/{link['address']}" for link in links)
    branded = call(env, "short_io_create_link", domain="go.acme.co", originalURL="https://example.org/x")
    assert branded["shortURL"] == f"https://go.acme.co/{branded['path']}"


def test_listed_rows_keep_ids_in_the_apis_format(env: ToolEnvironment):
    history = call(env, "slack_get_conversation_history", channel="C0123ABCDEF")["messages"]
    assert history and all(re.match(r"^\d{10}\.\d{6}$", m["ts"]) and m["user"].startswith("U") for m in history)
    channels = call(env, "slack_list_conversations")["channels"]
    assert channels and all(re.match(r"^C[A-Z0-9]{10}$", c["id"]) for c in channels)


def test_every_format_kind_has_a_shape_its_draws_match():
    import datetime as dt

    from env_server.simulators.generate import Generation
    from env_server.simulators.values import draw_kind

    for kind in sorted(FORMATS):
        assert kind in DOMAIN_KINDS
        for seed in range(20):
            value = draw_kind(kind, Generation(seed=seed, today=dt.date(2026, 1, 15), args={}))
            assert FORMATS[kind].match(value), (kind, value)


def test_the_format_check_flags_ids_minted_in_another_shape(catalog: Catalog):
    spec = catalog.tools["slack_get_conversation_history"]
    result = {"ok": True, "messages": [{"ts": "mess_23a1936e2c", "user": "mess_9df58537e7", "text": "hi"}]}
    assert [path for path, _ in format_hits(spec, result, frozenset())] == ["$.messages[0].ts", "$.messages[0].user"]
    phones = {"messages": [{"sid": "SM" + "0" * 32, "to": "(491)299-2771x91231", "from": "+14155550100"}]}
    assert [p for p, _ in format_hits(catalog.tools["twilio_list_messages"], phones, frozenset())] == ["$.messages[0].to"]


def test_a_slack_message_posted_over_mcp_answers_with_a_real_ts(catalog: Catalog):
    env = ToolEnvironment(catalog, Database(), ServerSettings())

    async def main() -> dict[str, Any]:
        with running_server(env) as url:
            async with Client(f"{url}/mcp") as client:
                result = await client.call_tool("slack_post_message", {"channel": "C0123ABCDEF", "text": "Deploy done"})
                assert not result.is_error
                return result.structured_content or {}

    posted = anyio.run(main)
    assert re.match(r"^\d{10}\.\d{6}$", posted["ts"]) and posted["channel"] == "C0123ABCDEF"
