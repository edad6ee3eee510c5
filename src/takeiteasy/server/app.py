"""The web server: a FastAPI app over the room master, with the single-page front end.

``create_app(store=...)`` builds the app; ``takeiteasy serve`` runs it with a
SQLite or PostgreSQL store.  Every error is a JSON object ``{"error": "one line"}`` with a
4xx status (5xx only for a storage failure or a bug); a refused request
changes nothing.  Live updates go out over a WebSocket per player
(``/api/rooms/{code}/ws?token=...``): a server's own changes as it makes them,
and those other servers on the same database store within about a second
(``watch``); ``GET /api/rooms/{code}?since=N`` is the polling fallback.  See
docs/WEB.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import ipaddress
import logging
import math
import re
import secrets
import time
import weakref
from collections import OrderedDict
from importlib import resources
from pathlib import Path

import numpy as np
from anyio import CapacityLimiter, to_thread
from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from .. import __version__
from ..ai import AGENTS, STRENGTH
from ..ai.hints import announce_hints as ai_announce_hints, hint as ai_hint
from ..commands.score import score_record
from ..core.errors import InputError, shown
from ..core.layouts import LAYOUT_NAMES, json_failure, layout as get_layout, read_json
from ..core.notation import call_words, format_board, parse_tile
from ..core.presets import presets
from ..core.rules import Ruleset
from ..core.tiles import DIRECTION_NAMES, DIRECTION_VALUES, PALETTES, SYMBOL_NAMES, SYMBOLS, TOKENS
from ..solve.analysis import analyse_called_round, analyse_game
from . import protocol as msg
from .limits import Buckets, Limit, OpenRooms, RateLimits
from .rooms import (IDLE_HOURS, MAX_ACTIVE_ROOMS, MAX_AI_DRAW, ROOMS_IN_MEMORY, Forbidden, NotFound, Room, RoomError,
                    RoomMaster, hash_token, server_options)
from .store import MemoryStore, Store, StoreError

MAX_BODY = 16 * 1024
MAX_SCORES = 50  # entries of a best-scores list
LISTENERS_PER_ROOM = 64  # live connections per room of viewers without a token; beyond, they poll
# live connections of one player (tabs, devices): counted apart, so viewers filling a room never shut its players out
LISTENERS_PER_SEAT = 4
SOCKET_MESSAGES = Limit(rate=1, burst=10)  # what a client may send on a live connection (pings), per connection
WS_MAX_SIZE = 4096  # bytes of one message on a live connection (uvicorn's default is 16 MiB; a ping is 4)
# AI players thinking at once, in worker threads of their own: requests keep the default pool (40 threads), so
# however many AIs think, a person's move in any room still gets a thread at once
AI_THREADS = 40
# Hints and round analyses search as well (an announce hint with other boards takes seconds): at most this many at
# once, in threads of their own, so a burst of them queues instead of filling the requests' pool and every core
HINT_THREADS = 2
# A failed AI job (an agent's exception, storage) is started again this much later, this many times in a row,
# so a person waiting on a live connection (which sends no requests) is not left waiting for ever
AI_RETRY_SECONDS = 5.0
AI_RETRIES = 5
# Several servers may share one database: only the one holding a room's AI lease in storage (Store.claim_ai) lets its
# AI players think.  A lease lasts this long, comfortably longer than a search, and is renewed once a third of it has
# passed while its server works, so it runs out only if that server died or lost the database
AI_LEASE_SECONDS = 30.0
# A server finding another one holding a room's lease looks again this much later, for as long as it sees an AI move
# owed: the holder may finish without making it (a draw asked for on this server) or die
AI_LEASE_WAIT_SECONDS = 1.0
# How long a stopping server tries to give back the leases it holds, so that other servers need not wait for them
AI_RELEASE_SECONDS = 5.0
SEND_SECONDS = 5.0  # a live connection taking longer than this for an update is dropped
# Several servers may share one database, and each sends its live connections only the changes it makes itself: this
# often, a server asks storage for the versions of the rooms it has live connections to (one query for them all,
# none when it has none) and sends what other servers stored since
WATCH_SECONDS = 1.0
STATIC = Path(str(resources.files("takeiteasy.server").joinpath("static")))
LOG = logging.getLogger("takeiteasy.server")


def client_address(request: HTTPConnection) -> str:
    """The address the per-client limits count by (behind a proxy on this machine, X-Forwarded-For's).

    An IPv6 address counts by its /64 network: one home or server is given a whole /64, so counted by address
    a single client had 2**64 budgets of requests and open rooms, enough to take the server's every room."""
    host = request.client.host if request.client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # not an address (a test client, a Unix socket's peer)
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:192.0.2.1 is that IPv4 address
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return host


#: the open rooms of one IPv6 /48 (see :func:`client_site`), as a multiple of one client's (``RateLimits.open_rooms``)
SITE_OPEN_ROOMS = 4


def client_site(client: str) -> str | None:
    """The IPv6 /48 a client's /64 (:func:`client_address`) is part of, or None for any other client.  A home or
    hosting customer is commonly given a /56 or a /48 (256 or 65,536 /64s): counted by /64 alone, one such client
    held the server's every open room within a minute.  IPv4 addresses are not grouped: a whole school or carrier
    may share a block."""
    try:
        network = ipaddress.IPv6Network(client)
    except ValueError:  # an IPv4 address, or no address
        return None
    return str(network.supernet(new_prefix=48)) if network.prefixlen > 48 else None


def _error(status: int, text: str, key: str | None = None, params: dict | None = None) -> JSONResponse:
    """The one form of every refusal: ``{"error": text}``, and for those the web page words in the player's language
    its ``key`` and ``params`` (the text's parts) too."""
    body: dict = {"error": " ".join(str(text).split()) or "error"}
    if key:
        body["key"], body["params"] = key, params or {}
    return JSONResponse(body, status_code=status)


# Pydantic's "Input should be a valid integer" in the project's words: what the field takes, and what it got.
_EXPECTED = {"int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
             "string_type": "text (a JSON string)", "bool_type": "true or false", "bool_parsing": "true or false",
             "list_type": "a list", "dict_type": "an object", "model_type": "an object",
             "float_type": "a number", "float_parsing": "a number"}


class _BodyAsFile(Request):
    """A request whose JSON body is read as the commands read a JSON file (``core.layouts.read_json``, the body
    named "body"): a key given twice in one object is refused, as a file's is, rather than the last one taken.
    Its refusal, an InputError, is behind FastAPI's "There was an error parsing the body" (:func:`_unread_body`)."""

    async def json(self):
        if not hasattr(self, "_json"):
            self._json = read_json(await self.body(), "body")
        return self._json


class _BodyAsFileRoute(APIRoute):
    """Every API route reads its body through :class:`_BodyAsFile` (FastAPI's way to change how bodies are read)."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def read_as_file(request: Request):
            return await handler(_BodyAsFile(request.scope, request.receive))

        return read_as_file


def _unread_body(cause: BaseException | None) -> str:
    """Why FastAPI could not read a JSON body (its "There was an error parsing the body", or bad syntax as a
    RequestValidationError of its own), from the exception behind it: in the words a file that the parser cannot
    read gets (``core.layouts.read_json`` and ``json_failure``), the body named as a file names itself."""
    if isinstance(cause, InputError):  # read_json's own line (_BodyAsFile): "body: key "cell" is given twice ..."
        return str(cause)
    why = None if cause is None else json_failure(cause)
    if why is None:
        return "malformed body: expected a JSON object (Content-Type: application/json)"
    return f"body: {why}"


def _validation_text(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":  # raised from the parser's JSONDecodeError
        return _unread_body(exc.__cause__) if exc.__cause__ is not None else "body: not valid JSON"
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    if first.get("type") == "missing":
        return f"{where}: missing"
    if first.get("type") == "extra_forbidden":
        return f"{where}: unknown field"
    limit = first.get("ctx", {})
    if first.get("type") == "too_long":
        return f"{where}: at most {limit.get('max_length')} items"
    if first.get("type") == "string_too_long":
        return f"{where}: at most {limit.get('max_length')} characters"
    if first.get("type") == "string_too_short":
        return f"{where}: empty"
    if first.get("type") in ("greater_than_equal", "less_than_equal"):
        bound = "at least" if first["type"] == "greater_than_equal" else "at most"
        return f"{where}: {shown(first.get('input'))}; expected {bound} {limit.get('ge', limit.get('le'))}"
    if first.get("type") == "string_unicode":  # JSON's "\ud800" alone: no character, and no text to store
        return f"{where}: not Unicode text (it holds half of a surrogate pair, like \"\\ud800\")"
    if first.get("type") == "model_attributes_type":  # e.g. a JSON text sent as text/plain
        return f"{where}: expected a JSON object (Content-Type: application/json)"
    if first.get("type") in _EXPECTED:  # e.g. "score: 12.5 is not a whole number" (a score of 12.5 entered)
        expected = _EXPECTED[first["type"]]
        value = first.get("input")
        if expected == "a whole number" and isinstance(value, float):
            if value.is_integer():  # 12.0: strict types take 12
                return f"{where}: expected a whole number written without a decimal point, not {shown(value)}"
            return f"{where}: {shown(value)} is not a whole number"
        return f"{where}: expected {expected}, not {shown(value)}"
    return f"{where}: {first.get('msg', 'invalid')}"


class AskerGone(Exception):
    """A hint's asker hung up while the hint waited for a search thread: it is not searched."""


class RateLimit:
    """Answers 429 with a one-line error to an address over its budget of API requests (``Buckets`` by kind).

    Plain ASGI rather than Starlette's ``BaseHTTPMiddleware``, whose wrapping of ``receive`` hides from the
    app that a client hung up (see ``AskerGone``)."""

    def __init__(self, app, buckets: dict[str, Buckets]) -> None:
        self.app, self.buckets = app, buckets

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket" and scope["path"].startswith("/api/"):
            # a live connection is a request too: each one reads the room (storage), and connecting again and
            # again was a way round the limit polling is held to
            refused = budget_refusal(self.buckets, "requests", client_address(HTTPConnection(scope)))
            if refused is not None:  # told so and closed, as a connection over a room's limit is
                socket = WebSocket(scope, receive, send)
                with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client is gone already
                    await socket.accept()
                    await socket.send_json({"type": "error", "error": refused[0]})
                    await socket.close(code=4429)
                return
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            request = Request(scope)
            path = scope["path"].rstrip("/")
            kinds = ["requests"]
            if request.method == "POST" and path == "/api/rooms":  # a rematch spends one only if it makes a room
                kinds.append("rooms")
            elif (request.method == "POST" and path == "/api/hint") or path.endswith("/analysis"):
                kinds.append("hints")
            client = client_address(request)
            for kind in kinds:
                refusal = over_budget(self.buckets, kind, client)
                if refusal is not None:
                    await refusal(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def budget_refusal(buckets: dict[str, Buckets], kind: str, client: str) -> tuple[str, int] | None:
    """Spend one of ``client``'s ``kind`` requests: None if it had one, else what to say and the seconds to wait."""
    wait = buckets[kind].take(client) if kind in buckets else 0.0
    if wait <= 0:
        return None
    seconds = max(1, math.ceil(wait))
    return f"too many requests from {client} ({kind}); try again in {seconds} s", seconds


def over_budget(buckets: dict[str, Buckets], kind: str, client: str) -> JSONResponse | None:
    """Spend one of ``client``'s ``kind`` requests: None if it had one, else the 429 answer saying when to retry."""
    refusal = budget_refusal(buckets, kind, client)
    if refusal is None:
        return None
    response = _error(429, refusal[0], f"too_many_{kind}", {"client": client, "seconds": refusal[1]})
    response.headers["Retry-After"] = str(refusal[1])
    return response


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with 413, before the app reads it.

    A chunked body has no Content-Length, so the body is counted as it arrives
    and handed on only once it is known to be small enough.
    """

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = _error(413, f"request body too large (at most {self.limit} bytes)")
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > self.limit):
            await too_large(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away; the answer is for the middleware above
                await _error(400, "request body incomplete: the client disconnected")(scope, receive, send)
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay():
            nonlocal body
            if body is None:
                return await receive()
            message, body = body, None
            return message

        await self.app(scope, replay, send)


class Hub:
    """WebSocket listeners per room; each gets its own player's view after every change.

    A listener that does not take an update within ``send_seconds`` (a client that
    stopped reading, so its connection's buffers are full) is dropped and closed:
    otherwise it would hold up the request that changed the room, and every one after.

    The hub remembers the room version each listener was last sent (``sent``), so that changes another server
    on the same database stored can be sent to the listeners who lack them, and only to those (see ``watch``
    in :func:`create_app`).
    """

    def __init__(self, send_seconds: float = SEND_SECONDS) -> None:
        # a listener is its socket and the hash of its seat's token (None: an onlooker): a seat's index moves
        # when a seat before it is removed in the lobby, its token does not
        self.listeners: dict[str, set[tuple[WebSocket, str | None]]] = {}
        # listener -> the room version of the last state sent to it; not there until its first state is taken
        self.sent: dict[tuple[WebSocket, str | None], int] = {}
        self.send_seconds = send_seconds
        self._closing: set[asyncio.Task] = set()  # referenced until done, or the loop may drop them

    def add(self, code: str, socket: WebSocket, who: str | None) -> None:
        self.listeners.setdefault(code, set()).add((socket, who))

    def remove(self, code: str, socket: WebSocket, who: str | None) -> None:
        self.sent.pop((socket, who), None)
        listeners = self.listeners.get(code)
        if listeners is not None:
            listeners.discard((socket, who))
            if not listeners:
                del self.listeners[code]

    def count(self, code: str) -> int:
        return len(self.listeners.get(code, ()))

    def count_of(self, code: str, who: str | None) -> int:
        """Live connections to room ``code`` of one seat (by its token's hash; None: viewers without a token)."""
        return sum(1 for _, listening in self.listeners.get(code, ()) if listening == who)

    def mark(self, socket: WebSocket, who: str | None, version: int) -> None:
        """``version`` of the room is what the listener is being sent (its first state, on connecting)."""
        self.sent[(socket, who)] = version

    def oldest(self) -> dict[str, int]:
        """Per room with listeners, the lowest version any of them was sent (listeners waiting for their first
        state left out: that state is read from storage as it is taken)."""
        oldest: dict[str, int] = {}
        for code, listeners in self.listeners.items():
            versions = [self.sent[listener] for listener in listeners if listener in self.sent]
            if versions:
                oldest[code] = min(versions)
        return oldest

    def snapshot(self, room: Room, behind: bool = False) -> list[tuple[WebSocket, str | None, dict]]:
        """Each listener's view of ``room`` now (taken while nobody acts on the room); ``behind``: only the
        listeners last sent an older version (never a state they have already).  A player whose seat was
        removed gets an onlooker's view (``"you": null``)."""
        views = []
        for listener in list(self.listeners.get(room.code, ())):
            if behind and self.sent.get(listener, room.version) >= room.version:
                continue
            self.sent[listener] = room.version
            views.append((*listener, room.state(room.seat_with(listener[1]))))
        return views

    async def deliver(self, code: str, views: list[tuple[WebSocket, str | None, dict]]) -> None:
        await asyncio.gather(*(self._send(code, socket, who, state) for socket, who, state in views))

    async def _send(self, code: str, socket: WebSocket, who: str | None, state: dict) -> None:
        try:
            await asyncio.wait_for(socket.send_json({"type": "state", "state": state}), self.send_seconds)
        except Exception:  # closed, or not reading: forget it (the page then polls)
            self.remove(code, socket, who)
            task = asyncio.ensure_future(self._close(socket))  # may wait until the connection times out
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(socket: WebSocket) -> None:
        try:
            await socket.close(code=4408)
        except Exception:  # already closed
            pass


def layout_json(name: str) -> dict:
    """A shipped layout with each cell's screen position (flat-topped hexes, radius 1) and its lines."""
    if name not in LAYOUT_NAMES:
        raise NotFound(f"no layout {shown(name)}; expected one of {', '.join(LAYOUT_NAMES)}")
    shape = get_layout(name)
    cells = []
    for index, (q, r) in enumerate(shape.cells):
        x, y = shape.screen_position(index)
        cells.append({"index": index, "q": q, "r": r, "x": round(x, 6), "y": round(y, 6),
                      "stamen": bool(shape.stamen[index])})
    lines = [{"index": line, "direction": DIRECTION_NAMES[int(shape.line_dir[line])], "cells": list(shape.line(line))}
             for line in range(shape.num_lines)]
    return {"name": shape.name, "description": shape.description, "cells": cells, "lines": lines}


#: Finished rounds whose analysis is kept in memory (one takes seconds: a search per move).
ANALYSES_KEPT = 64


def analyse_round(rules: Ruleset, kind: str, data) -> dict:
    """The post-round analysis of :meth:`Room.analysis_input`'s copy (runs in a worker thread).  The AI's own game
    on the tiles is left out where AI players may not sit (more than :data:`MAX_AI_DRAW` tiles at a time): its
    search of a big hand took minutes, holding up every hint on the server."""
    agent_game = rules.options.draw <= MAX_AI_DRAW
    if kind == "game":
        return analyse_game(data, agent_game)
    tiles, finals = data
    return analyse_called_round(rules, tiles, finals, agent_game)


class TokenFilter(logging.Filter):
    """Masks ``token=...`` in log lines: a player's token is in the WebSocket URL, which uvicorn logs."""

    TOKEN = re.compile(r"(?<=[?&;]token=)[^&;\s\"']+", re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = self.TOKEN.sub("***", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(self.TOKEN.sub("***", a) if isinstance(a, str) else a for a in record.args)
        return True


TOKEN_FILTER = TokenFilter()
#: uvicorn logs requests to ``uvicorn.access`` and WebSocket handshakes to ``uvicorn.error``.
LOGGERS_WITH_URLS = ("uvicorn.access", "uvicorn.error")


def mask_tokens_in_logs() -> None:
    """Install :data:`TOKEN_FILTER` on uvicorn's loggers (again is harmless; logging.config keeps filters)."""
    for name in LOGGERS_WITH_URLS:
        logging.getLogger(name).addFilter(TOKEN_FILTER)


def create_app(store: Store | None = None, max_active_rooms: int = MAX_ACTIVE_ROOMS, idle_hours: float = IDLE_HOURS,
               rate_limits: RateLimits | None = None, rooms_in_memory: int = ROOMS_IN_MEMORY,
               listeners_per_room: int = LISTENERS_PER_ROOM, standin_seconds: float | None = None,
               ai_lease_seconds: float = AI_LEASE_SECONDS, watch_seconds: float | None = WATCH_SECONDS,
               ai_owner: str | None = None) -> FastAPI:
    """The web app over ``store`` (default: an in-memory store; ``takeiteasy serve`` passes a SQLite or PostgreSQL
    store).

    ``rate_limits`` are per client address (default :class:`RateLimits()`;
    ``RateLimits.off()`` for none); ``ai_lease_seconds`` is how long a room's AI lease lasts (see ``ai_job``);
    ``watch_seconds`` how often the server looks for changes other servers on the same database made to rooms it
    has live connections to (see ``watch``; None: never); ``ai_owner`` names the server as the holder of AI leases
    and in the presence it stores (default: random; ``takeiteasy serve`` gives host:port, so a server started again
    after a crash takes its own leases back at once instead of waiting for them to run out); see
    :class:`RoomMaster` for the others.
    """
    mask_tokens_in_logs()
    store = store if store is not None else MemoryStore()
    ai_owner = ai_owner or secrets.token_hex(8)  # this server, as the holder of AI leases and in stored presence
    master = RoomMaster(store, max_active_rooms, idle_hours, rooms_in_memory, standin_seconds, server=ai_owner)
    limits = rate_limits if rate_limits is not None else RateLimits()
    buckets = {kind: Buckets(limit) for kind in ("requests", "rooms", "hints")
               if (limit := getattr(limits, kind)) is not None}
    socket_messages = Buckets(SOCKET_MESSAGES)  # by connection, whatever the limits per address
    open_rooms = None if limits.open_rooms is None else OpenRooms(limits.open_rooms, master.idle_seconds)
    open_sites = None if limits.open_rooms is None else OpenRooms(SITE_OPEN_ROOMS * limits.open_rooms,
                                                                  master.idle_seconds)

    def room_is_open(code: str) -> bool:
        """Whether a room still counts towards its maker's open rooms (see ``RoomMaster``: open and in use)."""
        try:
            return master.counts_as_open(code)
        except RoomError:  # gone from storage, say
            return False
    hub = Hub()
    ai_jobs: dict[str, asyncio.Task] = {}  # room code -> the job letting its AI seats act (at most one per room)
    ai_threads = CapacityLimiter(AI_THREADS)
    hint_threads = CapacityLimiter(HINT_THREADS)

    async def searched(function, *args, asker: Request | None = None, **kwargs):
        """``function(*args, **kwargs)`` (a hint or an analysis) in one of the hint threads.  A search waiting for
        a thread is dropped if its ``asker`` has hung up by the time one is free (:class:`AskerGone`)."""
        async with hint_threads:
            if asker is not None and await asker.is_disconnected():
                raise AskerGone()
            # the thread is this search's for as long as it runs (anyio's own pool only creates it)
            return await to_thread.run_sync(functools.partial(function, *args, **kwargs))
    ai_failures: dict[str, int] = {}  # room code -> AI jobs failed in a row
    ai_retries: set[asyncio.Task] = set()
    ai_leases: dict[str, float] = {}  # room code -> when (time.monotonic()) this server last took its AI lease
    lease_waits: set[str] = set()  # rooms whose AI lease another server holds: this server looks again soon

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        watcher = asyncio.ensure_future(watch(watch_seconds)) if watch_seconds else None
        app.state.watcher = watcher
        yield
        if watcher is not None:
            watcher.cancel()
        for job in [*ai_jobs.values(), *ai_retries]:  # a stopped server leaves the rooms as stored; see ai_job
            job.cancel()
        held = list(ai_leases)
        ai_leases.clear()
        if held:  # given back, other servers go on with these rooms at once rather than when the leases run out
            with contextlib.suppress(Exception):  # a database out of reach: they run out
                await asyncio.wait_for(to_thread.run_sync(release_leases, held, abandon_on_cancel=True),
                                       AI_RELEASE_SECONDS)

    def release_leases(codes: list[str]) -> None:
        for code in codes:
            try:
                store.release_ai(code, ai_owner)
            except Exception as exc:
                LOG.warning("room %s: the AI lease was not given back (%s); it runs out by itself", code, exc)

    app = FastAPI(title="takeiteasy", version=__version__, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json", lifespan=lifespan)
    app.router.route_class = _BodyAsFileRoute  # before the first route: each reads its body as a file is read
    app.state.master = master
    app.state.hub = hub
    app.state.ai_owner = ai_owner

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError):
        return _error(getattr(exc, "status", 400), str(exc), getattr(exc, "key", None), getattr(exc, "params", None))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        unreadable = bool(errors) and errors[0].get("type") == "json_invalid"  # a body that is not JSON: 400
        return _error(400 if unreadable else 422, _validation_text(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        detail = exc.detail if isinstance(exc.detail, str) else "error"
        if detail == "There was an error parsing the body":  # FastAPI's words for a body it cannot read
            detail = _unread_body(exc.__cause__)
        return _error(exc.status_code, detail)

    @app.exception_handler(AskerGone)
    async def asker_gone(request: Request, exc: AskerGone):
        return _error(499, "the asker hung up before the search began: not searched")  # nobody reads it

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        kept = "; the room is kept as stored" if request.url.path.startswith("/api/rooms/") else ""
        return _error(500, f"internal error ({type(exc).__name__}){kept}")

    app.add_middleware(BodyLimit, limit=MAX_BODY)

    app.add_middleware(RateLimit, buckets=buckets)

    # A room is read and changed one request at a time (its lock); the engine runs in a worker thread, a room's
    # state too (its scores are compiled kernels: a first call on the event loop waited there for numba's lock
    # while the start's warm-up held it, and every request froze for seconds to minutes), and AI players think
    # in a worker thread without holding the lock (see ai_job), so a slow AI holds up nobody.
    room_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def room_of(code: str) -> Room:
        """The room ``code``, in a worker thread: a room not in memory is read from the store, which may be a
        database on another machine, and the event loop must not wait for it."""
        return await run_in_threadpool(master.get, code)

    def room_lock(code: str) -> asyncio.Lock:
        key = code.upper()
        lock = room_locks.get(key)
        if lock is None:
            lock = room_locks[key] = asyncio.Lock()
        return lock

    async def changed(code: str, work, seat_of_result=None):
        """Run ``work()`` (it changes the room) in a worker thread under the room's lock, then answer with the
        asking player's state and send every listener theirs.  AI seats the change made due act afterwards."""
        async with room_lock(code):
            result = await run_in_threadpool(work)
            room = await room_of(code)
            seat = seat_of_result(result) if seat_of_result else result
            answer, views = await run_in_threadpool(lambda: (room.state(seat), hub.snapshot(room)))
            wake_ais(room)
        await hub.deliver(room.code, views)
        return room, result, answer

    # AI seats act in a background job per room, after the request that made them due has been answered: the
    # person's move is acknowledged at once, and each AI step reaches everyone over the WebSocket as it is made.
    def wake_ais(room: Room) -> None:
        """Start the room's AI job if an AI seat owes a move and no job runs.  Call it holding the room's lock:
        a running job then either sees the change or has already left ``ai_jobs`` (it leaves under the lock),
        so no AI move is ever left waiting.  Every request that loads a room calls it, so a room whose AI
        owed a move when the server stopped carries on when next used."""
        if room.ai_due is not None and room.code not in ai_jobs:
            ai_jobs[room.code] = asyncio.ensure_future(ai_job(room.code))

    async def ai_job(code: str) -> None:
        """Let the room's AI seats act until none has anything to do.

        Each round of steps: take the turns under the room's lock, let the agents think at the same time
        without it (in worker threads; the search kernels release the GIL, so they share the cores and
        people play and read rooms meanwhile), then, as each agent finishes, apply and store its event
        under the lock and send every listener the new state.  A failure (an agent's exception, storage) is
        logged and ends the job with the room as stored; a new one starts ``AI_RETRY_SECONDS`` later (up to
        ``AI_RETRIES`` times in a row) or with the next request on the room.

        Several servers may share the database, and one thinking is enough: before the first round the job
        takes the room's AI lease (:meth:`Store.claim_ai`), renews it while it works, and gives it back before
        leaving ``ai_jobs``.  If another server holds it, that server's AI players think: the job ends at once
        and the room is looked at again ``AI_LEASE_WAIT_SECONDS`` later (``wait_for_lease``), so a server that
        died holding the lease holds the room up only until the lease runs out."""

        async def think(turn):
            # abandon_on_cancel: a stopping server does not wait for a long search (its result is dropped)
            return turn, await to_thread.run_sync(turn.think, abandon_on_cancel=True, limiter=ai_threads)

        thinking: list[asyncio.Task] = []
        try:
            while True:
                # the lease before the turns: a server that held it stored its moves before giving it back, so
                # the turns read next start from them and nothing is thought out twice
                if not await hold_lease(code):
                    wait_for_lease(code)
                    return
                async with room_lock(code):
                    turns = await run_in_threadpool(master.ai_turns, code)
                    if not turns:
                        await give_back_lease(code)  # still in ai_jobs: no job of this server claims meanwhile
                        del ai_jobs[code]  # under the lock: see wake_ais
                        return
                thinking = [asyncio.ensure_future(think(turn)) for turn in turns]
                pending = set(thinking)
                while pending:
                    renew = ai_leases.get(code, 0.0) + ai_lease_seconds / 3 - time.monotonic()
                    done, pending = await asyncio.wait(pending, timeout=max(renew, 0.0),
                                                       return_when=asyncio.FIRST_COMPLETED)
                    if not await hold_lease(code):  # renewed when due: a long search (a busy machine) keeps it
                        wait_for_lease(code)  # it ran out and another server took it: that one thinks now
                        return
                    for finished in done:
                        turn, event = finished.result()
                        async with room_lock(code):
                            room, events, _ = await run_in_threadpool(master.act, code, "ai_move", turn, event)
                            views = await run_in_threadpool(hub.snapshot, room) if events else []
                        ai_failures.pop(code, None)
                        await hub.deliver(code, views)
        except asyncio.CancelledError:
            raise  # the lifespan gives back the leases of a stopping server
        except Exception:
            failures = ai_failures[code] = ai_failures.get(code, 0) + 1
            LOG.exception("room %s: an AI player's move failed; the room stays as stored, the next request "
                          "on it tries again%s", code,
                          f", or in {AI_RETRY_SECONDS:g} s" if failures <= AI_RETRIES else "")
            if failures <= AI_RETRIES:
                later(retry_ais(code, AI_RETRY_SECONDS))
            await give_back_lease(code)  # another server may try meanwhile
        finally:
            for task in thinking:
                if task.done() and not task.cancelled():
                    task.exception()  # another AI's failure in the same round: logged above once is enough
                task.cancel()
            if ai_jobs.get(code) is asyncio.current_task():
                del ai_jobs[code]

    async def hold_lease(code: str) -> bool:
        """Take the room's AI lease, or renew it once a third of it has passed (not every round: a job of many
        quick rounds asks storage once); False if another server holds it."""
        taken = ai_leases.get(code)
        if taken is not None and time.monotonic() - taken < ai_lease_seconds / 3:
            return True
        asked = time.monotonic()  # the lease runs from a moment after this, by the database's clock
        if await run_in_threadpool(store.claim_ai, code, ai_owner, ai_lease_seconds):
            ai_leases[code] = asked
            return True
        ai_leases.pop(code, None)
        return False

    async def give_back_lease(code: str) -> None:
        """Release the room's AI lease if this server holds it; if storage fails, the lease runs out by itself."""
        if ai_leases.pop(code, None) is None:
            return
        try:
            await run_in_threadpool(store.release_ai, code, ai_owner)
        except Exception as exc:
            LOG.warning("room %s: the AI lease was not given back (%s); it runs out in %g s", code, exc,
                        ai_lease_seconds)

    def wait_for_lease(code: str) -> None:
        """Another server holds the room's AI lease, so its AI players think there.  Look again
        ``AI_LEASE_WAIT_SECONDS`` later (one look pending per room), and so on as long as an AI move is owed:
        the holder may finish without a move only this server knows of (a draw asked for here), or die, and
        then its lease runs out."""
        if code not in lease_waits:
            lease_waits.add(code)
            later(retry_ais(code, AI_LEASE_WAIT_SECONDS, lease_wait=True))

    def later(retry) -> None:
        task = asyncio.ensure_future(retry)
        ai_retries.add(task)  # referenced until done, and cancelled when the server stops
        task.add_done_callback(ai_retries.discard)

    async def retry_ais(code: str, seconds: float, lease_wait: bool = False) -> None:
        """Wake the room's AI players ``seconds`` from now.  ``lease_wait``: another server's lease stopped this
        server's job (see ``wait_for_lease``).  What other servers stored meanwhile (their AI players' moves)
        goes to the listeners that lack it, as those servers send only to their own (``watch`` does so too,
        without an AI move owed)."""
        try:
            await asyncio.sleep(seconds)
        finally:
            if lease_wait:
                lease_waits.discard(code)  # before wake_ais: its job may find the lease held again
        try:
            await refresh(code)
        except Exception:  # the room cannot be read now: the next request on it tries again
            return

    async def watch(seconds: float) -> None:
        """Send live connections what other servers on the same database stored (each server sends only its own
        changes).  Every ``seconds``, while this server has live connections, ask storage for the versions of
        their rooms (one query, in a worker thread) and replay each room stored past what a listener of it was
        last sent (``RoomMaster.get`` replays a room another server changed), under the room's lock, as a
        request would: its listeners that lack the change get their views, and AI players it made due are woken
        (the server that stored it wakes them too; the lease lets one think, and a room whose server died goes
        on).  This server's own changes are sent as it makes them, and not again (``Hub.sent``).  A storage
        failure is logged once, and the watch goes on until storage answers again.  Runs from the app's
        start to its end (the lifespan)."""
        failing = False
        while True:
            await asyncio.sleep(seconds)
            oldest = hub.oldest()
            if not oldest:  # no live connection: nothing to ask
                continue
            try:
                # abandon_on_cancel: a stopping server does not wait for a database that does not answer
                stored = await to_thread.run_sync(store.versions, list(oldest), abandon_on_cancel=True)
                moved = [code for code, version in stored.items() if version > oldest.get(code, version)]
                failed = [result for result in await asyncio.gather(*(refresh(code) for code in moved),
                                                                     return_exceptions=True)
                          if isinstance(result, BaseException)]
                if failed:
                    raise failed[0]
            except Exception as exc:  # storage: the rooms stay as they are, and are asked about again
                if not failing:
                    LOG.warning("live updates: changes made through other servers are not sent while storage "
                                "fails (%s); trying again every %g s", exc, seconds)
                failing = True
                continue
            if failing:
                LOG.info("live updates: storage answers again; changes made through other servers are sent")
                failing = False

    async def refresh(code: str) -> None:
        """Replay room ``code`` if another server changed it, send its listeners that lack it their views, and wake
        the AI players it made due (as any request on the room does)."""
        async with room_lock(code):
            room = await room_of(code)
            views = await run_in_threadpool(hub.snapshot, room, True)
            wake_ais(room)
        await hub.deliver(room.code, views)

    async def seat_of(room: Room, token: str | None, present: bool = True) -> int | None:
        """The seat of ``token`` (None: no token).  ``present``: the request is a sign of its player's life, which
        the other servers on the database learn of when due (in a worker thread: storage may be far away)."""
        if token is None:
            return None
        seat = room.authenticate(token, present)
        if present and room.unshared_sightings():
            await run_in_threadpool(master.share_presence, room)
        return seat

    # -- reference data ------------------------------------------------------
    @app.api_route("/api/health", methods=["GET", "HEAD"])
    async def health():
        """Up, with its storage answering: a load balancer should not send players to a server whose database
        is gone.  ``rooms``: the rooms this server holds in memory."""
        body = {"ok": True, "version": __version__, "rooms": master.rooms_in_memory}
        try:
            await run_in_threadpool(master.store.ping)
        except StoreError as exc:
            return JSONResponse({**body, "ok": False, "error": f"storage failed ({exc})"}, status_code=503)
        return body

    @app.get("/api/presets")
    async def get_presets():
        return {"presets": [p.to_json() for p in presets().values()]}

    @app.get("/api/agents")
    async def get_agents():
        return {"agents": list(AGENTS), "about": {name: STRENGTH.get(name, "") for name in AGENTS}}

    @app.get("/api/tiles")
    async def get_tiles():
        return {"tiles": TOKENS, "directions": [{"name": n, "values": list(v)}
                                                for n, v in zip(DIRECTION_NAMES, DIRECTION_VALUES)],
                "palettes": {name: {str(v): {"name": c[0], "hex": c[1]} for v, c in pal.items()}
                             for name, pal in PALETTES.items()},
                "symbols": list(SYMBOL_NAMES),
                # the sun or moon each tile carries (the shipped map: the server never reads a map file)
                "symbol_of": {token: SYMBOL_NAMES[int(SYMBOLS[tile])] for tile, token in enumerate(TOKENS)},
                # what a caller says for each tile: its values, or a wildcard's name
                "names": {token: call_words(tile) for tile, token in enumerate(TOKENS)}}

    @app.get("/api/layouts/{name}")
    async def get_layout_json(name: str):
        return layout_json(name)

    @app.post("/api/score")
    async def score(body: msg.ScoreBoard):
        rules = Ruleset.from_options(server_options(body.preset, body.options))
        return score_record(rules, body.board)

    # searches (hints, round analyses) waiting or running, by the address that asked for them
    searching: collections.Counter[str] = collections.Counter()

    def too_many_searches(client: str) -> JSONResponse | None:
        """The 429 answer for an address with ``limits.searches`` searches waiting or running already, else None
        (and the search is counted: give it back with :func:`searched_for`)."""
        if limits.searches is not None and searching[client] >= limits.searches:
            # the search threads are shared by everyone: one address queueing many held up every other hint
            return _error(429, f"{client} has {limits.searches} hints or round analyses being searched already; "
                               "ask again when one has answered")
        searching[client] += 1
        return None

    def searched_for(client: str) -> None:
        searching[client] -= 1
        if not searching[client]:
            del searching[client]

    @app.post("/api/hint")
    async def hint(body: msg.HintRequest, request: Request):
        client = client_address(request)
        refusal = too_many_searches(client)
        if refusal is not None:
            return refusal
        try:
            return await _hint(body, request)
        finally:
            searched_for(client)

    async def _hint(body: msg.HintRequest, request: Request) -> dict:
        rules = Ruleset.from_options(server_options(body.preset, body.options))
        board = rules.parse_board(body.board)
        previous = parse_tile(body.previous_tile, allowed=rules.tile_set) if body.previous_tile else -1
        if body.announce:
            return await announce_hint(rules, board, previous, body, request)
        if body.others:
            raise InputError("others: the other boards are for \"announce\": true")
        if body.tile is None:
            raise InputError("tile: missing (or ask for \"announce\": true)")
        tile = parse_tile(body.tile, allowed=rules.tile_set)
        in_hand = [parse_tile(token, allowed=rules.tile_set) for token in body.in_hand]
        hints = await searched(ai_hint, rules, board, tile, None, previous, body.previous_cell,
                               agent=body.agent, in_hand=in_hand, asker=request)
        return {"board": format_board(board), "tile": TOKENS[tile], "agent": body.agent,
                "in_hand": [TOKENS[t] for t in in_hand], "hints": [h.to_json() for h in hints]}

    async def announce_hint(rules: Ruleset, board: np.ndarray, previous: int, body: msg.HintRequest,
                            request: Request) -> dict:
        if body.tile is not None or body.in_hand:
            raise InputError("announce: give only the board (no tile, no in_hand)")
        others = []
        for number, text in enumerate(body.others, start=1):
            try:
                others.append(rules.parse_board(text))
            except InputError as exc:
                raise InputError(f"other board {number}: {exc}") from None
        hints = await searched(ai_announce_hints, rules, board, None, previous, body.previous_cell,
                               agent=body.agent, others=others, asker=request)
        return {"board": format_board(board), "agent": body.agent, "announce": True,
                "hints": [h.to_json() for h in hints]}

    # -- lobby ---------------------------------------------------------------
    @app.get("/api/rooms")
    async def list_rooms():
        return {"rooms": await run_in_threadpool(master.listed)}

    @app.get("/api/scores")
    async def best_scores(preset: str = Query(default="standard", max_length=64),
                          limit: int = Query(default=10, ge=1, le=MAX_SCORES)):
        if preset not in presets():
            return _error(400, f"preset {preset!r}: expected one of {', '.join(presets())}")
        return {"preset": preset, "scores": await run_in_threadpool(master.best_scores, preset, limit)}

    async def with_open_room_place(request: Request, make):
        """``await make()``, which makes a room and returns ``(room, ...)``, holding a place among the asking
        address's open rooms (``RateLimits.open_rooms``), and its IPv6 /48's (:func:`client_site`); a 429 answer
        instead when either has none left."""
        if open_rooms is None or open_sites is None:  # no limit
            return await make()
        client = client_address(request)
        site = client_site(client)
        places: list[tuple[OpenRooms, str, list]] = []  # (counter, key, place) held
        for counter, key in ((open_rooms, client), (open_sites, site)):
            if key is None:
                continue
            place = await run_in_threadpool(counter.reserve, key, room_is_open)
            if place is None:
                for held, held_key, held_place in places:
                    held.release(held_key, held_place)
                hours = f"{master.idle_seconds / 3600:g}"
                return _error(429, f"{key} has {counter.most} open rooms already; finish one (a room made more "
                                   f"than {hours} hours ago, or a solo game or lobby left for an hour, no longer "
                                   "counts)", "open_rooms",
                              {"client": key, "most": counter.most, "hours": hours})
            places.append((counter, key, place))
        try:
            made = await make()
        except BaseException:
            for counter, key, place in places:
                counter.release(key, place)
            raise
        for counter, _, place in places:
            counter.made(place, made[0].code)
        return made

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: msg.CreateRoom, request: Request):
        made = await with_open_room_place(request, lambda: run_in_threadpool(
            master.create, body.mode, body.name, body.preset, body.options, body.agents, body.public, body.confirm))
        if not isinstance(made, tuple):
            return made  # refused
        room, token = made
        async with room_lock(room.code):
            wake_ais(room)  # the AI players' first moves follow the answer
            state = await run_in_threadpool(room.state, 0)
            return msg.Joined(code=room.code, player=0, token=token, state=state).model_dump()

    @app.post("/api/rooms/{code}/rematch", status_code=201)
    async def rematch(code: str, body: msg.Authorised, request: Request):
        """The host opens a new room for the same players (seats and tokens kept); the old room names it.
        Following a rematch already opened makes no room, so it spends none of the asker's room budget."""
        async with room_lock(code):
            opened = (await room_of(code)).rematch
        if opened is None:
            refusal = over_budget(buckets, "rooms", client_address(request))
            if refusal is not None:
                return refusal

        async def make():
            async with room_lock(code):
                room = await run_in_threadpool(master.rematch, code, body.token)
                old = await room_of(code)
                return room, old, await run_in_threadpool(hub.snapshot, old)

        made = await (make() if opened is not None else with_open_room_place(request, make))
        if not isinstance(made, tuple):
            return made  # refused
        room, old, views = made
        await hub.deliver(old.code, views)  # every page of the old room learns where the rematch is
        async with room_lock(room.code):
            wake_ais(room)
            seat = room.authenticate(body.token)  # the host's, or a player asking after the host opened it
            state = await run_in_threadpool(room.state, seat)
            return msg.Joined(code=room.code, player=seat, token=body.token, state=state).model_dump()

    @app.get("/api/rooms/{code}")
    async def get_room(code: str, since: int | None = Query(default=None, ge=-1, le=10**9),
                       token: str | None = Query(default=None, max_length=200),
                       x_player_token: str | None = Header(default=None, max_length=200)):
        async with room_lock(code):
            room = await room_of(code)
            wake_ais(room)
            seat = await seat_of(room, x_player_token or token, present=since is None)  # a poll is no sign of life
            if since is not None and since >= room.version:
                return {"ok": True, "changed": False, "version": room.version}
            state = await run_in_threadpool(room.state, seat)
            return {"ok": True, "changed": True, "version": room.version, "state": state}

    analyses: OrderedDict[tuple[str, int], dict] = OrderedDict()
    analysing: dict[tuple[str, int], asyncio.Future] = {}

    @app.get("/api/rooms/{code}/analysis")
    async def analysis(code: str, request: Request):
        async with room_lock(code):
            room = await room_of(code)
            kind, data = room.analysis_input()
            key = (room.code, room.round)
        if key not in analyses:
            task = analysing.get(key)
            if task is None:  # one search per round, however many players ask at once
                # counted as a hint is: one address asking for the analyses of many finished rounds (tens of
                # seconds each) held up every hint on the server for minutes
                client = client_address(request)
                refusal = too_many_searches(client)
                if refusal is not None:
                    return refusal
                task = analysing[key] = asyncio.ensure_future(searched(analyse_round, room.rules, kind, data))

                def done(_, key=key, client=client) -> None:
                    analysing.pop(key, None)
                    searched_for(client)

                task.add_done_callback(done)
            report = await asyncio.shield(task)
            analyses[key] = report
            while len(analyses) > ANALYSES_KEPT:
                analyses.popitem(last=False)
        analyses.move_to_end(key)
        return {"ok": True, "round": key[1], "analysis": analyses[key]}

    @app.post("/api/rooms/{code}/join", status_code=201)
    async def join(code: str, body: msg.Join):
        room, (_, _, (seat, token, _)), state = await changed(code, lambda: master.act(code, "join", body.name),
                                                              lambda result: result[2][0])
        return msg.Joined(code=room.code, player=seat, token=token, state=state).model_dump()

    @app.post("/api/rooms/{code}/add", status_code=201)
    async def add_player(code: str, body: msg.AddPlayer):
        def add():
            room = master.get(code)  # in a worker thread already
            seat = room.authenticate(body.token)
            if seat != 0:
                raise Forbidden(f"only the host ({room.seats[0].name}) may add players")
            if body.agent is not None:
                master.act(code, "join", body.name or room.free_name(f"{body.agent} {len(room.seats)}"), "ai",
                           body.agent)
            elif room.digital:
                raise RoomError("add: give an agent name for an AI seat (people join with the room code)")
            else:
                master.act(code, "join", body.name or "", "table")
            return seat

        return {"ok": True, "state": (await changed(code, add))[2]}

    async def action(code: str, token: str, name: str, *args):
        def act():
            room, _, _ = master.act(code, name, *args, token=token)  # the seat is found inside, on the room as it is
            return room.seat_with(hash_token(token))  # None once a player left; the host's index never moves

        return {"ok": True, "state": (await changed(code, act))[2]}

    @app.post("/api/rooms/{code}/remove")
    async def remove(code: str, body: msg.Remove):
        return await action(code, body.token, "remove", body.player, body.name)

    @app.post("/api/rooms/{code}/start")
    async def start(code: str, body: msg.Authorised):
        return await action(code, body.token, "start")

    @app.post("/api/rooms/{code}/next")
    async def next_round(code: str, body: msg.Authorised):
        return await action(code, body.token, "next_round")

    @app.post("/api/rooms/{code}/draw")
    async def draw(code: str, body: msg.Authorised):
        return await action(code, body.token, "draw")

    @app.post("/api/rooms/{code}/place")
    async def place(code: str, body: msg.Place):
        return await action(code, body.token, "place", body.cell, body.tile)

    @app.post("/api/rooms/{code}/move")
    async def move(code: str, body: msg.Move):
        return await action(code, body.token, "move", body.cell, body.tile)

    @app.post("/api/rooms/{code}/announce")
    async def announce(code: str, body: msg.Announce):
        return await action(code, body.token, "announce", body.tile)

    @app.post("/api/rooms/{code}/settle")
    async def settle(code: str, body: msg.Settle):
        return await action(code, body.token, "settle", [(r.tile, r.cell) for r in body.releases])

    @app.post("/api/rooms/{code}/call")
    async def call(code: str, body: msg.Call):
        return await action(code, body.token, "call", body.called)

    @app.post("/api/rooms/{code}/uncall")
    async def uncall(code: str, body: msg.Authorised):
        return await action(code, body.token, "uncall")

    @app.post("/api/rooms/{code}/entry")
    async def entry(code: str, body: msg.Entry):
        return await action(code, body.token, "entry", body.player, body.board, body.score)

    @app.post("/api/rooms/{code}/end-round")
    async def end_round(code: str, body: msg.Authorised):
        return await action(code, body.token, "end_round")

    @app.post("/api/rooms/{code}/standin")
    async def standin(code: str, body: msg.StandIn):
        return await action(code, body.token, "standin", body.player, body.agent)

    @app.post("/api/rooms/{code}/reclaim")
    async def reclaim(code: str, body: msg.Authorised):
        return await action(code, body.token, "reclaim")

    live_of: collections.Counter[str] = collections.Counter()  # live connections open, by client address

    @app.websocket("/api/rooms/{code}/ws")
    async def live(socket: WebSocket, code: str, token: str | None = None):
        await socket.accept()
        try:
            async with room_lock(code):  # seat_of may share the player's presence: nobody acts on the room meanwhile
                room = await room_of(code)
                seat = await seat_of(room, token)
        except RoomError as exc:
            await socket.send_json({"type": "error", "error": str(exc)})
            await socket.close(code=4000 + exc.status)
            return
        who = None if seat is None else room.seats[seat].token_hash
        most = listeners_per_room if seat is None else LISTENERS_PER_SEAT
        if hub.count_of(room.code, who) >= most:
            whose = "onlookers" if seat is None else room.seats[seat].name
            await socket.send_json({"type": "error", "error": f"room {room.code} has {most} live connections of "
                                                              f"{whose} already; poll GET /api/rooms/CODE instead"})
            await socket.close(code=4429)
            return
        client = client_address(socket)
        if limits.live is not None and live_of[client] >= limits.live:
            # each is a socket held open (a file descriptor): one address opening many across rooms would take the
            # server's every one, and nobody could connect
            await socket.send_json({"type": "error", "error": f"{client} has {limits.live} live connections already; "
                                                              "poll GET /api/rooms/CODE instead"})
            await socket.close(code=4429)
            return
        live_of[client] += 1
        hub.add(room.code, socket, who)
        connection = secrets.token_hex(8)  # its bucket of messages (an id() comes back for a later socket)
        try:
            async with room_lock(code):
                room = await room_of(code)
                wake_ais(room)
                state = await run_in_threadpool(room.state, room.seat_with(who))
                hub.mark(socket, who, room.version)  # a change stored from now on is sent too (see watch)
            await socket.send_json({"type": "state", "state": state})
            while True:  # clients only ping; actions go over HTTP
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if socket_messages.take(connection):  # each ping reads storage: a flood is closed
                    await socket.send_json({"type": "error", "error": f"more than {SOCKET_MESSAGES.burst} messages "
                                                                      "at once; ping at most once a second"})
                    await socket.close(code=4429)
                    break
                if message.get("text") == "ping":
                    await socket.send_json({"type": "pong", "version": (await room_of(code)).version})
                else:  # binary frames too: receive_text() raised on them
                    await socket.send_json({"type": "error", "error": "the only message is the text ping; "
                                                                      "actions go over HTTP"})
        except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
            pass
        finally:
            hub.remove(room.code, socket, who)
            socket_messages.forget(connection)
            live_of[client] -= 1
            if not live_of[client]:
                del live_of[client]

    # -- the front end -------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
