"""An append-only journal of write operations, beside the DuckDB file.

DuckDB is an analytical engine: each statement costs ~0.4 ms or more, so writing every
call's rows and log line as its own transaction would dominate a tool call. In journal
durability a call's operations are appended here as one JSON line *before the response is
sent*, and they reach DuckDB in batched transactions shortly after. The byte offset
applied so far is stored in DuckDB in the same transaction as each batch, so a restart
replays exactly the lines DuckDB does not have yet.

The file is written through a shared memory map rather than one ``write`` per line: a
line lands in the page cache either way, so it survives a ``kill -9`` of the server just
the same (``fsync=True`` adds an ``msync`` per line for power loss), but a system call
on every tool call cost ~13 us of CPU in a server whose caches are cold between
requests, about a third of the whole log path (measured). So the file is kept longer
than its content, zero-filled past the last line: the content ends at the first NUL
byte (JSON text never holds a raw NUL), and a clean ``close`` trims the file to its
content. A torn last line (a crash mid-copy) is ignored: its call never got a response.

The space ahead is allocated (``posix_fallocate``), not left sparse: a store into a
sparse page of a full disk kills the process with SIGBUS, while a failed allocation is an
``OSError`` that the journal answers by going on with one ``write`` per line, as it does
where a memory map is not available at all.
"""

from __future__ import annotations

import json
import mmap
import os
from pathlib import Path
from typing import Any

from state.encoding import encode_compact

# The file grows in steps of this many bytes (sparse until written). The store truncates
# the journal after a flush once it passes 16 MiB and calls pause, so one step usually
# suffices; a longer stretch of steady load grows the file by further steps.
MAP_STEP_BYTES = 32 * 1024 * 1024


class Journal:
    def __init__(self, path: Path, *, fsync: bool = False) -> None:
        self.path = path
        self._fsync = fsync
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        with path.open("rb") as fh:
            head = fh.read()
        nul = head.find(b"\0")
        self._end = len(head) if nul < 0 else nul  # where the next line goes
        # Nothing after the first NUL was ever a complete line: start from a clean tail.
        os.ftruncate(self._fd, self._end)
        self._map: mmap.mmap | None = None
        self._remap(max(MAP_STEP_BYTES, _round_up(self._end + 1)))

    def append(self, ops: list[Any]) -> None:
        line = (encode_compact(ops) + "\n").encode("utf-8")
        start, end = self._end, self._end + len(line)
        view = self._map
        if view is not None and end > len(view):
            self._remap(_round_up(end + MAP_STEP_BYTES))
            view = self._map  # None if no more space could be mapped: written from here on
        if view is None:
            os.write(self._fd, line)
            if self._fsync:
                os.fsync(self._fd)
        else:
            view[start:end] = line
            if self._fsync:
                page = start - start % mmap.PAGESIZE
                view.flush(page, end - page)
        self._end = end

    def size(self) -> int:
        """Bytes of journal content (the file itself may be longer, zero-filled)."""
        return self._end

    def read_from(self, offset: int) -> tuple[list[list[Any]], int]:
        """Complete lines after ``offset`` and the offset just past the last complete one."""
        with self.path.open("rb") as fh:
            fh.seek(offset)
            data = fh.read(max(0, self._end - offset))
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
        """Drop everything after ``size`` bytes (zero-filled again when mapped)."""
        os.ftruncate(self._fd, size)
        self._end = size
        if self._map is not None:
            # Shrinking dropped the pages past ``size``; allocating them again reads as zeros.
            try:
                os.posix_fallocate(self._fd, 0, len(self._map))
            except OSError:
                self._use_writes()
        else:
            os.lseek(self._fd, size, os.SEEK_SET)

    def close(self) -> None:
        if self._map is not None:
            self._map.flush()
            self._map.close()
            self._map = None
            os.ftruncate(self._fd, self._end)  # a cleanly closed journal holds only its lines
        os.close(self._fd)

    def _remap(self, length: int) -> None:
        """Map ``length`` allocated bytes, or fall back to writes if that is not possible."""
        if self._map is not None:
            self._map.close()
            self._map = None
        try:
            os.posix_fallocate(self._fd, 0, length)
            self._map = mmap.mmap(self._fd, length, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        except (OSError, ValueError):  # a full disk, or a file system without shared maps
            self._use_writes()

    def _use_writes(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None
        os.ftruncate(self._fd, self._end)
        os.lseek(self._fd, self._end, os.SEEK_SET)


def _round_up(n: int) -> int:
    return -(-n // mmap.PAGESIZE) * mmap.PAGESIZE
