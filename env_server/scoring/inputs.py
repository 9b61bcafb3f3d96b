"""Which file or directory a scoring command reads, given the path the user typed.

``toolenv eval --out DIR`` writes ``DIR/<run>/``: a live run directory (``sessions/*.jsonl``) or,
with ``--protocol replay``, an official tree whose result file is
``DIR/<run>/result/<model>/Wild-Tool-Bench_result.jsonl``. :func:`resolve_input` accepts any of

* an official result file (used as it is);
* a live run directory (used as it is);
* a replay run directory, or its ``result/<model>/`` directory: its one result file;
* the parent of one such run (the ``--out`` directory): that run.

When a directory holds several runs, or none, the error names the exact paths to pass.
"""

from __future__ import annotations

from pathlib import Path

from env_server.scoring.models import ScoringError

RESULT_FILE = "Wild-Tool-Bench_result.jsonl"


def is_live_run(path: Path) -> bool:
    return path.is_dir() and any((path / "sessions").glob("*.jsonl"))


def _result_files(path: Path) -> list[Path]:
    """The official result files of a replay run directory or of its ``result/<model>/`` directory."""
    own = path / RESULT_FILE
    return [own] if own.is_file() else sorted(p for p in path.glob(f"result/*/{RESULT_FILE}") if p.is_file())


def _runs_in(path: Path) -> list[Path]:
    """What each run directory directly below ``path`` resolves to (a live run or a result file)."""
    found: list[Path] = []
    for child in sorted(p for p in path.iterdir() if p.is_dir()):
        found += [child] if is_live_run(child) else _result_files(child)
    return found


def _choices(paths: list[Path]) -> str:
    return "; pass one of: " + ", ".join(str(p) for p in paths)


def resolve_input(path: str | Path) -> Path:
    """The result file or live run directory ``path`` stands for (see the module docstring)."""
    path = Path(path)
    if path.is_file() or is_live_run(path):
        return path
    if not path.is_dir():
        raise ScoringError(f"{path}: no such file or directory")
    for found, where in ((_result_files(path), "result files"), (_runs_in(path), "runs")):
        if len(found) == 1:
            return found[0]
        if found:
            raise ScoringError(f"{path} holds {len(found)} {where}{_choices(found)}")
    raise ScoringError(
        f"{path}: not a run: pass a run directory written by 'toolenv eval' (it holds sessions/*.jsonl), "
        f"an official result file ({RESULT_FILE}), or the directory that holds one such run"
    )
