"""An issue or a pull/merge request agrees with itself: its state, dates, text and page."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from env_server import ToolEnvironment
from env_server.simulators.tracker_facts import is_feature
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_REPO = {"owner": "octocat", "repo": "hello-world"}


def _moment(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _issues(env: ToolEnvironment) -> list[dict[str, Any]]:
    found = [call(env, "github_get_issue", **_REPO, issue_number=n) for n in range(1, 40)]
    return found + [row for state in ("open", "closed") for row in
                    call(env, "github_list_issues", **_REPO, state=state)["issues"]]


def test_an_open_issue_has_no_closing_date_and_a_closed_one_was_closed_after_it_was_opened(env: ToolEnvironment):
    issues = [call(env, "github_get_issue", **_REPO, issue_number=n) for n in range(1, 40)]
    assert {i["state"] for i in issues} == {"open", "closed"}
    for issue in issues:
        if issue["state"] == "open":
            assert issue.get("closed_at") is None and issue.get("state_reason") in (None, "reopened"), issue
        else:
            assert issue["state_reason"] in ("completed", "not_planned"), issue
            assert _moment(issue["created_at"]) < _moment(issue["closed_at"]), issue


def test_an_issue_page_is_on_the_repository_and_number_the_call_names(env: ToolEnvironment):
    issue = call(env, "github_get_issue", **_REPO, issue_number=42)
    assert issue["html_url"] == "https://github.com/octocat/hello-world/issues/42"
    for row in call(env, "github_list_issues", **_REPO, state="open")["issues"]:
        assert row["html_url"] == f"https://github.com/octocat/hello-world/issues/{row['number']}"


def test_an_issue_body_restates_its_title_as_a_bug_report_or_a_feature_request(env: ToolEnvironment):
    for n in range(1, 20):
        issue = call(env, "github_get_issue", **_REPO, issue_number=n)
        assert issue["title"].rstrip(".") in issue["body"], issue


def test_feature_titles_are_told_apart_from_bug_reports():
    assert is_feature("Add dark mode to settings page") and is_feature("Support exporting reports as CSV")
    assert not is_feature("Crash when uploading files larger than 2 GB")


def test_issue_comment_counts_have_a_repository_s_magnitude(env: ToolEnvironment):
    assert all(0 <= i["comments"] <= 40 for i in _issues(env) if "comments" in i)


def test_a_pull_request_is_merged_only_when_closed_and_never_as_a_draft(env: ToolEnvironment):
    rows = [r for state in ("open", "closed") for r in
            call(env, "github_list_pull_requests", **_REPO, state=state)["pull_requests"]]
    assert rows
    for row in rows:
        if row["state"] == "open":
            assert row.get("merged_at") is None, row
        if row.get("merged_at"):
            assert row["draft"] is False, row


@pytest.mark.parametrize("iid", [3, 5, 8])
def test_a_merge_request_links_to_its_project_page_and_describes_its_change(env: ToolEnvironment, iid: int):
    mr = call(env, "gitlab_get_merge_request", project_id="acme/api", merge_request_iid=iid)
    assert mr["web_url"] == f"https://gitlab.com/acme/api/-/merge_requests/{iid}"
    assert mr["title"].rstrip(".") in mr["description"]
    assert (mr.get("merged_at") is not None) == (mr["state"] == "merged"), mr
