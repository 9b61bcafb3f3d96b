"""An append-only journal of write operations, beside the DuckDB file.

DuckDB is an analytical engine: each statement costs ~0.4 ms or more, so writing every
call's rows and log line as its own transaction would dominate a tool call. In journal
durability a call's operations are appended here as one JSON line *before the response is
sent* (an ``O_APPEND`` write; the OS keeps it through a ``kill -9``, ``fsync=True`` also
covers power loss), and they reach DuckDB in batched transactions shortly after. The byte
offset applied so far is stored in DuckDB in the same transaction as each batch, so a
restart replays exactly the lines DuckDB does not have yet. A torn last line (a crash
mid-write) is ignored: its call never got a response.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from state.encoding import encode_compact


class Journal:
    def __init__(self, path: Path, *, fsync: bool = False) -> None:
        self.path = path
        self._fsync = fsync
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(self, ops: list[Any]) -> None:
        line = (encode_compact(ops) + "\n").encode("utf-8")
        os.write(self._fd, line)
        if self._fsync:
            os.fsync(self._fd)

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def read_from(self, offset: int) -> tuple[list[list[Any]], int]:
        """Complete lines after ``offset`` and the offset just past the last complete one."""
        with self.path.open("rb") as fh:
            fh.seek(offset)
            data = fh.read()
        entries: list[list[Any]] = []
        consumed = 0
        for raw in data.split(b"\n")[:-1]:
            consumed += len(raw) + 1
            try:
                entries.append(json.loads(raw))
            except json.JSONDecodeError:
                break
        return entries, offset + consumed

    def truncate(self, size: int = 0) -> None:
        os.ftruncate(self._fd, size)

    def close(self) -> None:
        os.close(self._fd)
