"""Steps that finish one generated record of a known shape, chosen once per object schema.

``plans`` asks ``steps_for(name, entity, props)`` when it compiles an object and runs the
steps on each record it builds, before the record's invariants: a per-100 g nutrient table
(``nutrition``), a Bible verse and a translation (``scripture``), a VAT number's company and
a VAT rate table (``tax_facts``), a coin's profile (``coin_facts``), a product's own
description (``product_facts``), a bar of a price series (``candles``), an air-quality reading
(``air_quality``), a weather report's condition codes, icons, cloud cover and UV (``weather_conditions``),
a surah, an ayah or a Qur'an edition (``quran``), a weather alert (``alert_kinds``), a ZIP's
counties (``us_zips``), a METAR's raw text (``metar``), running totals (``cumulative``), a poem's
first-line title (``poems``), models that agree and tides about mean sea level (``marine_kinds``), an hour of a
smooth sea state (``sea_state``),
the language of a record's own text (``text_language``), a phone lookup of the number sent
(``phone_facts``), what kind of day a public holiday is (``holiday_facts``), a parcel's carrier and delivery estimate (``parcel_facts``), the hours an event is held at
(``event_hours``), an event's status that agrees with its date (``event_outcome``), a packaged food's
brand, categories and ingredients (``food_products``), a drink's recipe (``cocktails``), a
catalogue's work, edition and author that agree (``book_records``), prices in
the record's currency (``money_facts``), a related entity's id that
follows its name (``foreign_ids``), a performer's type and the name it takes (``performer_facts``),
a fact about the number asked (``number_facts``), a taxon's rank and
authorship (``taxon_facts``), a UK postcode's place (``uk_postcodes``), an issue's or a pull request's state, text and page
(``tracker_facts``), a shelter animal's breed of its species (``pet_facts``), a three-word address
(``w3w_facts``), a registry's packages about the term searched (``package_names``), a museum
object whose department, medium, culture and date agree (``artwork_facts``), a dictionary record of the word asked
(``lexicon_answers``) and Datamuse-style word lists (``lexicon_lists``), from WordNet, a route that follows the
call's waypoints (``route_facts``), a message's body and preview about its subject
(``email_bodies``), a Hebcal list of holidays, parashot and candle times (``hebcal_facts``), a league table whose
results add up and whose rows stand in points order (``standings``), an economic series whose units and frequency
agree with its title (``economic_series``), an official statistic whose unit, magnitude, year and publisher
follow its indicator (``indicator_facts``), a census variable as the survey's dictionary words it
(``census_variables``), a code run's output and empty error streams (``code_runs``), a stock
exchange whose name, seat and zone are its MIC's (``code_facts``),
and domain notices composed from their record's own facts (``notice_compose``): a transit
alert naming its line and stops (``transit_notices``), a drug label's sections for its drug
(``drug_labels``), a vehicle recall's texts for its component and a drug recall's product
(``recall_notices``), a patent's title, abstract and claims about one invention
(``patent_texts``), a registry filing's description for its type code (``filing_texts``),
a park alert naming a real park (``park_alerts``), and a Federal Register document cited by its
publication date with its agency's RINs (``fr_documents``), and a classifier's labels scored once each
as a distribution that follows the text (``scored_labels``), and an earthquake drawn as a whole, its
place named from the nearest real town, in a feed ordered and titled as asked (``quake_facts``), and
social accounts whose handles are made from the record's own name (``social_links``), and a comic
titled as an issue of its series (``comic_issues``), and a collectible card whose stats follow its cost and whose text fits its type (``card_stats``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators import (
    air_quality,
    alert_kinds,
    artwork_facts,
    book_records,
    candles,
    card_stats,
    census_variables,
    cocktails,
    code_facts,
    code_runs,
    coin_facts,
    comic_issues,
    cumulative,
    drug_labels,
    economic_series,
    email_bodies,
    event_hours,
    event_outcome,
    filing_texts,
    food_products,
    foreign_ids,
    fr_documents,
    hebcal_dates,
    hebcal_facts,
    holiday_facts,
    indicator_facts,
    isochrone_facts,
    lexicon_answers,
    lexicon_lists,
    marine_kinds,
    matrix_facts,
    metar,
    money_facts,
    news_story,
    number_facts,
    nutrition,
    osm_tags,
    package_names,
    parcel_facts,
    park_alerts,
    patent_texts,
    performer_facts,
    pet_facts,
    phone_facts,
    poems,
    product_facts,
    quake_facts,
    quran,
    recall_notices,
    route_facts,
    scored_labels,
    scripture,
    sea_state,
    social_links,
    standings,
    tax_facts,
    taxon_facts,
    text_language,
    tracker_facts,
    transit_notices,
    uk_postcodes,
    us_zips,
    w3w_facts,
    weather_conditions,
)

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]


def steps_for(name: str, entity: str, props: Mapping[str, Any]) -> tuple[Step, ...]:
    found: list[Step | None] = [scripture.verse_step(entity, props), scripture.passage_step(entity, props),
                                scripture.translation_step(entity, props), tax_facts.vat_number_step(entity, props),
                                tax_facts.vat_rate_step(entity, props), tax_facts.vat_price_step(entity, props),
                                coin_facts.coin_step(entity, props), coin_facts.coin_row_step(entity, props),
                                product_facts.product_step(entity, props), candles.candle_step(entity, props),
                                air_quality.air_step(name, entity, props),
                                weather_conditions.weather_step(name, entity, props),
                                quran.surah_step(entity, props), quran.ayah_step(entity, props),
                                quran.edition_step(entity, props), alert_kinds.alert_step(name, entity, props),
                                us_zips.county_rows_step(entity, props), metar.metar_step(entity, props),
                                cumulative.cumulative_step(entity, props), poems.first_line_step(entity, props),
                                marine_kinds.sources_step(entity, props), marine_kinds.tide_step(entity, props),
                                sea_state.sea_state_step(name, entity, props),
                                text_language.language_step(entity, props), phone_facts.lookup_step(name, entity, props),
                                phone_facts.segments_step(props), holiday_facts.holiday_step(entity, props),
                                parcel_facts.parcel_step(entity, props), event_hours.event_step(entity, props),
                                money_facts.money_step(entity, props), foreign_ids.foreign_id_step(entity, props),
                                performer_facts.performer_step(entity, props),
                                number_facts.fact_step(entity, props), taxon_facts.taxon_step(entity, props),
                                uk_postcodes.postcode_step(entity, props),
                                tracker_facts.tracker_step(entity, props), pet_facts.pet_step(entity, props),
                                w3w_facts.w3w_step(entity, props),
                                package_names.package_step(entity, props),
                                artwork_facts.artwork_step(entity, props),
                                lexicon_answers.lexicon_step(name, entity, props),
                                lexicon_lists.word_list_step(entity, props), route_facts.route_step(entity, props), route_facts.paths_step(props),
                                matrix_facts.matrix_step(props), isochrone_facts.isochrone_step(props),
                                osm_tags.osm_step(props),
                                email_bodies.email_step(entity, props),
                                hebcal_facts.calendar_step(props), standings.standings_step(entity, props),
                                economic_series.series_step(entity, props),
                                census_variables.variable_step(entity, props),
                                code_facts.exchange_step(name, entity, props),
                                transit_notices.transit_step(name, entity, props),
                                drug_labels.label_step(name, entity, props),
                                recall_notices.recall_step(name, entity, props),
                                patent_texts.patent_step(name, entity, props),
                                filing_texts.filing_step(name, entity, props),
                                park_alerts.park_alert_step(name, entity, props),
                                hebcal_dates.convert_step(props),
                                hebcal_dates.zmanim_step(props),
                                news_story.section_step(entity, props), fr_documents.fr_step(entity, props),
                                scored_labels.scored_list_step(props),
                                indicator_facts.indicator_step(entity, props),
                                event_outcome.outcome_step(props), food_products.food_product_step(props),
                                quake_facts.quake_step(entity, props), quake_facts.quake_list_step(props),
                                social_links.social_step(props), comic_issues.comic_step(entity, props),
                                cocktails.cocktail_step(entity, props), book_records.book_step(entity, props),
                                card_stats.card_step(props),
                                code_runs.run_step(entity, props)]
    per_100g = nutrition.per_100g(name, entity, props)
    if per_100g is not None:
        found.append(lambda record, gen, index: per_100g(record, gen))
    return tuple(step for step in found if step is not None)
