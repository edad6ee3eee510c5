"""Independent jobs spread over local processes or a Ray cluster (the optional ``[ray]`` extra).

Work that outgrows one machine here is embarrassingly parallel: thousands of
benchmark games or solved draws, each dealt and seeded from (series, game
index) alone, so the results do not depend on where or in what order the
work runs.  This module only maps a function over argument tuples, in local
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

import socket
from typing import Any, Callable, Sequence

from .core.errors import InputError


def _ray():
    try:
        import ray
    except ImportError:
        raise InputError("--ray needs Ray: pip install 'takeiteasy[ray]'") from None
    return ray


def _probe(address: str, timeout: float = 5.0) -> None:
    """Refuse at once an address nothing listens on (Ray itself keeps retrying for a minute or more)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # "auto" and other forms: Ray finds or refuses them quickly
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise InputError(f"--ray {address}: cannot reach a Ray cluster there ({exc.strerror or exc})") from None


def connect(address: str):
    """Start or join Ray (once per process); returns the ``ray`` module."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    if address != "local":
        _probe(address)
    settings = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        if address == "local":
            ray.init(**settings)
        else:
            ray.init(address=address, **settings)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--ray {address}: cannot reach a Ray cluster ({first_line})") from None
    return ray


def cluster_cpus(address: str) -> int:
    """How many CPUs the cluster offers (at least 1)."""
    ray = connect(address)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ray_map(function: Callable, argument_tuples: Sequence[tuple], address: str) -> list[Any]:
    """``[function(*arguments) for arguments in argument_tuples]``, one Ray task each, in order."""
    ray = connect(address)
    task = ray.remote(num_cpus=1)(function)
    return ray.get([task.remote(*arguments) for arguments in argument_tuples])


def spread(function: Callable, argument_tuples: Sequence[tuple], ray: str | None = None) -> list[Any]:
    """``[function(*arguments) for arguments in argument_tuples]``: in this process for one tuple, else one
    local process (``spawn``) per tuple or, with ``ray`` (an address), one Ray task per tuple; in order."""
    if ray is not None:
        return ray_map(function, argument_tuples, ray)
    if len(argument_tuples) == 1:
        return [function(*argument_tuples[0])]
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(max_workers=len(argument_tuples), mp_context=get_context("spawn")) as pool:
        return [f.result() for f in [pool.submit(function, *arguments) for arguments in argument_tuples]]


def chunks(indices: Sequence[int], parts: int) -> list[Sequence[int]]:
    """``indices`` cut into at most ``parts`` runs of nearly equal length, in order."""
    size = max(1, -(-len(indices) // max(1, parts)))
    return [indices[k:k + size] for k in range(0, len(indices), size)]

