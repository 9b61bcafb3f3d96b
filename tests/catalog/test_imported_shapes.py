"""Imported tools whose own output schemas hold fields the engine knows only by their shape
(candles, two-sided quotes, pages, pixel sizes, data sources, FAA facilities and routes,
verses) answer believable values; and the catalog-wide audit's fresh-list findings stay
fixed (a job application is no job; a station filter names a station the service has)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from env_server import ToolEnvironment
from env_server.catalog import Catalog, load_catalog
from env_server.catalog.infer import infer_profile
from env_server.catalog.shape_hints import listed_codes
from env_server.config import ServerSettings
from env_server.simulators.records import default_facts
from env_server.specs.audit_imported import imported_hits
from env_server.specs.audit_shapes import shape_hits
from env_server.specs.samples import sample_arguments
from state import Database
from state.store import Durability


def _string(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _number(description: str) -> dict[str, Any]:
    return {"type": "number", "description": description}


def _operation(op_id: str, description: str, response: dict[str, Any], **params: str) -> dict[str, Any]:
    return {"get": {
        "operationId": op_id, "description": description,
        "parameters": [{"name": k, "in": "query", "required": True, "description": d, "schema": {"type": "string"}}
                       for k, d in params.items()],
        "responses": {"200": {"content": {"application/json": {"schema": response}}}},
    }}


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


_FAA_FIELDS = {
    "type": _string("Type of facility (AIRPORT/HELIPORT)"), "facility_name": _string("Name of the facility"),
    "faa_ident": _string("FAA identifier"), "icao_ident": _string("ICAO identifier"),
    "district_office": _string("FSDO of jurisdiction"), "use": _string("Facility use, PU -> Public, PR -> Private"),
    "latitude": _string("Latitude of the facility"), "latitude_sec": _string("Latitude in seconds"),
    "longitude": _string("Longitude of the facility"), "longitude_sec": _string("Longitude in seconds"),
    "magnetic_variation": _string("Magnetic variation at the facility"),
    "vfr_sectional": _string("Name of the VFR sectional the facility lies on"),
    "boundary_artcc": _string("ARTCC that bounds the facility"),
    "boundary_artcc_name": _string("Name of the ARTCC that bounds the facility"),
    "control_tower": _string("Control tower present at the facility, Y -> Yes, N -> No"),
    "unicom": _string("Facility UNICOM frequency"), "ctaf": _string("Facility CTAF"),
}
_ROUTE_FIELDS = {
    "origin": _string("Originating airport of the route"), "route": _string("Preferred route"),
    "destination": _string("Destination airport of the route"), "hours1": _string("First group of active hours"),
    "type": _string("Type of route, H -> High, L -> low, LSD -> Low Single Direction"),
    "area": _string("Area description"), "aircraft": _string("Limitation on the type of aircraft"),
    "d_artcc": _string("Originating airport ARTCC"), "a_artcc": _string("Arrival airport ARTCC"),
}
PATHS = {
    "/history": _operation("getCandles", "Retrieve historical prices for a stock symbol.", {
        "type": "array", "items": _obj(date=_string("Day"), open=_number("Open"), high=_number("High"),
                                       low=_number("Low"), close=_number("Close"))}, symbol="Stock symbol"),
    "/quotes": _operation("getTwoSided", "Get quotes for a metal.", _obj(
        symbol=_string("Symbol"), bid=_number("Bid"), ask=_number("Ask")), symbols="Symbols"),
    "/reports": _operation("browseReports", "Browse abuse reports.", _obj(
        reports={"type": "array", "items": _obj(comment=_string("Comment"))},
        currentPage={"type": "integer"}, totalPages={"type": "integer"}), ip="IP address"),
    "/image": _operation("getPicture", "Get a picture.", _obj(
        url=_string("Link"), width=_string("Width of the picture"), height=_string("Height of the picture")),
        tag="Tag"),
    "/source": _operation("readDataSource", "Read a data source.", _obj(
        sourceName=_string("Name"), connectionString=_string("Connection string"), type=_string("Source type")),
        sourceId="Source id", type="Source type"),
    "/airport": _operation("getFacility", "Search for an airport by its ICAO or FAA identifier",
                           _obj(**_FAA_FIELDS), apt="FAA or ICAO facility identifier (KAVL or AVL)"),
    "/routes": _operation("getRoutes", "Get the preferred routes between two airports", _obj(**_ROUTE_FIELDS),
                          dest="Destination"),
    "/verses": _operation("getVerses", "Retrieve all verses from a chapter.", _obj(
        chapter={"type": "integer"}, verses={"type": "array", "items": _obj(verse=_string("The text of the verse"))}),
        book="Book"),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    doc = {"openapi": "3.0.0", "info": {"title": "Shapes"}, "paths": PATHS}
    path = tmp_path_factory.mktemp("alpaca") / "eval_shapes.json"
    path.write_text(json.dumps([{"Name": "Shapes", "Category": "Data", "Documentation": json.dumps(doc)}]),
                    encoding="utf-8")
    return load_catalog([path])


def _answer(catalog: Catalog, name: str, args: dict[str, Any] | None = None) -> tuple[dict[str, Any], Any]:
    env = ToolEnvironment(catalog, Database(), ServerSettings(seed=5, durability=Durability.EPHEMERAL))
    env.create_session(tools=sorted(catalog.tools), seed=5, session_id="s")
    sent = args if args is not None else sample_arguments(catalog.tools[name], 0)
    outcome = env.call_tool("s", name, sent)
    assert not outcome.is_error, outcome.message
    return sent, outcome.result


@pytest.mark.parametrize("name", sorted(p["get"]["operationId"] for p in PATHS.values()))
def test_shaped_fields_are_neither_filler_nor_inconsistent(catalog: Catalog, name: str):
    args, result = _answer(catalog, name)
    assert imported_hits(catalog.tools[name], args, result) == []
    assert shape_hits(result) == []


def test_a_candle_and_a_quote_hold_their_order(catalog: Catalog):
    for row in _answer(catalog, "getCandles")[1]["results"]:
        assert row["low"] <= min(row["open"], row["close"]) <= max(row["open"], row["close"]) <= row["high"]
    quote = _answer(catalog, "getTwoSided")[1]
    assert 0 < quote["bid"] < quote["ask"] < quote["bid"] * 1.01


def test_pages_pixels_and_data_sources_read_as_such(catalog: Catalog):
    pages = _answer(catalog, "browseReports")[1]
    assert 1 <= pages["currentPage"] <= pages["totalPages"]
    picture = _answer(catalog, "getPicture")[1]
    assert picture["width"].isdigit() and picture["height"].isdigit() and 200 <= int(picture["width"]) <= 5000
    source = _answer(catalog, "readDataSource", {"sourceId": "7", "type": "mysql"})[1]
    assert source["type"] == "mysql" and source["connectionString"].startswith("mysql://")


def test_an_faa_facility_reads_as_the_faa_prints_it(catalog: Catalog):
    args, facility = _answer(catalog, "getFacility")
    assert re.fullmatch(r"K[A-Z]{3}", args["apt"])  # a caller asks about a US airport
    assert facility["icao_ident"] == args["apt"] and facility["faa_ident"] == args["apt"][1:]
    assert facility["type"] in ("AIRPORT", "HELIPORT") and facility["use"] in ("PU", "PR")
    assert facility["control_tower"] in ("Y", "N")
    assert abs(float(facility["latitude_sec"][:-1]) / 3600 - float(facility["latitude"])) < 0.01
    assert facility["latitude_sec"].endswith("N") and facility["longitude_sec"].endswith("W")
    assert re.fullmatch(r"\d{2}[EW]", facility["magnetic_variation"])
    assert re.fullmatch(r"Z[A-Z]{2}", facility["boundary_artcc"]) and facility["boundary_artcc_name"].isupper()
    assert re.fullmatch(r"1[23]\d\.\d{3}", facility["unicom"]) and re.fullmatch(r"1[123]\d\.\d{3}", facility["ctaf"])


def test_a_preferred_route_is_fixes_and_airways(catalog: Catalog):
    route = _answer(catalog, "getRoutes")[1]
    assert re.fullmatch(r"[A-Z]{5}( [JQV]\d{1,3} [A-Z]{5})+( [A-Z]{5}\d)?", route["route"])
    assert re.fullmatch(r"\d{4}-\d{4}", route["hours1"]) and route["type"] in ("H", "L", "LSD")
    assert re.fullmatch(r"Z[A-Z]{2}", route["d_artcc"]) and re.fullmatch(r"Z[A-Z]{2}", route["a_artcc"])


def test_a_verse_is_scripture(catalog: Catalog):
    verses = _answer(catalog, "getVerses")[1]["verses"]
    known = set(default_facts().vocab.get("verse_text").values)
    assert verses and all(v["verse"] in known for v in verses)


def test_descriptions_that_list_codes_give_them_and_others_give_none():
    assert listed_codes("Facility use, PU -> Public, PR -> Private") == ["PU", "PR"]
    assert listed_codes("Type of facility (AIRPORT/HELIPORT)") == ["AIRPORT", "HELIPORT"]
    assert listed_codes("Traffic pattern altitude, Blank -> Standard") == []
    assert listed_codes("The date in YYYY-MM-DD format. Note: UTC.") == []


def test_the_shape_check_finds_a_broken_candle_quote_page_and_position():
    record = {"open": 10, "high": 9, "low": 8, "close": 9.5, "bid": 5, "ask": 4, "currentPage": 4, "totalPages": 2,
              "latitude": "47.6", "latitude_sec": "5000.0000N"}
    assert len(shape_hits({"results": [record]})) == 4


# -- the catalog-wide audit's fresh-list findings ---------------------------------------


def _wtb(tmp_path: Path, *tools: dict[str, Any]) -> Catalog:
    path = tmp_path / "tools.jsonl"
    path.write_text(json.dumps([{"type": "function", "function": t} for t in tools]) + "\n", encoding="utf-8")
    return load_catalog([path])


def _fn(name: str, description: str, required: list[str], **params: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": params, "required": required}}


def test_applying_for_a_job_writes_an_application_so_job_listings_stay_the_worlds(tmp_path: Path):
    assert infer_profile("applyForJob", "Apply for the specified job position.", {}).entity == "application"
    catalog = _wtb(tmp_path,
                   _fn("searchJobs", "Search for job listings in a location.", ["location"],
                       location=_string("Location where the job is located")),
                   _fn("applyForJob", "Apply for the specified job position.", ["job_id"],
                       job_id=_string("The unique identifier of the job.")))
    env = ToolEnvironment(catalog, Database(), ServerSettings(seed=3, durability=Durability.EPHEMERAL))
    assert not env.rules.owned("wildtoolbench", "job")
    env.create_session(tools=sorted(catalog.tools), seed=3, session_id="s")
    found = env.call_tool("s", "searchJobs", {"location": "Armenia, Colombia"})
    assert not found.is_error and found.result["results"]


def test_a_station_filter_names_a_real_place_so_a_fresh_search_finds_trains_between_them(tmp_path: Path):
    catalog = _wtb(tmp_path,
                   _fn("getTrainTickets", "Get the ticket situation of Dutch railway stations.",
                       ["starting_station", "destination_station"],
                       starting_station=_string("The name of the starting railway station."),
                       destination_station=_string("The name of the destination railway station.")),
                   _fn("bookTrainTickets", "Book Dutch train tickets.", ["train_id"], train_id=_string("Train.")))
    spec = catalog.tools["getTrainTickets"]
    station = spec.output_schema["properties"]["results"]["items"]["properties"]["destination_station"]
    assert "enum" not in station  # no placeholder stations ("Central Station") to pick from
    env = ToolEnvironment(catalog, Database(), ServerSettings(seed=3, durability=Durability.EPHEMERAL))
    env.create_session(tools=sorted(catalog.tools), seed=3, session_id="s")
    for args in (sample_arguments(spec, 0), {"starting_station": "Amsterdam", "destination_station": "Utrecht"}):
        found = env.call_tool("s", "getTrainTickets", args)
        assert not found.is_error and found.result["results"], args
        assert all(r["starting_station"] == args["starting_station"] for r in found.result["results"])
