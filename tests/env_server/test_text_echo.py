"""Text-analysis answers are about the caller's text; sample arguments are what a caller sends."""

from __future__ import annotations

import json
import re
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from env_server import ToolEnvironment
from env_server.catalog import Catalog
from env_server.simulators.records import default_facts
from env_server.specs.audit_echo import echo_hits
from env_server.specs.samples import sample_arguments
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)
from tests.servers import running_server

POS_TEXT = "The store closes at eight tonight."


def test_tagged_words_and_entities_are_words_of_the_input(env: ToolEnvironment):
    tagged = call(env, "cloudmersive_tag_parts_of_speech", input_text=POS_TEXT)["words"]
    assert [w["word"] for w in tagged] == POS_TEXT.rstrip(".").split()[: len(tagged)]
    for entity in call(env, "nlp_cloud_extract_entities", text=POS_TEXT)["entities"]:
        assert POS_TEXT[entity["start"]:entity["end"]] == entity["text"]
        assert entity["text"].lower() not in ("the", "at")  # content words, not function words


def test_sentences_are_split_from_the_input_with_their_offsets(env: ToolEnvironment):
    text = "Meet me at noon. Bring the map! Is the car ready?"
    split = call(env, "cloudmersive_segment_sentences", input_string=text)
    assert split == {"sentence_count": 3, "sentences": ["Meet me at noon.", "Bring the map!", "Is the car ready?"]}
    for sentence in call(env, "googlenl_analyze_sentiment", content=text)["sentences"]:
        assert text[sentence["begin_offset"]:].startswith(sentence["text"])


def test_translation_renders_a_phrasebook_sentence_in_the_target_language(env: ToolEnvironment):
    out = call(env, "libretranslate_translate", q="Where is the nearest train station?", target="de")
    assert out["translated_text"] == "Wo ist der nächste Bahnhof?"
    assert out["detected_language"]["language"] == "en"
    assert 60 <= out["detected_language"]["confidence"] <= 100
    back = call(env, "tisane_transform_text", content="Wo ist der nächste Bahnhof?", to="fr", **{"from": "de"})
    assert back["text"] == "Où est la gare la plus proche ?"


def test_detection_names_the_language_the_text_is_written_in(env: ToolEnvironment):
    found = call(env, "libretranslate_detect_language", q="Le repas était délicieux.")["detections"]
    assert [d["language"] for d in found] == ["fr"]


def test_echo_audit_flags_words_that_are_not_in_the_input(catalog: Catalog):
    spec = catalog.tools["cloudmersive_tag_parts_of_speech"]
    vocab = default_facts().vocab
    made_up = {"words": [{"word": "magnificent", "tag": "JJ"}]}
    assert echo_hits(spec, {"input_text": POS_TEXT}, made_up, vocab)
    assert not echo_hits(spec, {"input_text": POS_TEXT}, {"words": [{"word": "store", "tag": "NN"}]}, vocab)
    translate = catalog.tools["libretranslate_translate"]
    wrong = {"translated_text": "Dinner at 7?"}
    assert echo_hits(translate, {"q": "How much does this cost?", "target": "es"}, wrong, vocab)


@pytest.mark.parametrize("tool", ["cloudmersive_tag_parts_of_speech", "googlenl_analyze_syntax",
                                  "googlenl_analyze_entities", "nlp_cloud_extract_entities",
                                  "cloudmersive_check_spelling", "tisane_parse_text", "watsonnlu_analyze_text",
                                  "cloudmersive_rephrase_text", "libretranslate_translate"])
def test_sampled_text_analysis_calls_answer_about_their_text(env: ToolEnvironment, catalog: Catalog, tool: str):
    spec = catalog.tools[tool]
    args = sample_arguments(spec, 0)
    result = call(env, tool, **args)
    assert echo_hits(spec, args, result, default_facts().vocab) == []


def test_sample_arguments_read_parameter_descriptions(catalog: Catalog):
    def sampled(tool: str, param: str, variant: int = 1) -> Any:
        return sample_arguments(catalog.tools[tool], variant)[param]

    assert sampled("libretranslate_translate", "target") in ("es", "fr", "de", "it", "pt")
    assert re.fullmatch(r"-?\d+(\.\d+)?,-?\d+(\.\d+)?", sampled("google_maps_reverse_geocode", "latlng"))
    lon, lat = map(float, sampled("mapbox_forward_geocode", "proximity").split(","))  # 'longitude,latitude'
    assert -180 <= lon <= 180 and -90 <= lat <= 90
    assert re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", sampled("postcodes_io_lookup_postcode", "postcode"))
    assert re.fullmatch(r"[A-Z]{2}", sampled("geonames_get_country_info", "country"))
    assert re.fullmatch(r"tt\d{7}", sampled("omdb_get_by_imdb_id", "i"))
    assert re.fullmatch(r"[a-z]+\.[a-z]+\.[a-z]+", sampled("what3words_convert_to_coordinates", "words"))
    assert 1 <= sampled("omdb_get_season", "Season") <= 8
    assert sampled("ipgeolocation_parse_user_agent", "user_agent").startswith("Mozilla/5.0")
    pairs = sampled("openrouteservice_get_matrix", "locations")
    assert all(-180 <= lon <= 180 and -90 <= lat <= 90 for lon, lat in pairs)
    assert " " in sampled("nlp_cloud_summarize_text", "text", 0)  # a sentence, not a tag


def test_open_vision_models_agree_with_their_framework_and_dataset(env: ToolEnvironment):
    known = {r["name"]: r for r in default_facts().vocab.get("vision_model").records}
    for model in call(env, "openvisionapi_list_models")["models"]:
        fact = known[model["name"]]
        assert (model["framework"], model["dataset"], model["classes"]) == (
            fact["framework"], fact["dataset"], fact["classes"])


def test_translation_over_mcp_answers_in_the_target_language(env: ToolEnvironment):
    with running_server(env) as base:
        path = httpx.post(f"{base}/v1/sessions", json={"tools": ["libretranslate_translate"]}).json()["mcp_path"]

        async def drive() -> Any:
            async with Client(f"{base}{path}") as client:
                return await client.call_tool("libretranslate_translate",
                                              {"q": "Thank you very much for your help.", "target": "it"})

        result = anyio.run(drive)
    assert not result.is_error
    payload = result.structured_content or json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert payload["translated_text"] == "Grazie mille per il tuo aiuto."
