"""An append-only JSON Lines journal of write operations, beside the DuckDB file.

DuckDB is an analytical engine: each statement costs ~0.4 ms or more, so writing every
call's rows and log line as its own transaction would dominate a tool call. In journal
durability a call's operations are appended here as one JSON line *before the response is
sent*, and they reach DuckDB in batched transactions shortly after. The byte offset
applied so far is stored in DuckDB in the same transaction as each batch, so a restart
replays exactly the lines DuckDB does not have yet.

The file is opened in append mode. ``append`` writes the whole line into the file's buffer
and flushes it to the operating system before it returns: the line is then in the page
cache, so a ``kill -9`` of the server loses no call that was answered. ``fsync=True`` also
syncs the file to disk after each line, so answered calls survive a power loss too, at one
disk sync per call. If the write or the sync fails, the file is cut back to where it ended
before the append and the error is raised: the call is not answered as a success, and no partial line
is left for later lines to follow.

A torn last line (a crash in the middle of a write) has no newline yet; ``read_from``
ignores it, since its call never got a response, and the store cuts it off on restart.
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
        self._file = path.open("ab")
        self._end = os.fstat(self._file.fileno()).st_size  # bytes written, torn tail included

    def append(self, ops: list[Any]) -> None:
        """Write ``ops`` as one line and hand it to the OS (and the disk, with ``fsync``)."""
        line = (encode_compact(ops) + "\n").encode("utf-8")
        try:
            self._file.write(line)
            self._file.flush()
            if self._fsync:
                os.fsync(self._file.fileno())
        except OSError:
            self._reopen_at(self._end)
            raise
        self._end += len(line)

    def size(self) -> int:
        """Bytes in the journal file."""
        return self._end

    def read_from(self, offset: int) -> tuple[list[list[Any]], int]:
        """Complete lines after ``offset`` and the offset just past the last complete one."""
        with self.path.open("rb") as fh:
            fh.seek(offset)
            data = fh.read(max(0, self._end - offset))
        entries: list[list[Any]] = []
        consumed = 0
        for raw in data.split(b"\n")[:-1]:  # the last piece is empty, or a line without its newline
            try:
                entries.append(json.loads(raw))
            except json.JSONDecodeError:
                break
            consumed += len(raw) + 1
        return entries, offset + consumed

    def truncate(self, size: int = 0) -> None:
        """Drop everything after ``size`` bytes."""
        self._file.flush()
        os.ftruncate(self._file.fileno(), size)
        self._end = size

    def close(self) -> None:
        self._file.close()

    def _reopen_at(self, size: int) -> None:
        """After a failed append: drop whatever part of the line got out, and its buffer."""
        try:
            self._file.close()  # flushes what is buffered, if it can; cut off below either way
        except OSError:
            pass
        os.truncate(self.path, size)
        self._file = self.path.open("ab")
