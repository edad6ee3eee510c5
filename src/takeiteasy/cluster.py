"""Independent jobs spread over local processes or a Ray cluster (the optional ``[ray]`` extra).

Work that outgrows one machine here is embarrassingly parallel: thousands of
benchmark games or solved draws, each dealt and seeded from (series, game
index) alone, so the results do not depend on where or in what order the
work runs; and training, whose workers play their share of each round's games
from the same weights and whose changes are then combined in a fixed order (each weight moved by the mean
change of the workers that moved it: docs/AI.md).  This module only maps a function over argument tuples, in local
processes or with Ray, and gives the results back in order; what runs is the
same code either way.

``address`` is ``"local"`` to start a private Ray on this machine (handy for
trying it out and in tests), or anything ``ray.init(address=...)`` accepts to
join a running cluster: ``"auto"`` on a node of it, ``"HOST:6379"`` (the
head node's address), or ``"ray://HOST:10001"`` through Ray Client (which
needs ``ray[client]``).  Every node needs takeiteasy installed (and any
weights file at the same path).
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import os
import signal
import socket
import sys
import threading
from typing import Any, Callable, Iterator, Sequence

from .core.errors import InputError


class WorkerError(RuntimeError):
    """A worker process or Ray task stopped before it answered (killed, out of memory, a node lost)."""


def require_ray():
    """The ray module, or :class:`InputError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError("--ray needs Ray: pip install 'takeiteasy[ray]'") from None
    return ray


#: HTTP/2's connection preface and an empty SETTINGS frame: what a gRPC client opens with.
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def _probe(address: str, timeout: float = 5.0) -> None:
    """Refuse at once an address nothing listens on (Ray itself keeps retrying for a minute or more)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not (port.isascii() and port.isdigit()) or len(port) > 5:
        return  # "auto" and other forms: Ray finds or refuses them quickly
    if not host:  # Ray printed a traceback of its own for ':6379' before refusing it
        raise InputError(f"--ray {address}: no host before the port; give HOST:PORT, e.g. 10.0.0.5:6379")
    try:
        connection = socket.create_connection((host, int(port)), timeout=timeout)
    except OSError as exc:
        raise InputError(f"--ray {address}: cannot reach a Ray cluster there ({exc.strerror or exc})") from None
    with connection:
        if os.environ.get("RAY_USE_TLS", "0") not in ("", "0"):
            return  # a TLS cluster does not answer in the clear
        # Ray's services speak gRPC: to HTTP/2's opening they answer with a SETTINGS frame.  Something else that
        # takes connections (a web server, a silent port) made Ray retry for ever, deaf to Ctrl-C for seconds.
        try:
            connection.sendall(HTTP2_PREFACE)
            answer = connection.recv(9)
        except OSError:
            answer = b""
        if len(answer) < 4 or answer[3] != 4:
            raise InputError(f"--ray {address}: something answers there, but not a Ray cluster (no gRPC answer "
                             f"within {timeout:g} s); the head node's address is HOST:6379 by default")


def check_address(address: str) -> None:
    """Refuse an empty ``--ray`` (Ray's own words were "Invalid address format:" and a note on tokens)."""
    if not address.strip():
        raise InputError("--ray: empty; give 'local', 'auto' or the head node's HOST:6379")


def connect(address: str):
    """Start or join Ray (once per process); returns the ``ray`` module."""
    check_address(address)
    ray = require_ray()
    if ray.is_initialized():
        return ray
    if address != "local":
        _probe(address)
    settings = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    # ray.init puts a SIGTERM handler of its own in place (it exits 1 with "*** SIGTERM received ***"); the
    # command's (cli.sigterm_stops) goes back, so that SIGTERM stops a --ray run as Ctrl-C does
    on_main_thread = threading.current_thread() is threading.main_thread()
    sigterm_handler = signal.getsignal(signal.SIGTERM) if on_main_thread else None
    try:
        # "local" starts a Ray of its own even where RAY_ADDRESS names a cluster (ray.init() alone would join it)
        ray.init(address=address, **settings)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        if address == "auto" and "running Ray instance" in str(exc):  # Ray's advice names a flag of its own CLI
            raise InputError("--ray auto: no Ray cluster runs on this machine (start one with 'ray start --head', "
                             "or give --ray HOST:PORT, or --ray local for a Ray of this command's own)") from None
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--ray {address}: cannot reach a Ray cluster ({first_line}; a cluster that asks for a "
                         "token needs RAY_AUTH_MODE=token and its token, as Ray documents)") from None
    finally:
        if sigterm_handler is not None:
            signal.signal(signal.SIGTERM, sigterm_handler)
    return ray


def cluster_cpus(address: str) -> int:
    """How many CPUs the cluster offers (at least 1)."""
    ray = connect(address)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ray_map(function: Callable, argument_tuples: Sequence[tuple], address: str) -> list[Any]:
    """``[function(*arguments) for arguments in argument_tuples]``, one Ray task each, in order."""
    return list(ray_imap(function, argument_tuples, address))


def ray_imap(function: Callable, argument_tuples: Sequence[tuple], address: str,
             at_once: int | None = None) -> Iterator[Any]:
    """:func:`ray_map`'s results one by one, in order: one Ray task each, at most ``at_once`` of them running
    (default: all), the next started as any ends, each result taken from the cluster when it is asked for."""
    ray = connect(address)
    task = ray.remote(num_cpus=1)(function)
    # a window, not all at once: more pieces of work than jobs (spread) would otherwise run on every CPU of the
    # cluster, whatever --jobs said
    limit = len(argument_tuples) if at_once is None else max(1, at_once)
    refs: list = []
    running: set = set()

    def start_more() -> None:
        while len(refs) < len(argument_tuples) and len(running) < limit:
            refs.append(task.remote(*argument_tuples[len(refs)]))
            running.add(refs[-1])

    start_more()
    for k in range(len(argument_tuples)):
        while refs[k] in running:  # wait for it, starting the next tasks as others end
            ended, _ = ray.wait(list(running), num_returns=1)
            running.difference_update(ended)
            start_more()
        ref, refs[k] = refs[k], None
        try:
            result = ray.get(ref)
        except ray.exceptions.RayTaskError as exc:  # the function itself raised: that error, as if run here
            raise exc.cause if isinstance(exc.cause, Exception) else WorkerError(str(exc).splitlines()[0]) from None
        except ray.exceptions.RayError as exc:
            raise WorkerError(f"a Ray task stopped ({type(exc).__name__})") from None
        del ref
        yield result
        del result


#: what stops a whole process group: the terminal's Ctrl-C, and SIGTERM from `kill -- -PGID`, a batch scheduler or
#: a service manager (systemd signals every process of the service)
_GROUP_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _without_group_stops():
    """Ctrl-C and SIGTERM held back from this thread meanwhile: the worker processes started now inherit them
    blocked and never see them, so a stop sent to the whole group is the parent's alone, which stops them (with
    SIGKILL: :meth:`Workers.close`).  Workers that died of it themselves left the parent a broken pool, an error
    instead of its clean stop.  A signal that comes meanwhile is not lost: it reaches the parent when this ends."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _stop_listening_and_interrupt(signum, frame):
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except OSError:  # CPython's "Signal 2 ignored due to race condition": a second Ctrl-C came as this one landed
        pass  # (seen once in CI, two presses 0 s apart); the interrupt goes on all the same
    raise KeyboardInterrupt


def _interrupt_once():
    """While the workers work, the first Ctrl-C interrupts and later ones are dropped until they are stopped: a
    second Ctrl-C while stopping them would leave them running (a share of compiled games does not look at
    signals) and the exit waiting for them.  Gives the handler to put back, or None if it was left alone (not the
    main thread, or a handler of the caller's own)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return None
    return signal.signal(signal.SIGINT, _stop_listening_and_interrupt)


def local_cpus() -> int:
    """The CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no sched_getaffinity (macOS, Windows)
        return max(1, os.cpu_count() or 1)


#: Linux's prctl option that names the signal a process gets when its parent ends
PR_SET_PDEATHSIG = 1


class _ParentIfMainThread:
    """The worker initializer's ``parent``, decided as each worker starts: the parent's process id if the main
    thread starts it, else 0 (not tied).  Linux ties the parent-death signal to the thread that starts a process,
    not to the process: a worker started from a thread that ends first would be killed with it.  A pool starts
    its processes as work is handed out, on the thread that hands it out, which need not be the one that made
    the pool; ``spawn`` pickles a process's arguments on the thread that starts it, so this is decided there."""

    def __reduce__(self):
        tied = threading.current_thread() is threading.main_thread()
        return int, (os.getpid() if tied else 0,)


def _die_with_parent(parent: int) -> None:
    """Worker process initializer: end when the parent process ends, however it ends (``parent`` 0: not tied).
    A parent stopped by ``kill`` (SIGTERM) or ``kill -9`` cannot stop its workers itself, and they waited for
    work for ever, each with its few hundred MB (and a pipe the parent's caller read to its end)."""
    if not parent:  # started from another thread than the main one (_ParentIfMainThread)
        return
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:  # it ended before that
        os._exit(1)


class Workers:
    """Worker processes kept between rounds of work (training merges its workers' weights every few thousand
    games; starting processes and loading the compiled kernels each round would cost more than the round).

    ``jobs`` local processes (``spawn``; no more than the CPUs, which then take the work in turns), or ``jobs`` Ray
    tasks at a time with ``ray`` (an address; Ray keeps its own workers), or this very process for one job.
    :meth:`map` gives ``[function(*arguments) ...]`` back in order.

    A Ctrl-C (or any error) while the work runs stops the local processes at once, without a word from them: they
    never see Ctrl-C or SIGTERM themselves, even sent to the whole process group, and leaving the ``with`` block on
    an error ends them rather than waiting for work whose results nobody will read.
    """

    def __init__(self, jobs: int, ray: str | None = None):
        self.jobs, self.ray, self._pool = max(1, jobs), ray, None
        if ray is not None:
            connect(ray)
        elif self.jobs > 1:
            from concurrent.futures import ProcessPoolExecutor
            from multiprocessing import get_context

            # at most one process per CPU: more would only take turns on the CPUs, each with its own memory (a
            # few hundred MB with the compiled kernels), and the results do not depend on where the work ran
            # (only the main thread's workers are tied to the parent's end: _ParentIfMainThread)
            parent = _ParentIfMainThread()  # an int in each worker, as _die_with_parent takes
            self._pool = ProcessPoolExecutor(max_workers=min(self.jobs, local_cpus()), mp_context=get_context("spawn"),
                                             initializer=_die_with_parent, initargs=(parent,))  # type: ignore[arg-type]

    def map(self, function: Callable, argument_tuples: Sequence[tuple]) -> list[Any]:
        return list(self.imap(function, argument_tuples))

    def imap(self, function: Callable, argument_tuples: Sequence[tuple]) -> Iterator[Any]:
        """:meth:`map`'s results one by one, in order, each as soon as it is in: all the work is handed out at
        once, and a caller that keeps only what it needs holds one result at a time, not all of them."""
        if self.ray is not None:
            yield from ray_imap(function, argument_tuples, self.ray, at_once=self.jobs)
            return
        if self._pool is None:
            for arguments in argument_tuples:
                yield function(*arguments)
            return
        from concurrent.futures.process import BrokenProcessPool

        def broken():
            self.close(stop=True)  # the others too: the pool's own terminate() no longer ends them
            # a script without the guard: each spawned worker runs the script again and dies starting its own
            return WorkerError("a worker process stopped before it answered (killed, or out of memory?  From a "
                               "script, start workers under `if __name__ == \"__main__\":`)")

        # the handler that drops a second Ctrl-C goes in before the first can arrive: a Ctrl-C held back while the
        # work is handed out reaches this thread as the mask is lifted, and a second one while the first was
        # stopping the workers (with the default handler back) left them running and the exit waiting for them
        previous = _interrupt_once()
        try:
            try:
                with _without_group_stops():  # processes start as work is handed out
                    futures = collections.deque(self._pool.submit(function, *arguments)
                                                for arguments in argument_tuples)
            except BrokenProcessPool:  # one died while waiting for work
                raise broken() from None
            while futures:
                try:
                    result = futures.popleft().result()
                except BrokenProcessPool:
                    raise broken() from None
                yield result
                del result
        except KeyboardInterrupt:
            self.close(stop=True)
            raise
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    def close(self, stop: bool = False) -> None:
        """Shut the local processes down: after the work handed out (``stop``: at once, dropping it)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if stop:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.kill()  # SIGTERM is blocked in them (_without_group_stops)
        pool.shutdown(cancel_futures=True)

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, *exc) -> None:
        self.close(stop=kind is not None)


def spread(function: Callable, argument_tuples: Sequence[tuple], ray: str | None = None,
           progress: Callable[[int], None] | None = None, count: Callable[[Any], int] = len,
           jobs: int | None = None, each: Callable[[Any], None] | None = None) -> list[Any]:
    """``[function(*arguments) for arguments in argument_tuples]``: in this process for one tuple, else in
    ``jobs`` (default: one per tuple) local processes (``spawn``; no more than the CPUs) or, with ``ray`` (an
    address), ``jobs`` Ray tasks at a time, one task per tuple; in order.

    With ``progress``, it is told how many items are done (``count(result)`` of each result): a tuple run in this
    process passes it on to ``function(..., progress=progress)``, which tells each item; workers' results count
    as each comes back (in order), so work cut into :func:`pieces` is told piece by piece.  ``each(result)`` is
    told each worker's result as it comes back, in order, before ``progress`` counts it (not a tuple run in this
    process, which ``function`` tells of its items itself)."""
    if progress is not None and ray is None and len(argument_tuples) == 1:
        return [function(*argument_tuples[0], progress=progress)]
    results: list[Any] = []
    done = 0
    # the processes stopped with the work, however it ends
    with Workers(jobs or len(argument_tuples), ray) as workers:
        for result in workers.imap(function, argument_tuples):
            results.append(result)
            if each is not None:
                each(result)
            if progress is not None:
                done += count(result)
                progress(done)
    return results


def compile_here_first(ray: str | None, parts: int) -> bool:
    """Whether a command handing out ``parts`` pieces of work should compile (or load) the kernels itself first:
    when its workers run on this machine (local processes, or a Ray of its own), they then load them from the
    cache, and a first run's compile is announced on a terminal (cli.first_compile_notice) instead of hidden in
    each worker.  One piece with no Ray runs in the command anyway; a cluster's other nodes compile their own."""
    return ray == "local" or (ray is None and parts > 1)


#: how many pieces :func:`pieces` cuts each worker's share into: progress (and what a stop says was done) moves
#: as each piece comes back, where a whole share came back only at its end (hours of `best` games); a worker keeps
#: what it set up between pieces, so more pieces cost only handing them out
PIECES_PER_JOB = 100
MIN_PIECE = 4  # items: a piece of fewer costs more to hand out than to do, for the fastest agents


def pieces(count: int, jobs: int, ray: str | None = None, first: int = 0) -> list[range]:
    """Items first..count-1 cut into runs for :func:`spread` over ``jobs``, in order: one run in this process
    (which tells each item's end itself), else up to :data:`PIECES_PER_JOB` runs per worker, of :data:`MIN_PIECE`
    items or more, and at least one run per worker (none when no item is left)."""
    if ray is None and jobs <= 1:
        return [range(first, count)]
    workers = jobs if ray is not None else min(jobs, local_cpus())
    left = count - first
    size = max(1, min(-(-left // workers), max(MIN_PIECE, -(-left // (workers * PIECES_PER_JOB)))))
    return [range(start, min(start + size, count)) for start in range(first, count, size)]
