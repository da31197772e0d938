"""Render processes fed over pipes that the event loop itself reads: no thread in the bot.

``concurrent.futures``' process pool hands every job to a feeder thread and every result
to a manager thread, which then wakes the event loop through a pipe of its own: at 500
tables those threads and hand-offs cost the bot about 5% of its CPU (GIL samples), all of
it for a picture a second per table. Here a job is written straight into an idle worker's
pipe and its answer is read by the loop when that worker's pipe becomes readable.

A worker answers with a frame: 8 bytes of length, one byte of kind (the PNG's bytes, or a
pickled exception), then the data. A worker that dies breaks the whole set, as it breaks a
``ProcessPoolExecutor`` (``BrokenProcessPool``): the caller starts a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import struct
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

V = TypeVar("V")

_HEAD = struct.Struct("!QB")  # length of the data, kind
_PNG, _ERROR = 0, 1
_CHUNK = 1 << 18


class _Worker:
    __slots__ = ("answers", "buffer", "future", "jobs", "process")

    def __init__(self, process: BaseProcess, jobs: Connection, answers: int) -> None:
        self.process = process
        self.jobs = jobs  # the bot's end: jobs are sent here
        self.answers = answers  # fd of the bot's end of the answers pipe (non-blocking)
        self.buffer = bytearray()
        self.future: asyncio.Future[bytes] | None = None


class Renderers:
    """``count`` render processes (``initializer`` runs first in each); ``run`` draws one
    view in an idle one."""

    def __init__(self, count: int, initializer: Callable[[], None]) -> None:
        self._count = max(1, count)
        self._initializer = initializer
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broken = False
        self._closed = False

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (started ones)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def start(self) -> None:
        """Spawn the workers now (``run`` does it at the first job otherwise)."""
        if self._workers or self._closed:
            return
        loop = self._loop = asyncio.get_running_loop()
        self._idle = asyncio.Queue()
        context = multiprocessing.get_context("spawn")  # not a fork of a loop with threads
        for _ in range(self._count):
            jobs_out, jobs_in = context.Pipe(duplex=False)
            answers_out, answers_in = context.Pipe(duplex=False)
            process = context.Process(target=_serve, name="render", daemon=True,
                                      args=(jobs_out, answers_in, self._initializer))
            process.start()
            jobs_out.close()  # the worker's ends: an EOF now means the other side is gone
            answers_in.close()
            fd = answers_out.fileno()
            os.set_blocking(fd, False)
            worker = _Worker(process, jobs_in, os.dup(fd))
            answers_out.close()
            self._workers.append(worker)
            loop.add_reader(worker.answers, self._readable, worker)
            self._idle.put_nowait(worker)

    async def run(self, draw: Callable[[V], bytes], view: V) -> bytes:
        """``draw(view)`` in a worker (``draw`` and ``view`` must pickle)."""
        if self._closed or self._broken:
            raise BrokenProcessPool("the render processes are stopped")
        self.start()
        assert self._idle is not None
        worker = await self._idle.get()
        if self._closed:  # stopped while this job waited: as a cancelled executor job
            raise asyncio.CancelledError
        if self._broken:
            raise BrokenProcessPool("a render process died")
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        worker.future = future
        try:
            worker.jobs.send((draw, view))  # the worker is idle: its pipe is empty
        except OSError as exc:
            self._break()
            raise BrokenProcessPool("a render process died") from exc
        # a cancelled caller leaves the job running: its answer is read and dropped
        return await asyncio.shield(future)

    def shutdown(self) -> None:
        """Stop: workers end after the job they draw (its answer is still read)."""
        self._closed = True
        for w in self._workers:
            with contextlib.suppress(OSError):
                w.jobs.close()  # a worker reads EOF next and ends
            if w.future is None:
                self._drop(w)
            if self._idle is not None:  # wake a job waiting for a worker: it ends
                self._idle.put_nowait(w)

    def _readable(self, worker: _Worker) -> None:
        try:
            data = os.read(worker.answers, _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the worker ended
            if not self._closed:
                self._break()
            else:
                self._drop(worker)
            return
        buf = worker.buffer
        buf += data
        if len(buf) < _HEAD.size:
            return
        length, kind = _HEAD.unpack_from(buf)
        if len(buf) < _HEAD.size + length:
            return
        payload = bytes(buf[_HEAD.size:_HEAD.size + length])
        del buf[:_HEAD.size + length]
        future, worker.future = worker.future, None
        if future is not None and not future.done():
            if kind == _PNG:
                future.set_result(payload)
            else:
                future.set_exception(pickle.loads(payload))
        if self._closed:
            self._drop(worker)
        elif self._idle is not None:
            self._idle.put_nowait(worker)

    def _break(self) -> None:
        """A worker died: every job waiting fails, and the set takes no more."""
        self._broken = True
        for w in self._workers:
            self._drop(w)
        if self._idle is not None:  # wake those waiting for a worker: they fail
            for w in self._workers:
                self._idle.put_nowait(w)

    def _drop(self, worker: _Worker) -> None:
        if worker.answers < 0:
            return
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(worker.answers)
        os.close(worker.answers)
        worker.answers = -1
        with contextlib.suppress(OSError):
            worker.jobs.close()
        future, worker.future = worker.future, None
        if future is not None and not future.done():
            future.set_exception(BrokenProcessPool("a render process died"))


def _serve(jobs: Connection, answers: Connection, initializer: Callable[[], None]) -> None:
    """A worker: draw each job, answer with a frame, end at the pipe's EOF."""
    initializer()
    fd = answers.fileno()
    while True:
        try:
            draw, view = jobs.recv()
        except (EOFError, OSError):
            os._exit(0)
        kind, data = _PNG, b""
        try:
            data = draw(view)
        except Exception as exc:  # the bot logs it; the worker goes on
            kind = _ERROR
            try:
                data = pickle.dumps(exc)
            except Exception:
                data = pickle.dumps(RuntimeError(repr(exc)))
        frame = memoryview(_HEAD.pack(len(data), kind) + data)
        while frame:
            frame = frame[os.write(fd, frame):]
