"""A code run's result: what the submitted program prints, and no errors.

A code runner (glot.io, Judge0) answers with the program's standard output and its error
streams. Drawn field by field, ``stdout`` read as a chat line and ``stderr`` as an unrelated
service error ("Card expiry date is in the past"). ``run_step(entity, props)``, asked once per
object schema by ``record_steps``, finishes such a record as a successful run: ``stdout`` is
what the program's print statements write when the call sends its source (``files``,
``source_code``, ``code``), else a short program's output drawn from ``program_output``; the
error streams are empty; a Judge0 status reads Accepted and the exit code is 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ERROR_STREAMS = ("stderr", "error", "compile_output")
_SOURCE_ARGS = ("source_code", "code", "source", "script", "content")
# A print statement of a string literal, in the languages code runners offer.
_PRINT = re.compile(
    r"""(?:\bprint(?:ln|f)?|\bputs|\bputStrLn|\becho|console\.log|fmt\.Print(?:ln|f)?|System\.out\.print(?:ln)?|"""
    r"""\bprintln!|\bprint!|\bstd::cout\s*<<)\s*\(?\s*(["'])((?:\\.|(?!\1).)*)\1""")
_ESCAPES = {"\\n": "\n", "\\t": "\t", '\\"': '"', "\\'": "'", "\\\\": "\\"}


def run_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step of a record that holds a program's output and its error streams, else None."""
    if "stdout" not in props or not any(k in props for k in _ERROR_STREAMS):
        return None
    streams = tuple(k for k in _ERROR_STREAMS if k in props and _is_string(props[k]))
    accepted = _accepts(props.get("status"))

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        printed = printed_text(source_of(gen.args))
        if printed:
            record["stdout"] = printed
        for key in streams:
            record[key] = ""
        if accepted and isinstance(record.get("status"), dict):
            record["status"] = {"id": 3, "description": "Accepted"}
        if isinstance(record.get("exit_code"), int):
            record["exit_code"] = 0

    return step


def source_of(args: Mapping[str, Any]) -> str:
    """The program the call runs: its source argument, or its files' contents."""
    for key in _SOURCE_ARGS:
        if isinstance(args.get(key), str):
            return str(args[key])
    files = args.get("files")
    if isinstance(files, list):
        return "\n".join(str(f.get("content", "")) for f in files if isinstance(f, dict))
    return ""


def printed_text(source: str) -> str:
    """What the program's print statements of string literals write, one line each."""
    lines = []
    for match in _PRINT.finditer(source):
        text = match.group(2)
        for escape, char in _ESCAPES.items():
            text = text.replace(escape, char)
        lines.append(text.rstrip("\n"))
    return "\n".join(lines).strip()


def _is_string(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "string"


def _accepts(schema: Any) -> bool:
    """Whether a status object's description can read Accepted (Judge0's)."""
    if not isinstance(schema, dict):
        return False
    description = (schema.get("properties") or {}).get("description") or {}
    return "Accepted" in (description.get("enum") or [])
