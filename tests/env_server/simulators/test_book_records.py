"""A catalogue's works, editions and authors agree (``simulators/book_records.py``)."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.simulators.book_records import isbn10_check, isbn13_check
from tests.env_server.free_play import call, env  # noqa: F401  (fixtures)


def _valid13(isbn: str) -> bool:
    return len(isbn) == 13 and isbn.isdigit() and isbn13_check(isbn[:12]) == isbn[12]


def test_an_edition_read_by_isbn_shows_that_isbn_in_both_forms(env: ToolEnvironment):
    edition = call(env, "open_library_get_edition_by_isbn", isbn="9780140328721")
    assert edition["isbn_13"] == ["9780140328721"]
    assert edition["isbn_10"] == ["0140328726"] and isbn10_check("014032872") == "6"
    assert edition["publishers"] and len(edition["publishers"]) == 1
    assert 96 <= edition["number_of_pages"] <= 800
    assert edition["physical_format"] in ("Paperback", "Hardcover", "Mass Market Paperback", "ebook")
    assert edition["works"][0].startswith("/works/OL") and edition["works"][0].endswith("W")


def test_an_isbn_asked_as_ten_digits_is_the_same_edition_as_its_thirteen(env: ToolEnvironment):
    long = call(env, "open_library_get_edition_by_isbn", isbn="9780306406157")
    short = call(env, "open_library_get_edition_by_isbn", isbn="0306406152")
    assert _valid13(short["isbn_13"][0]) and short["isbn_13"] == long["isbn_13"]
    facts = ("title", "publishers", "publish_date", "number_of_pages", "physical_format", "works")
    assert {k: long[k] for k in facts} == {k: short[k] for k in facts}


def test_a_search_by_author_lists_works_by_that_author(env: ToolEnvironment):
    docs = call(env, "open_library_search_books", author="tolkien")["docs"]
    assert docs and all(d["author_name"] and "Tolkien" in d["author_name"][0] for d in docs)
    assert len({d["author_name"][0] for d in docs}) == 1
    docs = call(env, "open_library_search_books", author="Ursula K. Le Guin")["docs"]
    assert all(d["author_name"] == ["Ursula K. Le Guin"] for d in docs)


def test_a_search_by_title_shows_the_title_in_title_case_and_few_editions(env: ToolEnvironment):
    docs = call(env, "open_library_search_books", title="dune")["docs"]
    assert docs and all("Dune" in d["title"] for d in docs)
    assert all(1 <= d["edition_count"] <= 80 and len(d["author_name"]) <= 2 for d in docs)


def test_an_author_record_names_itself_and_dies_after_its_birth(env: ToolEnvironment):
    author = call(env, "open_library_get_author", author_id="OL23919A")
    assert author["personal_name"] == author["name"]
    assert author["wikipedia"].endswith(author["name"].replace(" ", "_"))
    if "death_date" in author:
        assert author["death_date"][:4] > author["birth_date"][:4]


def test_an_authors_works_keep_keys_of_their_own(env: ToolEnvironment):
    call(env, "open_library_get_author", author_id="OL26320A")
    works = call(env, "open_library_list_author_works", author_id="OL26320A", limit=4)["entries"]
    keys = [w["key"] for w in works]
    assert len(works) >= 2 and "OL26320A" not in keys and len(set(keys)) == len(keys)
