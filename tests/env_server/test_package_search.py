"""A registry search finds packages about the term searched, and a CDN library names its file."""

from __future__ import annotations

import pytest

from env_server import ToolEnvironment
from env_server.simulators.package_names import name_for
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_PATTERNS = default_facts().vocab.get("package_name_pattern").values


@pytest.mark.parametrize(("tool", "args", "rows"), [
    ("cdnjs_search_libraries", {"search": "chart"}, "results"),
    ("npm_registry_search_packages", {"text": "chart"}, "objects"),
])
def test_a_registry_search_finds_packages_named_and_described_after_the_term(
        env: ToolEnvironment, tool: str, args: dict[str, str], rows: str):
    found = call(env, tool, **args)[rows]
    assert found
    for row in found:
        name = row.get("name") or row["package"]["name"]
        assert "chart" in name and "chart" in row["description"].lower(), row
        assert "Leans on" not in row["description"] and "Gives a nod" not in row["description"]
    assert len({row.get("name") for row in found}) == len(found)
    assert len({row["description"] for row in found}) == len(found)


def test_a_cdnjs_library_s_latest_is_its_file_at_its_version(env: ToolEnvironment):
    for row in call(env, "cdnjs_search_libraries", search="chart")["results"]:
        assert row["latest"].startswith(f"https://cdnjs.cloudflare.com/ajax/libs/{row['name']}/{row['version']}/")
        assert row["latest"].endswith(".js")


def test_reading_a_package_describes_that_package(env: ToolEnvironment):
    library = call(env, "cdnjs_get_library", library="jquery")
    assert "jquery" in library["description"].lower() and library["filename"] == "jquery.min.js"
    assert "chart" in call(env, "npm_registry_get_package", package="chart.js")["description"].lower()


def test_the_names_of_one_search_differ_and_the_first_is_the_term_itself():
    names = [name_for("chart", i, _PATTERNS) for i in range(30)]
    assert names[0] in ("chart", "chart.js", "chartjs") and len(set(names)) == len(names)
