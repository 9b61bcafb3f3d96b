"""Scoring library: WildToolBench enumerate-match-score, metrics, error taxonomy, UniToolCall.

Input types (``models.py``) -- what callers hand in:

* :class:`GoldNode` -- one gold action: ``index`` (its position, 0-based), ``name`` (a tool, or a
  pseudo-action :data:`PREPARE` = ``prepare_to_answer`` / :data:`ASK` =
  ``ask_user_for_required_parameters``), ``arguments`` (a JSON object), ``dependencies`` (indices
  of nodes that must run first), ``observation`` (tool output, question or final answer) and
  ``user_input`` (the user's reply after an ask node).
* :class:`GoldTask` -- ``nodes`` (node i has index i), ``task_type`` (:class:`TaskType`),
  ``turn_subtype`` (:class:`TurnSubtype`, None for the first task), ``position`` in the session,
  ``tools`` (OpenAI-style function tools; their ``parameters`` drive the schema check) and an
  optional ``progress_node_count`` (AP denominator; defaults to the node count).
* :class:`GoldSession` -- ``session_id`` and its ``tasks``.
* :class:`PredictedStep` -- one model turn: ``content`` (text) and ``calls``, a tuple of
  :class:`PredictedCall` (``name``, ``arguments`` as the raw JSON text the model wrote, ``call_id``).

Flow:

* live: ``TaskMatcher(task).submit(step)`` per model step returns a :class:`StepRecord` (matched,
  asked, answered, or an error with the official reason) and the gold nodes whose observations
  to feed back; ``score_matcher(matcher)`` grades what has happened so far;
* offline: ``score_task(task, steps)`` / ``score_session(session, steps_per_task)``;
* metrics: ``compute_official_metrics(sessions, model)`` (official layout) or ``compute_report``
  (plus paper definitions and the error taxonomy); ``score_official_results(path)`` scores an
  official result file; ``compute_unitoolcall_metrics(conversations)`` for UniToolCall.

The path engine (``paths.py``) is lazy: no exponential enumeration on the scoring path.
Quirk flags and resolved ambiguities are listed in ``README.md`` beside this file.
"""

from __future__ import annotations

from env_server.scoring.args_paper import PaperError, PaperScore, score_call_paper
from env_server.scoring.args_strict import OFFICIAL, ArgCheck, ArgErrorKind, StrictQuirks, check_call_strict
from env_server.scoring.grading import ArgsMode, TaskGrade, Topology, classify_topology, grade_steps
from env_server.scoring.matching import MAX_LOGGED_CANDIDATES, StepRecord, StepStatus, TaskMatcher, match_steps
from env_server.scoring.metrics import compute_official_metrics, compute_report
from env_server.scoring.models import (
    ASK,
    PREPARE,
    GoldNode,
    GoldSession,
    GoldTask,
    PredictedCall,
    PredictedStep,
    ScoringError,
    TaskType,
    TurnSubtype,
)
from env_server.scoring.official import (
    DATA_FILE,
    rewrite_float_types,
    score_official_report,
    score_official_results,
    session_from_line,
)
from env_server.scoring.paths import PathCursor, PathEngine, PathState
from env_server.scoring.rouge import summary_rouge_l, token_rouge_l
from env_server.scoring.scorer import ScoringOptions, SessionScore, TaskScore, score_matcher, score_session, score_task
from env_server.scoring.taxonomy import ErrorColumn, ErrorReason, TaskError
from env_server.scoring.unitoolcall import UtcCall, UtcConversation, UtcTurn, compute_unitoolcall_metrics

__all__ = [
    "ASK",
    "DATA_FILE",
    "MAX_LOGGED_CANDIDATES",
    "OFFICIAL",
    "PREPARE",
    "ArgCheck",
    "ArgErrorKind",
    "ArgsMode",
    "ErrorColumn",
    "ErrorReason",
    "GoldNode",
    "GoldSession",
    "GoldTask",
    "PaperError",
    "PaperScore",
    "PathCursor",
    "PathEngine",
    "PathState",
    "PredictedCall",
    "PredictedStep",
    "ScoringError",
    "ScoringOptions",
    "SessionScore",
    "StepRecord",
    "StepStatus",
    "StrictQuirks",
    "TaskError",
    "TaskGrade",
    "TaskMatcher",
    "TaskScore",
    "TaskType",
    "Topology",
    "TurnSubtype",
    "UtcCall",
    "UtcConversation",
    "UtcTurn",
    "check_call_strict",
    "classify_topology",
    "compute_official_metrics",
    "compute_report",
    "compute_unitoolcall_metrics",
    "grade_steps",
    "match_steps",
    "rewrite_float_types",
    "score_call_paper",
    "score_matcher",
    "score_official_report",
    "score_official_results",
    "score_session",
    "score_task",
    "session_from_line",
    "summary_rouge_l",
    "token_rouge_l",
]
