"""The authoritative room master: every room's state lives here, and every action goes through the engine.

A :class:`Room` is one table: solo (one person, optional AI opponents),
``room`` (friends joining by code, optional AI seats) or ``caller`` (a
physical table: the server draws and announces tiles and keeps the scores).
It wraps :class:`~takeiteasy.core.game.Match` and
:class:`~takeiteasy.core.game.Game`; the engine validates every move.

Anti-cheat model:

* the seed and the deal never leave the server: a view shows only tiles
  already drawn (and, with no caller, the public set of tiles not drawn);
* every player gets a secret token on joining; only its SHA-256 is kept, and
  every action needs the token, so nobody acts for someone else;
* a view shows other players' boards only when the rules let players look
  (no caller) or once the round is over;
* every action is an event applied through the engine; a refused action
  changes nothing (the room is rebuilt from storage if anything slipped).

:class:`RoomMaster` keeps rooms in memory, loads them from a
:class:`~takeiteasy.server.store.Store` on first use, and persists the events
of each accepted action before it returns.

AI seats never act inside a person's action: an action stores only its own
events (and a caller's draw, which needs nobody's decision).  The server then
asks :meth:`Room.ai_turns` for the steps the AI seats owe, lets their agents
think on copies (at the same time: players place at once), and applies each
result with :meth:`Room.ai_move` (see ``create_app``'s AI jobs).

A room waits for every person, so one who went away would hold it up for ever: once the game has waited
:data:`STANDIN_GRACE_SECONDS` for a seat with no sign of its player, another player may hand that seat to an
AI (:meth:`Room.standin`), which then plays it like any AI seat until the player takes it back
(:meth:`Room.reclaim`).  Both are events.  When players were last seen is each server's memory, shared with the
other servers on the same database through storage (:meth:`RoomMaster.share_presence`), so that none offers a
stand-in for a player who plays through another; if storage cannot keep it, each server goes by its own.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from ..ai import AGENTS, Agent, make_agent
from ..core.deal import MASK64, SplitMix64, deal as seeded_deal, game_seed
from ..core.errors import InputError
from ..core.game import (MAX_NAME, MAX_PLAYERS, Game, IllegalMove, Match, NameRefused, View, clean_name, group_sizes,
                         name_key, same_name)
from ..core.layouts import LAYOUT_NAMES
from ..core.notation import call_words, format_board, parse_board, parse_tile
from ..core.presets import preset as preset_options, preset_of
from ..core.rules import Options, Ruleset
from ..core.tiles import TOKENS
from .store import Store, StoreConflict, StoreError

LOG = logging.getLogger("takeiteasy.server")
T = TypeVar("T")  # what RoomMaster._new_room returns with the room

MODES = ("solo", "room", "caller")
# MAX_NAME and MAX_PLAYERS (core.game) bound a room's names and seats, as they bound the terminal's tables
MAX_AGENTS = 5
# an AI's search follows the tiles in hand (bounded, agents.HAND_LEAVES): with 3 in hand `best` takes 2.6 s a move
# on average, the first of each hand several seconds, too slow for people waiting at a table
MAX_AI_DRAW = 2
MAX_ACTIVE_ROOMS = 500
IDLE_HOURS = 24.0  # an unfinished room untouched this long stops counting as open (it can still be resumed)
# a solo game or a lobby untouched this long stops counting sooner: a player who starts a new game leaves the old
# one unfinished, and a day of such games filled the server's open rooms, as lobbies made by a few addresses did
# (either can still be resumed, and counts again when it changes)
QUIET_MINUTES = 60
WATCHED_MINUTES = 30  # a game under way is listed to watch while someone moved this recently
ROOMS_IN_MEMORY = 256  # rooms kept replayed in memory; the others are rebuilt from storage when next used
MAX_SCORE = 2000  # a typed-in score above this is a typo (307 is the standard maximum)
# moves of one player between two draws, and score entries for one player by one person between two calls: every
# event is stored and replayed on loading, so one client must not grow a room without end
MAX_REPEATS = 20
# every event is stored and replayed: a room takes at most MAX_PLAYERS + MAX_REMOVALS joins (its removals are
# bounded by them), so joining and leaving again and again cannot grow it without end
MAX_REMOVALS = 40
# a room waits for every player: a seat the game has waited for this long with no sign of its player (no action,
# no state read with its token) may be handed to an AI by another player, so one who went away holds nobody up
STANDIN_GRACE_SECONDS = 60.0
# how often a server stores that it saw a player (at most once this long per player and server, so a busy room does
# not write on every request) and asks storage whom the other servers saw; while an AI may stand in for someone,
# it asks at most once this long (every request would otherwise ask, and a request may ask twice)
PRESENCE_SECONDS = 5.0
PRESENCE_AT_STAKE_SECONDS = 1.0
STANDIN_AGENT = "fast"  # quick enough that the others barely wait for the stand-in
# the agents a stand-in may be: it plays for someone else, so another player may not hand the seat to a weak one
STANDIN_AGENTS = ("fast", "expectimax", "best")
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6
ACTIVE = ("lobby", "playing", "round_over")


class RoomError(InputError):
    """An action the room refuses; ``status`` is the HTTP status that fits.  Refusals a player meets in the
    web app's normal use also carry a ``key`` and its ``params``, by which the page words them in its language."""

    status = 400

    def __init__(self, text: str, key: str | None = None, **params) -> None:
        super().__init__(text)
        self.key, self.params = key, params


class NotFound(RoomError):
    status = 404


class Forbidden(RoomError):
    status = 403


class Conflict(RoomError):
    status = 409


class Busy(RoomError):
    status = 503


class _Moved(Exception):
    """An append found the room's stored version moved (see :meth:`RoomMaster.act`)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_name(name: str) -> str:
    """A player's name as every table seats it (``core.game.clean_name``: the terminal's ``play`` and ``call``
    seat the same names), refused as a :class:`RoomError`."""
    try:
        return clean_name(name)
    except NameRefused as exc:  # the page leaves the check to the server (it cannot clean a name as the server does)
        raise RoomError(str(exc), exc.key, **exc.params) from None
    except InputError as exc:  # not text: the API's models let none through
        raise RoomError(str(exc)) from None


def server_options(preset: str | None, options: dict | None) -> Options:
    """Options from a preset name and overrides; refuses files on the server's disk."""
    base = preset_options(preset) if preset else Options()
    data = base.to_json()
    if options:
        data.update(options)
    result = Options.from_json(data)
    if result.board not in LAYOUT_NAMES:
        raise RoomError(f"board {result.board!r}: the server plays only {', '.join(LAYOUT_NAMES)}")
    if result.symbols is not None and not result.symbols.lstrip().startswith("{"):
        raise RoomError('symbols: give the sun/moon map itself, {"symbols": {"574": "sun", ...}}; the server '
                        "reads no files")
    return result


@dataclass
class Seat:
    name: str
    kind: str  # human | ai | table (caller mode: a person at the table without a device)
    agent: str | None = None
    token_hash: str | None = None
    standin: bool = False  # a person's seat an AI plays (kind "ai") until they reclaim it

    def public(self, index: int) -> dict:
        return {"index": index, "name": self.name, "kind": self.kind, "agent": self.agent, "standin": self.standin}


@dataclass
class AITurn:
    """One step an AI seat owes a room, with copies of what the agent needs.

    The agent thinks (:meth:`think`, in a worker thread) without holding the room, so people keep playing
    and reading the room meanwhile; :meth:`Room.ai_move` then applies the chosen event under the room's
    lock, through the engine like any other.
    """

    seat: int
    what: str  # place | settle | draw (no caller: announce the next tiles)
    position: tuple  # the room's position the step is decided on (Room._ai_position)
    agent: Agent
    view: View | None = None  # place, settle: the seat's view (boards copied)
    game: Game | None = None  # draw: a copy of the game to draw on

    def think(self) -> dict:
        """The event this step makes (may take seconds; touches only copies)."""
        agent, view, game = self.agent, self.view, self.game
        if self.what == "place":
            assert view is not None  # Room.ai_turns gives a place the seat's view
            if hasattr(agent, "choose_move") and len(view.pending) > 1:
                tile, cell = agent.choose_move(view)
            else:
                tile, cell = view.tile, agent.choose(view)
            return {"t": "place", "p": self.seat, "cell": int(cell), "tile": int(tile)}
        assert game is not None  # Room.ai_turns gives a settle and a draw a copy of the game
        if self.what == "settle":
            releases = agent.settle(view) if hasattr(agent, "settle") else game.best_release(self.seat)
            return {"t": "settle", "p": self.seat, "releases": [[int(t), int(c)] for t, c in releases]}
        agents = [agent if p == self.seat else None for p in range(len(game.players))]
        before = len(game.drawn)
        game.draw_next(agents)  # the agent's announce hook picks the tiles
        return {"t": "draw", "tiles": [int(t) for t in game.drawn[before:]]}


class Room:
    """One room, rebuilt from its creation record and events (see module docstring)."""

    #: seconds the game waits for a seat with no sign of its player before an AI may stand in (None: the default,
    #: :data:`STANDIN_GRACE_SECONDS`); a server setting (``takeiteasy serve --standin-seconds``), not stored
    standin_grace: float | None = None

    def __init__(self, record: dict, events: Sequence[dict] = ()):
        self.record = record
        self.code: str = record["code"]
        self.mode: str = record["mode"]
        self.options = Options.from_json(record["options"], saved=True)  # a room stored before a refusal
        self.rules = Ruleset.from_options(self.options)
        self.seed: int = record["seed"]
        self.seats: list[Seat] = []
        self.status = "lobby"
        self.match: Match | None = None
        self.game: Game | None = None
        self.round = -1
        self.last_group: list[int] = []
        self.called = 0  # caller mode: tiles called this round
        self.caller_deal: list[int] = []
        self.entries: dict[int, dict] = {}  # caller mode: this round's typed-in scores
        self._best_called: tuple[int, int] | None = None  # caller mode: (round, best board of its called tiles)
        self.events: list[dict] = []
        self._agents: dict[int, Agent] = {}
        # solo with confirm: the next tile is drawn only when the player asks (with no caller the request is an
        # "ask" event, since an AI announces the tile later, perhaps on a room rebuilt from storage)
        self.confirm = bool(record.get("confirm"))
        self._draw_asked = False
        self.stood_in: set[int] = set()  # seats an AI played at some time this round (kept off the best scores)
        self.rematch: str | None = None  # the room the host opened for the same players once this one finished
        for event in events:
            self._apply(event)
            self.events.append(event)
        # when each seat last showed a sign of life here, and since when the game waits for each seat it waits for:
        # in memory (not events), so a room just loaded counts everyone as present now
        self._loaded_at = time.monotonic()
        self._seen: dict[int, float] = {}
        self._owed_since: dict[int, float] = {}
        # presence shared through storage, by player (their token's hash: it stays theirs when seats move up): when
        # other servers saw them, and which of this server's sightings storage has; just loaded, storage has
        # nothing newer to say than that everyone is present
        self._seen_elsewhere: dict[str, float] = {}
        self._stored_sightings: dict[str, float] = {}
        self._presence_read = self._loaded_at
        self._track_owed()

    # -- facts ---------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def digital(self) -> bool:
        return self.mode != "caller"

    @property
    def awaiting_draw(self) -> bool:
        """Solo with confirm: every drawn tile is placed and the next draw waits for the player to ask.

        Not when a person announces the next tile (no caller): the announcement is the draw."""
        game = self.game
        if not (self.confirm and self.status == "playing" and game is not None and bool(game.drawn)
                and not game.waiting and not game.all_drawn and not self._draw_asked):
            return False
        if self.options.caller:
            return True
        assert game.chooser is not None  # no caller, and tiles are left
        return self.seats[game.chooser].kind == "ai"

    @property
    def takes_late_players(self) -> bool:
        """A caller room takes players until its first round is ended: each plays on their own physical board,
        so a late phone (or a person the host forgot to add) catches up from the tiles called so far.  Screen
        games do not: the tiles already drawn were never theirs to place."""
        return not self.digital and self.status == "playing" and not self._match.results

    @property
    def joins_used_up(self) -> bool:
        """Whether the room has taken its MAX_PLAYERS + MAX_REMOVALS joins (see :data:`MAX_REMOVALS`)."""
        return sum(event["t"] == "join" for event in self.events) >= MAX_PLAYERS + MAX_REMOVALS

    def summary(self) -> dict:
        """The public record the home page lists: a public room of friends or caller room is listed while it is
        open, to join (``joinable``) or else to watch."""
        joinable = ((self.status == "lobby" or self.takes_late_players) and len(self.seats) < MAX_PLAYERS
                    and not self.joins_used_up)
        return {"code": self.code, "mode": self.mode, "status": self.status, "preset": self.record.get("preset"),
                "players": [s.name for s in self.seats], "max_players": MAX_PLAYERS,
                "listed": bool(self.record.get("public")) and self.mode != "solo" and self.status in ACTIVE,
                "joinable": joinable, "round": self.round, "rounds": self.options.rounds,
                "created": self.record.get("created"), "changed": time.time()}

    def authenticate(self, token, present: bool = True) -> int:
        """The seat index a token belongs to; ``present``: the request is a sign of its player's presence (a
        page polling for changes is not: it polls as well with nobody in front of it)."""
        if not isinstance(token, str) or not token:
            raise Forbidden("token: missing; every action needs the token you got when joining")
        if len(token) > 200:
            raise Forbidden(f"token: {len(token)} characters, not a player's token in room {self.code}")
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                if present:  # the player is here: no stand-in for a while
                    self._seen[index] = time.monotonic()
                return index
        raise Forbidden(f"token: not a player's token in room {self.code}")

    # -- events --------------------------------------------------------------
    def _apply(self, event: dict) -> None:
        """Apply one event through the engine (live and on replay).  Raises before changing anything."""
        kind = event["t"]
        if kind == "join":
            self.seats.append(Seat(event["name"], event["kind"], event.get("agent"), event.get("token")))
            if self.match is not None:  # a caller room's first round: a late player (see join)
                self.match.players.append(event["name"])
        elif kind == "remove":  # in the lobby, or a caller room's first round (see remove)
            gone = int(event["p"])
            del self.seats[gone]
            if self.match is not None:  # the seat has no entry, and no round has results yet
                del self.match.players[gone]
                self.entries = {p - (p > gone): e for p, e in self.entries.items()}
        elif kind == "start":
            self.match = Match(self.rules, [s.name for s in self.seats], seed=self.seed)
            self._new_round()
        elif kind == "next":
            self._new_round()
        elif kind == "draw":
            self.last_group = self._game.draw([int(t) for t in event["tiles"]])
            self._draw_asked = False
        elif kind == "announce":
            turned = self._game.announce(int(event["tile"]))
            if turned:
                self.last_group = turned
            self._draw_asked = False
        elif kind == "ask":
            self._draw_asked = True
        elif kind == "place":
            self._game.place(int(event["p"]), int(event["cell"]), int(event["tile"]))
        elif kind == "move":
            self._game.move(int(event["p"]), int(event["cell"]), int(event["tile"]))
        elif kind == "settle":
            self._game.settle(int(event["p"]), [(int(t), int(c)) for t, c in event["releases"]])
        elif kind == "call":
            size = self._call_sizes()[self._groups_called()]
            self.last_group = self.caller_deal[self.called: self.called + size]
            self.called += size
        elif kind == "uncall":
            sizes = self._call_sizes()[: self._groups_called()]
            self.called -= sizes[-1]
            previous = sizes[-2] if len(sizes) > 1 else 0
            self.last_group = self.caller_deal[self.called - previous: self.called]
        elif kind == "entry":
            self.entries[int(event["p"])] = {"score": int(event["score"]), "board": event.get("board")}
        elif kind == "end":
            self._match.results.append([int(s) for s in event["scores"]])
            self.status = "finished" if self._match.finished else "round_over"
        elif kind == "standin":
            seat = self.seats[int(event["p"])]
            seat.kind, seat.agent, seat.standin = "ai", event["agent"], True
            self._agents.pop(int(event["p"]), None)
            self.stood_in.add(int(event["p"]))
        elif kind == "rematch":
            self.rematch = event["code"]
        elif kind == "reclaim":
            seat = self.seats[int(event["p"])]
            seat.kind, seat.agent, seat.standin = "human", None, False
            self._agents.pop(int(event["p"]), None)
        else:
            raise ValueError(f"unknown event {kind!r}")
        if self.game is not None and self.status == "playing" and self.game.finished:
            self._match.record(self.game)
            self.status = "finished" if self._match.finished else "round_over"

    def _new_round(self) -> None:
        self.round += 1
        self.status = "playing"
        self.last_group = []
        self._agents = {}
        self.stood_in = {p for p, seat in enumerate(self.seats) if seat.standin}
        if self.digital:
            self.game = self._match.new_round()
        else:
            n = self.rules.tiles_per_round
            self.caller_deal = seeded_deal(game_seed(self.seed, self.round), self.rules.tile_set, n)
            self.called = 0
            self.entries = {}

    def _call_sizes(self) -> list[int]:
        return group_sizes(self.rules.tiles_per_round, self.options.draw)

    def _groups_called(self) -> int:
        sizes, total, groups = self._call_sizes(), 0, 0
        while total < self.called:
            total += sizes[groups]
            groups += 1
        return groups

    def _emit(self, out: list[dict], event: dict) -> None:
        self._apply(event)
        self.events.append(event)
        out.append(event)
        self._track_owed()

    # -- absent players: an AI may stand in (bookkeeping in memory, not events; the stand-in itself is one) --
    def _owed_by(self) -> set[int]:
        """The seats the game waits for now: to place, settle, or (no caller) announce the next tiles; between the
        rounds of a room of friends, the host, who starts the next."""
        if self.mode == "room" and self.status == "round_over":  # a host gone away held everyone up for good
            return {0} if self.seats[0].kind == "human" and not self.seats[0].standin else set()
        game = self.game
        if not self.digital or self.status != "playing" or game is None:
            return set()
        if game.waiting:
            return set(game.waiting)
        if game.chooser is not None and not self.awaiting_draw:
            return {game.chooser}
        return set()

    def _track_owed(self) -> None:
        now = time.monotonic()
        self._owed_since = {p: self._owed_since.get(p, now) for p in self._owed_by()}

    def _idle_seconds(self, seat: int) -> float:
        """How long the game has waited for ``seat`` with no sign of its player (a player who was waiting
        for the others is not idle: the clock starts when the game starts waiting for them)."""
        token_hash = self.seats[seat].token_hash  # None: an AI seat, seen nowhere else
        elsewhere = -math.inf if token_hash is None else self._seen_elsewhere.get(token_hash, -math.inf)
        since = max(self._seen.get(seat, self._loaded_at), self._owed_since.get(seat, time.monotonic()), elsewhere)
        return max(0.0, time.monotonic() - since)

    # -- presence shared with the other servers on the same database (RoomMaster.share_presence asks storage) --
    @property
    def shares_presence(self) -> bool:
        """Whether other servers need to know when this room's players were seen: only during a round of a room of
        friends, where a seat the game waits for may go to an AI (a sighting from before the round is older than
        any wait it could shorten)."""
        return self.mode == "room" and self.status in ("playing", "round_over")

    def unshared_sightings(self) -> dict[str, float]:
        """``{player: when seen}`` (``time.monotonic()``) for the players this server saw that storage should
        learn of: each seen :data:`PRESENCE_SECONDS` or more after its sighting storage has, so a busy room writes
        at most that often per player, and a sighting storage lacks is less than that after one it has."""
        if not self.shares_presence:
            return {}
        due = {}
        for p, when in list(self._seen.items()):  # a copy: the event loop may add a sighting meanwhile
            player = self.seats[p].token_hash
            if player and when >= self._stored_sightings.get(player, -math.inf) + PRESENCE_SECONDS:
                due[player] = when
        return due

    def sightings_stored(self, sightings: dict[str, float]) -> None:
        """Storage has these of :meth:`unshared_sightings`."""
        self._stored_sightings.update(sightings)

    def presence_wanted(self, fresh: bool = False) -> bool:
        """Whether to ask storage whom other servers saw: every :data:`PRESENCE_SECONDS`, every
        :data:`PRESENCE_AT_STAKE_SECONDS` while the game has waited past the grace for a person (an AI may be
        offered for them), and now if ``fresh`` (an AI is to stand in)."""
        if not self.shares_presence:
            return False
        since = time.monotonic() - self._presence_read
        if fresh or since >= PRESENCE_SECONDS:
            return True
        if since < PRESENCE_AT_STAKE_SECONDS:
            return False
        grace = self._standin_grace()
        return any(self.seats[p].kind == "human" and self._idle_seconds(p) >= grace for p in self._owed_by())

    def seen_elsewhere(self, ages: dict[str, float]) -> None:
        """Take in when other servers saw players, ``{player: seconds ago}`` (:meth:`Store.seen`).  Another server
        may have seen a player up to :data:`PRESENCE_SECONDS` after the sighting it stored (see
        :meth:`unshared_sightings`): counted as seen that much later, a stand-in comes at worst that much late,
        never early."""
        now = self._presence_read = time.monotonic()
        for player, age in ages.items():
            when = now - max(0.0, age - PRESENCE_SECONDS)
            self._seen_elsewhere[player] = max(self._seen_elsewhere.get(player, when), when)

    def _standin_refusal(self, seat: int, target) -> RoomError | None:
        """Why ``seat`` may not hand ``target``'s seat to an AI now, idleness aside (None: it may)."""
        if self.mode != "room":
            return RoomError(f"an AI stands in only in a room of friends; this is a {self.mode} room")
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(self.seats):
            return RoomError(f"player {target}: there is no such player")
        if self.options.draw > MAX_AI_DRAW:
            return RoomError(f"AI players play games of at most {MAX_AI_DRAW} tiles at a time, not {self.options.draw}")
        name = self.seats[target].name
        if self.seats[seat].standin:
            return Forbidden("an AI is playing for you; take your seat back first")
        if target == seat:
            return RoomError("you cannot let an AI play for yourself; if you go away, the others may")
        if self.seats[target].standin:
            return Conflict(f"an AI is already playing for {name}")
        if self.seats[target].kind != "human":
            return RoomError(f"{name} is an AI player")
        if self.status != "playing" and not (self.status == "round_over" and target == 0):
            return Conflict(f"an AI stands in only during a round (or, between rounds, for the host); the room is "
                            f"{self.status.replace('_', ' ')}")
        if target not in self._owed_by():
            return Conflict(f"the game is not waiting for {name}")
        return None

    def _standin_grace(self) -> float:
        return STANDIN_GRACE_SECONDS if self.standin_grace is None else self.standin_grace

    def standin_wait(self, seat: int, target: int) -> float | None:
        """Seconds until ``seat`` may hand ``target``'s seat to an AI (0: now), or None if it may not this turn."""
        if self._standin_refusal(seat, target) is not None:
            return None
        return max(0.0, self._standin_grace() - self._idle_seconds(target))

    def free_name(self, name: str) -> str:
        """``name``, or with a mark added if a player has it already (an AI player named after its agent)."""
        taken = {name_key(s.name) for s in self.seats}
        candidates = (name, *(f"{name}{chr(ord('a') + k)}" for k in range(26)))
        return next((c for c in candidates if name_key(c) not in taken), name)

    # -- actions (each returns the new events; raises with the room unchanged) ----
    def join(self, name: str, kind: str = "human", agent: str | None = None) -> tuple[int, str | None, list[dict]]:
        if kind == "ai" and agent not in AGENTS:  # first: an AI seat added by the host is named after its agent
            raise RoomError(f"agent {agent!r}: expected one of {', '.join(AGENTS)}")
        name = seat_name(name)
        # the kind of room first: a solo game has always started, and "players join before the host starts" misled
        if self.mode == "solo" and self.seats and kind == "human":
            raise Conflict(f"room {self.code} is a solo game", "solo_room", code=self.code)
        if self.options.solitaire and self.seats:  # it could never start: solitaire is for one player
            raise Conflict(f"room {self.code} is a solitaire game, for its one player", "solitaire_room",
                           code=self.code)
        if self.status != "lobby" and not self.takes_late_players:
            raise Conflict(f"room {self.code} has started; players join before the host starts"
                           + (" or during the first round" if not self.digital else ""),
                           "room_started" if self.digital else "room_started_caller", code=self.code)
        if len(self.seats) >= MAX_PLAYERS:
            raise Conflict(f"room {self.code} is full ({MAX_PLAYERS} players)", "room_full", code=self.code,
                           most=MAX_PLAYERS)
        if self.joins_used_up:
            # joins, not removals, are counted: a stranger joining and leaving must not stop the host removing
            raise Conflict(f"room {self.code} has seen {MAX_PLAYERS + MAX_REMOVALS} players join; no more may "
                           "join it (make a new room)")
        if any(name_key(s.name) == name_key(name) for s in self.seats):
            raise Conflict(f"name {name!r} is taken in room {self.code}", "name_taken", name=repr(name),
                           code=self.code)
        if kind == "ai":
            if not self.digital:
                raise RoomError("a caller room is for people at a physical table; AI players play on the screen")
            if sum(s.kind == "ai" for s in self.seats) >= MAX_AGENTS:
                raise Conflict(f"at most {MAX_AGENTS} AI players in a room")
            if self.options.draw > MAX_AI_DRAW:
                raise RoomError(f"AI players play games of at most {MAX_AI_DRAW} tiles at a time, not "
                                f"{self.options.draw}: their search over a bigger hand would stall the server")
        token = secrets.token_urlsafe(24) if kind == "human" else None
        event = {"t": "join", "name": name, "kind": kind, "agent": agent if kind == "ai" else None,
                 "token": hash_token(token) if token else None}
        out: list[dict] = []
        self._emit(out, event)
        return len(self.seats) - 1, token, out

    def remove(self, seat: int, target, name: str | None = None) -> list[dict]:
        """Before the start: the host takes a seat out of the room (an AI added by mistake, a person who will
        not play), or a player who is not the host leaves.  The seats after it move up one place: nothing
        refers to a seat by its index before the start (tokens name their seat by themselves).  ``name``, if
        given, must be the seat's: a page that had not seen a seat before it go would remove the wrong one.  It is
        cleaned and compared as the room compares names (``core.game.same_name``: "bob  smith" is "Bob Smith").

        A caller room takes late players during its first round (:attr:`takes_late_players`), a listed one
        strangers too: until that round ends a seat with no entry yet may go as well (only its entry, which it
        has none of, would name it by its index)."""
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(self.seats):
            raise RoomError(f"player {target}: there is no such player")
        if name is not None and not same_name(name, self.seats[target].name):
            raise Conflict(f"player {target} is {self.seats[target].name}, not {name}: the seats have changed; "
                           "look again")
        if self.status != "lobby" and not self.takes_late_players:
            raise Conflict(f"room {self.code} has started; players leave only before the host starts"
                           + (" or during the first round" if not self.digital else ""))
        if target in self.entries and self.status != "lobby":
            raise Conflict(f"{self.seats[target].name} has entered a score this round; a player with an entry "
                           "stays until the round is over")
        if target == 0:
            raise RoomError("the host cannot leave the lobby; a room nobody starts simply lapses")
        if seat != 0 and target != seat:
            raise Forbidden(f"only the host ({self.seats[0].name}) may remove another player")
        out: list[dict] = []
        self._emit(out, {"t": "remove", "p": target})
        self._seen = {p - (p > target): t for p, t in self._seen.items() if p != target}
        return out

    def seat_with(self, token_hash: str | None) -> int | None:
        """The index of the seat holding the token with this hash now (None: no seat, or a removed one)."""
        if token_hash is None:
            return None
        return next((p for p, s in enumerate(self.seats) if s.token_hash == token_hash), None)

    def start(self, seat: int) -> list[dict]:
        self._host_only(seat, "start the game")
        if self.status != "lobby":
            raise Conflict(f"room {self.code} has already started")
        if self.options.solitaire and len(self.seats) != 1:
            raise RoomError(f"solitaire is for one player; this room has {len(self.seats)}")
        out: list[dict] = []
        self._emit(out, {"t": "start"})
        self._advance(out)
        return out

    def next_round(self, seat: int) -> list[dict]:
        if not (self.seats[0].standin and self.seats[seat].kind == "human"):  # a host who went away holds nobody up
            self._host_only(seat, "start the next round")
        if self.status != "round_over":
            raise Conflict("the next round starts once this round is over" if self.status == "playing"
                           else f"no next round: the room is {self.status.replace('_', ' ')}")
        out: list[dict] = []
        self._emit(out, {"t": "next"})
        self._advance(out)
        return out

    def place(self, seat: int, cell, tile=None) -> list[dict]:
        game = self._playing()
        self._own_seat(seat)
        tile = self._pending_tile(seat, tile)
        reason = self.rules.refusal(game.boards[seat], tile, cell, game.previous_tile(seat), game.previous_cell(seat))
        if reason:
            raise IllegalMove(reason)
        out: list[dict] = []
        self._emit(out, {"t": "place", "p": seat, "cell": cell, "tile": tile})
        self._advance(out)
        return out

    def move(self, seat: int, cell, tile=None) -> list[dict]:
        game = self._playing()
        self._own_seat(seat)
        if tile is None:
            if not game.movable[seat]:
                raise IllegalMove("only a tile placed since the last draw may be moved")
            tile = game.movable[seat][-1]
        else:
            tile = self._tile(tile)
        if not 0 <= cell < self.rules.board_size:
            raise IllegalMove(f"cell {cell} is not on the board (0..{self.rules.board_size - 1})")
        if self._repeats("move", seat, ("place", "move")) >= MAX_REPEATS:
            raise IllegalMove(f"at most {MAX_REPEATS} moves between two draws")
        trial = self._trial()
        trial.move(seat, cell, tile)  # raises with the real game untouched
        out: list[dict] = []
        self._emit(out, {"t": "move", "p": seat, "cell": cell, "tile": tile})
        return out

    def draw(self, seat: int) -> list[dict]:
        """Solo with confirm: the player is done with the tiles drawn; turn over the next."""
        game = self._playing()
        if not self.confirm:
            raise IllegalMove("the next tile comes by itself in this game")
        if game.pending[seat]:
            raise IllegalMove("place the drawn tiles first")
        if game.all_drawn:
            raise IllegalMove("every tile of the round has been drawn")
        if not self.awaiting_draw:  # e.g. no caller: the player's announcement draws the next tile
            if game.waiting:  # AI players still thinking (only they can place while this player waits)
                names = ", ".join(self.seats[p].name for p in game.waiting)
                raise Conflict(f"nothing to draw yet: waiting for {names} to place")
            if game.chooser == seat:
                raise Conflict("nothing to draw: it is your turn to announce a tile")
            raise Conflict("nothing to draw now")
        out: list[dict] = []
        if self.options.caller:
            self._draw_asked = True
            self._advance(out)  # the server draws at once
        else:  # an AI announces the tiles afterwards (ai_turns), maybe on another server: store the request
            self._emit(out, {"t": "ask", "p": seat})
        return out

    def announce(self, seat: int, tile) -> list[dict]:
        game = self._playing()
        self._own_seat(seat)
        if self.options.caller:
            raise IllegalMove("this game has a caller: the server draws the tiles at random")
        if game.chooser != seat:
            who = "nobody" if game.chooser is None else self.seats[game.chooser].name
            raise IllegalMove(f"it is {who}'s turn to announce a tile")
        tile = self._tile(tile)
        self._trial().announce(tile)
        out: list[dict] = []
        self._emit(out, {"t": "announce", "p": seat, "tile": tile})
        self._advance(out)
        return out

    def settle(self, seat: int, releases: list[tuple]) -> list[dict]:
        self._playing()
        self._own_seat(seat)
        moves = [(self._tile(t), c) for t, c in releases]
        self._trial().settle(seat, moves)
        out: list[dict] = []
        self._emit(out, {"t": "settle", "p": seat, "releases": [[t, c] for t, c in moves]})
        self._advance(out)
        return out

    def call(self, seat: int, seen: int | None = None) -> list[dict]:
        """Call the next tiles.  ``seen``: how many the host's page shows called; another device of the host's
        calling meanwhile makes it stale, and the call is refused instead of calling a second tile at once."""
        self._host_only(seat, "call the next tile")
        self._caller_mode()
        if self.status != "playing":
            raise Conflict(f"no tile to call: the room is {self.status.replace('_', ' ')}")
        if self.called >= self.rules.tiles_per_round:
            raise Conflict("every tile of this round has been called; end the round")
        if seen is not None and seen != self.called:
            raise Conflict(f"called: your page shows {seen} tiles called, the room {self.called} (another device "
                           "called or took back a call meanwhile); nothing called")
        out: list[dict] = []
        self._emit(out, {"t": "call"})
        return out

    def uncall(self, seat: int) -> list[dict]:
        """Take back the last call (a second tap on "Call" the table was not ready for).  The deal is fixed when
        the round starts, so the same tiles come with the next call: nobody can call tiles away."""
        self._host_only(seat, "take back a call")
        self._caller_mode()
        if self.status != "playing" or self.called == 0:
            raise Conflict("no call to take back" + ("" if self.status == "playing"
                                                     else f": the room is {self.status.replace('_', ' ')}"))
        if self.entries:
            raise Conflict("boards or scores are entered already; a call cannot be taken back under them")
        taken_back = 0
        for event in reversed(self.events):
            if event["t"] in ("start", "next"):
                break
            taken_back += event["t"] == "uncall"
        if taken_back >= MAX_REPEATS:
            raise Conflict(f"at most {MAX_REPEATS} calls taken back in a round")
        out: list[dict] = []
        self._emit(out, {"t": "uncall"})
        return out

    def entry(self, seat: int, player: int | None, board: str | None, score: int | None) -> list[dict]:
        self._caller_mode()
        player = seat if player is None else player
        if not 0 <= player < len(self.seats):
            raise RoomError(f"player {player}: there is no such player")
        if player != seat and seat != 0:
            raise Forbidden("only the host (the scorekeeper) enters scores for other players")
        if self.status != "playing":
            raise Conflict(f"scores are entered during a round; the room is {self.status.replace('_', ' ')}")
        if (board is None) == (score is None):
            raise RoomError("give either a board in notation or a score")
        # counted per person entering, so the host's entries never use up the player's own (nor theirs the host's)
        if self._repeats("entry", player, ("entry",), by=seat) >= MAX_REPEATS:
            raise Conflict(f"at most {MAX_REPEATS} entries for {self.seats[player].name} between two calls")
        if self.called < self.rules.tiles_per_round:  # a score typed early went in as the final one, unnoticed
            raise Conflict(f"boards and scores are entered once every tile has been called ({self.called} of "
                           f"{self.rules.tiles_per_round} so far)")
        event = {"t": "entry", "p": player, "board": None, "by": seat}
        from ..solve.table import board_refusal, score_refusal  # the solver loads only for caller rooms

        if board is not None:
            cells = parse_board(board, self.rules.layout, self.rules.tile_set)
            why = board_refusal(self.rules, cells, self.caller_deal[: self.called])
            if why:
                raise RoomError(why)
            event["board"] = format_board(cells)
            event["score"] = self.rules.score(cells)
        else:
            if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= MAX_SCORE:
                raise RoomError(f"score: expected a whole number 0..{MAX_SCORE}")
            why = score_refusal(self.rules, score, self._best_of_called())
            if why:
                raise RoomError(why)
            event["score"] = score
        out: list[dict] = []
        self._emit(out, event)
        return out

    def end_round(self, seat: int) -> list[dict]:
        self._host_only(seat, "end the round")
        self._caller_mode()
        if self.status != "playing":
            raise Conflict(f"no round to end: the room is {self.status.replace('_', ' ')}")
        if self.called < self.rules.tiles_per_round:
            raise Conflict(f"the round ends once all {self.rules.tiles_per_round} tiles are called "
                           f"({self.called} so far)")
        scores = [self.entries.get(p, {}).get("score", 0) for p in range(len(self.seats))]
        with_boards = [p for p in range(len(self.seats)) if self.entries.get(p, {}).get("board")]
        if with_boards:  # Best Sunray/Moonbeam compares the boards that were typed in
            boards = [parse_board(self.entries[p]["board"], self.rules.layout, self.rules.tile_set)
                      for p in with_boards]
            for p, bonus in zip(with_boards, self.rules.round_bonuses(boards)):
                scores[p] += bonus
        out: list[dict] = []
        self._emit(out, {"t": "end", "scores": scores})
        return out

    def rematch_to(self, seat: int, code: str) -> list[dict]:
        """Record the room the host opened for a rematch (:meth:`RoomMaster.rematch`): every page of this room
        learns it from the state and goes on there with its own token."""
        self._host_only(seat, "start a rematch")
        if self.status != "finished":
            raise Conflict(f"a rematch follows a finished match; the room is {self.status.replace('_', ' ')}")
        if self.rematch is not None:
            raise Conflict(f"the rematch is room {self.rematch} already")
        out: list[dict] = []
        self._emit(out, {"t": "rematch", "code": code})
        return out

    def standin(self, seat: int, target, agent: str = STANDIN_AGENT) -> list[dict]:
        """Hand the seat of ``target``, a person the game has waited for in vain, to an AI ``agent``: it keeps
        the name and the token, and the AI makes its moves until the person reclaims it."""
        refusal = self._standin_refusal(seat, target)
        if refusal is not None:
            raise refusal
        if agent not in STANDIN_AGENTS:
            raise RoomError(f"agent {agent!r}: a stand-in plays for someone else as well as it can; expected one "
                            f"of {', '.join(STANDIN_AGENTS)}")
        idle, grace = self._idle_seconds(target), self._standin_grace()
        if idle < grace:
            raise Conflict(f"{self.seats[target].name} was here {idle:.0f} s ago; an AI may stand in after "
                           f"{grace:g} s of waiting for them")
        out: list[dict] = []
        self._emit(out, {"t": "standin", "p": target, "agent": agent, "by": seat})
        return out

    def reclaim(self, seat: int) -> list[dict]:
        """Take one's seat back from the AI standing in: the person plays it again from their next move on."""
        if self.status == "finished":
            raise Conflict("the match is over: there is no seat to take back")
        if not self.seats[seat].standin:
            raise Conflict("nobody is standing in for you; your seat is yours")
        out: list[dict] = []
        self._emit(out, {"t": "reclaim", "p": seat})
        return out

    def analysis_input(self) -> tuple[str, object]:
        """What the analysis of the round just ended needs, copied now (the room may move on while it
        runs): ``("game", saved game)`` in a digital room, ``("called", (tiles, finals))`` at a table."""
        if self.status not in ("round_over", "finished"):
            raise Conflict("analysis: the round is still being played; ask once it is over")
        if self.digital:
            record = self._game.to_json()
            record.pop("seed", None)  # never leaves the server: later rounds' seeds derive from the room's
            return "game", record
        finals = [(seat.name, self.entries.get(p, {}).get("board"), self.entries.get(p, {}).get("score"))
                  for p, seat in enumerate(self.seats)]
        return "called", (list(self.caller_deal), finals)

    # -- helpers -------------------------------------------------------------
    @property
    def _match(self) -> Match:
        """The match, which the start made (for what only a started room does)."""
        assert self.match is not None, "the room has not started"
        return self.match

    @property
    def _game(self) -> Game:
        """The round on the screen, which a digital room has from its start on (for what only such a room does)."""
        assert self.game is not None, "no round on the screen"
        return self.game

    def _best_of_called(self) -> int:
        """The best board score this round's called tiles allow (in any order: an upper bound under the placement
        rules), worked out once a round."""
        if self._best_called is None or self._best_called[0] != self.round:
            from ..solve.table import best_score  # the solver loads only for caller rooms that need it

            self._best_called = (self.round, best_score(self.rules, self.caller_deal[: self.called]))
        return self._best_called[1]

    def _host_only(self, seat: int, what: str) -> None:
        if seat != 0:
            raise Forbidden(f"only the host ({self.seats[0].name}) may {what}")

    def _caller_mode(self) -> None:
        if self.digital:
            raise RoomError("this action is for caller rooms (a physical table)")

    def _own_seat(self, seat: int) -> None:
        if self.seats[seat].standin:
            raise Conflict("an AI is playing for you; take your seat back (reclaim) to play again")

    def _playing(self) -> Game:
        if not self.digital:
            raise RoomError("a caller room has no boards on the server; enter boards or scores instead")
        if self.status == "lobby":
            raise Conflict("the game has not started yet")
        if self.status != "playing":
            raise Conflict(f"the round is over (room {self.status.replace('_', ' ')})")
        return self._game

    def _tile(self, tile) -> int:
        if isinstance(tile, str):
            return parse_tile(tile, allowed=self.rules.tile_set)
        raise RoomError("tile: expected a tile token such as 574")

    def _pending_tile(self, seat: int, tile) -> int:
        pending = self._game.pending[seat]
        if not pending:
            if self._game.all_drawn:
                raise IllegalMove("every tile is placed; nothing to place")
            raise IllegalMove(self._game.nothing_to_place())
        if tile is None:
            return pending[0]
        tile = self._tile(tile)
        if tile not in pending:
            raise IllegalMove(f"tile {TOKENS[tile]} is not waiting to be placed")
        return tile

    def _repeats(self, kind: str, player: int, within: tuple[str, ...], by: int | None = None) -> int:
        """``kind`` events of ``player`` (made by seat ``by``, if given) since the last event of a kind not
        ``within`` (a draw, a call, a new round)."""
        count = 0
        for event in reversed(self.events):
            if event["t"] not in within:
                break
            count += (event["t"] == kind and event["p"] == player
                      and (by is None or event.get("by", event["p"]) == by))
        return count

    def _trial(self) -> Game:
        """A copy of the game to try an action on (the rules are shared, not copied)."""
        return copy.deepcopy(self._game, {id(self.rules): self.rules})

    def _agent(self, seat: int):
        if seat not in self._agents:
            seed = game_seed(self.seed ^ 0x5EED, 100 * self.round + seat) & MASK64
            agent = self.seats[seat].agent
            assert agent is not None  # an AI seat names its agent
            self._agents[seat] = make_agent(agent, self.rules, seed)
        return self._agents[seat]

    def _advance(self, out: list[dict]) -> None:
        """Draw the next tiles once nobody has anything left to do, if the draw needs nobody's choice (a caller
        draws from the secret deal).  AI seats never act here: they move afterwards, see :meth:`ai_turns`."""
        if not (self.digital and self.status == "playing" and self.options.caller):
            return  # with no caller a player announces the next tiles: a person by an action, an AI in ai_turns
        game = self._game
        assert game.deal is not None  # Game.__post_init__ made it
        if game.waiting or game.all_drawn or self.awaiting_draw:
            return
        start = len(game.drawn)
        self._emit(out, {"t": "draw", "tiles": game.deal[start: start + game.next_draw_size]})

    # -- AI seats: they act after the action that made them due, all who owe a step at once (see AITurn) --
    def _ai_steps(self) -> list[tuple[int, str]]:
        """Every ``(seat, what)`` the AI seats owe now: each waiting AI seat must ``place`` a drawn tile or
        ``settle`` its holding area (players act at the same time, so these steps are independent), or, with
        no caller and nobody waiting, an AI chooser must ``draw`` (announce the next tiles)."""
        if not self.digital or self.status != "playing":
            return []
        game = self._game
        steps = [(p, "place" if game.pending[p] else "settle") for p in game.waiting if self.seats[p].kind == "ai"]
        if steps or game.waiting or game.all_drawn or self.awaiting_draw or self.options.caller:
            return steps
        chooser = game.chooser
        assert chooser is not None  # no caller, and tiles are left
        return [(chooser, "draw")] if self.seats[chooser].kind == "ai" else []

    @property
    def ai_due(self) -> tuple[int, str] | None:
        """The first step an AI seat owes now (see :meth:`_ai_steps`); None when no AI seat has anything to do."""
        steps = self._ai_steps()
        return steps[0] if steps else None

    def _ai_position(self, step: tuple[int, str], owed: list | None = None) -> tuple | None:
        """What an AI step is decided on (None if the step is not owed): it still fits if this has not
        changed since.  ``owed``: :meth:`_ai_steps`, when the caller has it already."""
        if step not in (self._ai_steps() if owed is None else owed):
            return None
        return self.round, len(self._game.drawn), tuple(self._game.pending[step[0]]), step

    def ai_turns(self) -> list[AITurn]:
        """The steps the AI seats owe now, each with copies of what its agent needs to decide: they can be
        thought out at the same time (see :meth:`_ai_steps`)."""
        turns, owed = [], self._ai_steps()
        for step in owed:
            seat, what = step
            agent, position = self._agent(seat), self._ai_position(step, owed)
            assert position is not None  # the step is owed
            if what == "draw":
                game = self._trial()
                # an agent without an announce hook announces at random from the game's generator, which this
                # copy would always start from the same state: give each draw its own stream
                game._rng = SplitMix64(game_seed(self.seed ^ 0xA770, 100 * self.round + len(game.drawn)))
                turns.append(AITurn(seat, what, position, agent, game=game))
            else:  # a settle decides against the boards the seat can see: it gets the game too
                turns.append(AITurn(seat, what, position, agent, view=self._game.view(seat),
                                    game=self._trial() if what == "settle" else None))
        return turns

    def ai_move(self, turn: AITurn, event: dict) -> list[dict]:
        """Apply the event ``turn.think()`` chose, then draw if that needs nobody's choice.  Returns no events
        if the room is no longer where the AI decided: the caller asks :meth:`ai_turns` again."""
        if self._ai_position(turn.position[-1]) != turn.position:
            return []
        out: list[dict] = []
        self._emit(out, event)
        self._advance(out)
        return out

    def round_scores(self) -> list[dict]:
        """The people's scores of the round that just ended, as best-scores rows (:meth:`Store.add_scores`).
        Rooms played on the server under a named preset only: a caller room's scores are reported by the
        players at the table, not played here, and custom rules have no list."""
        preset = self.record.get("preset")
        if not self.digital or preset is None or self.match is None or not self.match.results:
            return []
        people = sum(seat.kind == "human" or seat.standin for seat in self.seats)
        if not self.options.caller and (people != 1 or len(self.seats) == 1):
            # with no caller the people choose the tiles: alone, a puzzle with 307 always there (as solitaire with
            # no caller, which the rules refuse); two seats of one person (or friends agreeing) announce a 307
            # board's tiles between them.  Only a person among AI players, who choose their own tiles, is ranked.
            return []
        scores, now = self.match.results[-1], time.time()
        return [{"code": self.code, "round": self.round, "seat": p, "preset": preset, "name": seat.name,
                 "score": int(scores[p]), "mode": self.mode, "at": now}
                for p, seat in enumerate(self.seats) if seat.kind == "human" and p not in self.stood_in]

    # -- what a player sees --------------------------------------------------
    def state(self, viewer: int | None = None) -> dict:
        """The room as ``viewer`` (a seat index, or None for an onlooker) may see it."""
        rules, n = self.rules, len(self.seats)
        totals = self.match.totals if self.match else [0] * n
        state = {
            "code": self.code, "mode": self.mode, "status": self.status, "version": self.version,
            "preset": self.record.get("preset"), "options": self.options.to_json(), "layout": rules.layout.name,
            "board_size": rules.board_size, "holding": list(rules.holding_cells),
            "stamen": list(rules.layout.stamen_cells), "tiles_per_round": rules.tiles_per_round,
            "host": 0, "you": viewer, "round": self.round, "rounds": self.options.rounds,
            "match": self.options.match,
            "results": [list(r) for r in self.match.results] if self.match else [],
            "totals": totals, "standings": self.match.standings if self.match else [0] * n,
            "winners": self.match.winners if self.match else [],
            # stood_in: an AI played (some of) this round for the seat, taken back or not (kept off best scores)
            "players": [s.public(i) | {"stood_in": i in self.stood_in} for i, s in enumerate(self.seats)],
            "rematch": self.rematch,  # the room the host opened for the same players, once this one finished
        }
        if self.rules.uses_symbols:  # the sun or moon of each tile, when the rules look at them
            state["symbols"] = {TOKENS[t]: name for t, name in self.rules.symbol_names().items()}
        if self.digital:
            self._digital_state(state, viewer)
        else:
            self._caller_state(state)
        return state

    def _digital_state(self, state: dict, viewer: int | None) -> None:
        game, rules = self.game, self.rules
        if game is None:
            return
        over = game.finished
        look = over or not self.options.caller  # rulebook 004: with no caller, players see each other's boards
        waiting = set(game.waiting)
        bonuses = game.round_bonuses() if over else None
        for p, entry in enumerate(state["players"]):
            entry["placed"] = len(game.moves[p])
            entry["waiting"] = p in waiting
            if viewer is not None:  # during a round, or for the host between rounds
                wait = self.standin_wait(viewer, p)
                if wait is not None:  # the viewer may let an AI play for p in this many seconds (0: now)
                    entry["standin_after"] = math.ceil(wait)
            if look or p == viewer:
                board = game.boards[p]
                entry["board"] = [TOKENS[t] if t >= 0 else None for t in board]
                entry["score"] = rules.score(board)
            if bonuses is not None:  # the round is over
                entry["bonus"] = bonuses[p]
                entry["round_score"] = entry["score"] + bonuses[p]
                entry["lines"] = [line.to_json() for line in rules.lines(game.boards[p])]
        state["drawn"] = [TOKENS[t] for t in game.drawn]
        state["current"] = [TOKENS[t] for t in self.last_group]
        state["call"] = [call_words(t) for t in self.last_group]  # what the caller says, wildcards by name
        state["left"] = rules.tiles_per_round - len(game.drawn)
        state["awaiting_draw"] = self.awaiting_draw
        state["confirm"] = self.confirm
        if not self.options.caller:
            state["chooser"] = game.chooser
            state["remaining"] = [TOKENS[t] for t in game.remaining()]
            state["announced"] = [TOKENS[t] for t in game.announced]
        if viewer is None:
            return
        stood_in = self.seats[viewer].standin and not over  # an AI plays this seat until the player reclaims it
        me: dict = {"pending": [TOKENS[t] for t in game.pending[viewer]],
                    "movable": [TOKENS[t] for t in game.movable[viewer]]
                    if self.options.takeback and not stood_in and not over else []}
        board = game.boards[viewer]
        previous_tile, previous_cell = game.previous_tile(viewer), game.previous_cell(viewer)
        # the player's own last placement: what a hint needs for placement rules that look back
        me["previous"] = {"tile": TOKENS[previous_tile], "cell": int(previous_cell)} if previous_tile >= 0 else None
        if me["movable"]:  # where each may go: under a placement rule not every empty cell
            me["move_targets"] = {TOKENS[t]: game.move_targets(viewer, t) for t in game.movable[viewer]}
        if me["movable"]:  # the placement before the tiles that may still move: a hint for moving one starts there
            moves = game.moves[viewer]
            first = len(moves) - len(game.movable[viewer])
            me["before_movable"] = {"tile": TOKENS[moves[first - 1][0]], "cell": int(moves[first - 1][1])} \
                if first else None
        if stood_in:
            me["phase"] = "standin"
        elif game.pending[viewer]:
            me["phase"] = "place"
            me["legal"] = {TOKENS[t]: [int(c) for c in
                                       rules.legal_mask(board, t, previous_tile, previous_cell).nonzero()[0]]
                           for t in game.pending[viewer]}
            # what the placement rule asks of each tile now, in the engine's words ("" under free placement)
            me["guidance"] = {TOKENS[t]: rules.guidance(t, previous_tile, previous_cell, board)
                              for t in game.pending[viewer]}
        elif game.all_drawn and not game.settled[viewer]:
            me["phase"] = "settle"
            me["release"] = {TOKENS[int(board[s])]: rules.release_cells(board, int(board[s]))
                             for s in rules.holding_cells if board[s] >= 0}
        elif over or (game.all_drawn and game.settled[viewer]):
            me["phase"] = "done"
        elif game.chooser == viewer and not game.waiting:  # announcing waits until everyone has placed
            me["phase"] = "announce"
        else:
            me["phase"] = "wait"
        state["me"] = me

    def _caller_state(self, state: dict) -> None:
        if self.round < 0:
            return
        state["drawn"] = [TOKENS[t] for t in self.caller_deal[: self.called]]
        state["current"] = [TOKENS[t] for t in self.last_group]
        state["call"] = [call_words(t) for t in self.last_group]  # what the caller says, wildcards by name
        state["left"] = self.rules.tiles_per_round - self.called
        state["entries"] = {str(p): dict(e) for p, e in self.entries.items()}
        if self.status in ("round_over", "finished") and self._match.results:
            for p, e in state["entries"].items():  # a round bonus (Best Sunray) on top of the entry's own score
                if bonus := self._match.results[-1][int(p)] - e["score"]:
                    e["bonus"] = bonus
        state["joinable"] = self.takes_late_players


class RoomMaster:
    """Rooms by code: loaded from the store on first use, persisted on every accepted action.

    At most ``max_active_rooms`` rooms may be open (lobby, playing, or between
    rounds), counting only rooms that changed in the last ``idle_hours`` (solo
    games and lobbies: the last :data:`QUIET_MINUTES`, if sooner), so abandoned
    rooms cannot fill the server; they stay stored and can be resumed.  The
    ``in_memory`` most recently used rooms are kept replayed.
    ``server`` names this server in the presence it stores (default: random).
    """

    def __init__(self, store: Store, max_active_rooms: int = MAX_ACTIVE_ROOMS, idle_hours: float = IDLE_HOURS,
                 in_memory: int = ROOMS_IN_MEMORY, standin_seconds: float | None = None, server: str | None = None):
        self.store = store
        self.server = server or secrets.token_hex(8)
        self._presence_failing = False  # the last presence call failed (logged once, until one works again)
        self._presence_paused_until = -math.inf  # after a failure storage is left alone for a while (time.monotonic())
        self.standin_seconds = standin_seconds  # Room.standin_grace of every room this master makes or loads
        self.max_active_rooms = max_active_rooms
        self.idle_seconds = idle_hours * 3600.0
        self.in_memory = max(1, in_memory)
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._lock = threading.RLock()  # the room table: held briefly, never while a room acts or storage works
        self._creating = threading.Lock()  # room creation: the open-room count and the new room's write together
        # per room someone acts on or waits to: [its lock, how many threads hold or want it]; rooms act in
        # parallel, and a room with an entry stays in memory (a copy read from storage meanwhile would be stale)
        self._acting: dict[str, list] = {}
        self._loading: dict[str, list] = {}  # per room being read from storage: [its lock, threads wanting it]

    @property
    def rooms_in_memory(self) -> int:
        return len(self._rooms)

    def _recent(self) -> float:
        return time.time() - self.idle_seconds

    def _recent_quiet(self) -> float:
        return time.time() - min(self.idle_seconds, QUIET_MINUTES * 60.0)

    def _keep(self, room: Room) -> None:
        """Remember ``room`` as the most recently used; forget the least recently used beyond the limit, except
        this one and rooms being acted on (which may exceed the limit for a while)."""
        self._rooms[room.code] = room
        self._rooms.move_to_end(room.code)
        excess = len(self._rooms) - self.in_memory
        if excess > 0:
            idle = [code for code in self._rooms if code not in self._acting and code != room.code][:excess]
            for code in idle:
                del self._rooms[code]

    def _forget(self, code: str) -> None:
        """Drop a room whose memory may be ahead of storage; it is replayed from storage when next used."""
        with self._lock:
            self._rooms.pop(code, None)

    @contextmanager
    def _acting_on(self, code: str):
        """Hold room ``code`` for one action: one at a time per room, and the room stays in memory meanwhile."""
        with self._lock:
            entry = self._acting.setdefault(code, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._lock:
                entry[1] -= 1
                if not entry[1]:
                    del self._acting[code]

    def get(self, code, acting: bool = False) -> Room:
        """Room ``code``, from memory if storage holds nothing newer, else replayed from storage.  ``acting``: for
        an action, which storage must take, a storage that cannot say fails at once (503) instead of the action
        waiting for it again to store its events (a move took three pool timeouts to fail).  Presence is shared
        with the other servers when due (:meth:`share_presence`), so the state shown goes by their sightings too."""
        room = self._get(code, acting)
        self.share_presence(room)
        return room

    def _get(self, code, acting: bool) -> Room:
        # ASCII only: str.upper turned "ßABCD" into another room's code, "SSABCD"
        if not isinstance(code, str) or not (code.isascii() and code.isalnum()) or len(code) > 16:
            raise NotFound("room code: expected letters A to Z and digits, like K7QX2M", "bad_code")
        code = code.upper()
        with self._lock:
            room = self._rooms.get(code)
        stale = None
        if room is not None:
            if not self._behind(room, acting):
                with self._lock:
                    if self._rooms.get(code) is room:
                        self._keep(room)
                        return room
                # forgotten or replaced meanwhile: read it again below
            else:
                stale = room  # another server on the same database changed the room: replay it from storage
        with self._lock:
            loading = self._loading.setdefault(code, [threading.Lock(), 0])
            loading[1] += 1
        try:
            # one read of storage and replay per room at a time (never two copies of a room), outside the
            # table's lock: a slow read holds up only those who want that room
            with loading[0]:
                with self._lock:
                    room = self._rooms.get(code)  # read by whoever held the room's loading lock before
                if room is None or room is stale:
                    loaded = self._read(self.store.load, code)
                    if loaded is None:
                        raise NotFound(f"no room {code}", "no_room", code=code)
                    room = Room(*loaded)
                    room.standin_grace = self.standin_seconds
                with self._lock:
                    self._keep(room)
                return room
        finally:
            with self._lock:
                loading[1] -= 1
                if not loading[1]:
                    del self._loading[code]

    def _behind(self, room: Room, acting: bool = False) -> bool:
        """Whether storage holds more of ``room`` than memory: another server on the same database (two
        ``serve`` processes on one SQLite file, several servers on one PostgreSQL database) acted on it.
        A room this server is acting on may be ahead of storage for a moment; that is not behind.  If storage
        cannot say, the copy in memory is the best there is to read (a single server's is always current)."""
        try:
            stored = self.store.version(room.code)
        except StoreError as exc:
            if acting:
                raise Busy(f"storage failed, nothing was changed ({exc})") from None
            LOG.debug("room %s: cannot compare with storage (%s)", room.code, exc)
            return False
        return stored is not None and stored > room.version

    def create(self, mode: str, name: str, preset: str | None, options: dict | None, agents: list[str],
               public: bool, confirm: bool = False) -> tuple[Room, str]:
        if mode not in MODES:
            raise RoomError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
        if confirm and mode != "solo":
            raise RoomError("confirm is for solo games: in a room the next tile comes when everyone has placed")
        name = seat_name(name)
        opts = server_options(preset, options)
        Ruleset.from_options(opts)
        if mode == "caller" and not opts.caller:
            raise RoomError("a caller room draws the tiles; the no-caller variant is played on the screen")
        if mode == "caller" and agents:
            raise RoomError("a caller room is for people at a physical table; AI players play on the screen")
        if confirm and not opts.takeback:
            raise RoomError("confirm lets a placed tile move until the next draw; these rules forbid moving tiles")
        if agents and opts.solitaire:  # said before a room is made: join's refusal named a room never stored
            raise RoomError("solitaire is one player alone: no AI players")
        if len(agents) > MAX_AGENTS:
            raise RoomError(f"agents: at most {MAX_AGENTS} AI players")
        for agent in agents:
            if agent not in AGENTS:
                raise RoomError(f"agent {agent!r}: expected one of {', '.join(AGENTS)}")
        self._check_room_limit()  # early, before building the room
        record = {"code": None, "mode": mode, "options": opts.to_json(), "preset": preset_of(opts),
                  "seed": secrets.randbits(63), "public": bool(public), "created": time.time(),
                  "confirm": bool(confirm)}
        def seat_everyone(room: Room) -> tuple[list[dict], str]:
            _, token, events = room.join(name)
            assert token is not None  # a person's seat has a token
            for k, agent in enumerate(agents):
                events += room.join(room.free_name(f"{agent} {k + 1}"), "ai", agent)[2]
            if mode == "solo":
                events += room.start(0)  # the first draw; AI players move afterwards (RoomMaster.ai_turns)
            return events, token

        return self._new_room(record, seat_everyone)

    def _new_room(self, record: dict, seat_everyone: Callable[[Room], tuple[list[dict], T]]) -> tuple[Room, T]:
        """Store a new room of ``record`` under a free code: ``seat_everyone(room)`` gives its first events and
        what to return with the room."""
        for _ in range(3):  # a code free when chosen may be taken before the write (another server, same database)
            record["code"] = code = self._free_code()
            room = Room(record)
            room.standin_grace = self.standin_seconds
            events, result = seat_everyone(room)
            with self._creating:
                self._check_room_limit()  # again: with the store write, one step for every creator
                try:
                    self.store.create(code, record, room.summary(), events)
                except StoreConflict:
                    continue
                except StoreError as exc:
                    raise Busy(f"storage failed, no room was created ({exc})") from None
                with self._lock:
                    self._keep(room)
                return room, result
        raise Busy("no free room code was found; try again")

    def rematch(self, code: str, token: str) -> Room:
        """The host of a finished room opens a new one for the same players: the same mode, rules and seats (names,
        AI players, and each person's token, so everyone goes on with the token they have), in its lobby.  The old
        room's state names it (``rematch``).  Asked again, the same new room."""
        old = self.get(code)
        seat = old.authenticate(token)
        if old.rematch is not None:
            return self.get(old.rematch)
        old._host_only(seat, "start a rematch")
        if old.status != "finished":
            raise Conflict(f"a rematch follows a finished match; the room is {old.status.replace('_', ' ')}")
        self._check_room_limit()
        record = {key: old.record[key] for key in ("mode", "options", "preset", "public", "confirm")}
        record.update(code=None, seed=secrets.randbits(63), created=time.time(), rematch_of=old.code)
        def seat_everyone(room: Room) -> tuple[list[dict], None]:
            events: list[dict] = []
            for s in old.seats:  # a person an AI stood in for is a person again
                person = s.standin or s.kind != "ai"
                room._emit(events, {"t": "join", "name": s.name, "kind": "human" if s.standin else s.kind,
                                    "agent": None if person else s.agent, "token": s.token_hash})
            if old.mode == "solo":
                events += room.start(0)
            return events, None

        room, _ = self._new_room(record, seat_everyone)
        try:
            self.act(code, "rematch_to", room.code, token=token)
        except Conflict:  # the host asked twice at once: the other request's room is the rematch
            return self.get(self.get(code).rematch)
        return room

    def _free_code(self) -> str:
        """A room code neither in memory nor in storage (most likely: the codes are random)."""
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms and self._read(self.store.load, code) is None:
                break
        return code

    def counts_as_open(self, code: str) -> bool:
        """Whether room ``code`` is open (lobby, playing, or between rounds), a solo game or a lobby only while in use
        (changed in the last :data:`QUIET_MINUTES`)."""
        room = self.get(code)
        if room.status not in ACTIVE:
            return False
        quiet_counts = room.mode != "solo" and room.status != "lobby"
        return quiet_counts or (self._read(self.store.changed, code) or 0.0) >= self._recent_quiet()

    def _check_room_limit(self) -> None:
        if self._read(self.store.count, ACTIVE, self._recent(), self._recent_quiet()) >= self.max_active_rooms:
            raise Busy(f"the server has {self.max_active_rooms} open rooms; try again later")

    def act(self, code, action, *args, token: str | None = None, **kwargs) -> tuple[Room, list[dict], object]:
        """Run ``room.<action>(*args)``; persist its events before returning (room, events, result).

        With ``token``, the action is a player's: their seat, found from the token on the room as it is when the
        action runs (each try), comes first in ``args``.  A seat number found before could name someone else by
        then: a removal in the lobby moves the seats after it up.

        One action at a time per room; other rooms act meanwhile.  If another server on the same database
        stored events first (the append finds the version moved), the action is tried once more on the room
        as stored now, like a request that came after that server's; a second conflict is a 409.
        """
        with self._acting_on(self.get(code, acting=True).code):  # get first: entries only for rooms that exist
            for attempt in range(2):
                room = self.get(code, acting=True)  # as it is now that nobody else acts on it
                before, playing = room.version, room.status == "playing"
                try:
                    seat = () if token is None else (room.authenticate(token),)
                    if token is not None:  # a sign of life, for the other servers; a stand-in goes by their latest
                        self.share_presence(room, fresh=action == "standin")
                    result = getattr(room, action)(*seat, *args, **kwargs)
                except BaseException:
                    if room.version != before:  # something changed before the refusal: rebuild from storage
                        self._forget(room.code)
                    raise
                events = result[2] if action == "join" else result
                try:
                    self._persist(room, before, events)
                except _Moved:
                    if attempt:
                        raise Conflict(f"room {room.code} changed meanwhile (another server on the same "
                                       "database acted on it); nothing was changed, try again") from None
                    continue
                if playing and room.status != "playing":
                    self._record_scores(room)
                return room, events, result
        raise AssertionError("unreachable: the second attempt returns or raises")

    def share_presence(self, room: Room, fresh: bool = False) -> None:
        """Store the sightings of ``room``'s players this server made that storage should learn of, and take in
        whom the other servers on the database saw, each when due (:meth:`Room.unshared_sightings`,
        :meth:`Room.presence_wanted`; ``fresh``: now, an AI is to stand in).

        Presence is a help, never a condition: if storage fails, the room goes by this server's own sightings as a
        lone server's does, the action goes on, and storage is left alone for :data:`PRESENCE_SECONDS` (a database
        out of reach must not slow every request twice); logged once, and again once it works."""
        if time.monotonic() < self._presence_paused_until:
            return
        due, wanted = room.unshared_sightings(), room.presence_wanted(fresh)
        try:
            if due:
                now = time.monotonic()
                self.store.mark_seen(room.code, self.server, {player: now - when for player, when in due.items()})
                room.sightings_stored(due)
            if wanted:
                room.seen_elsewhere(self.store.seen(room.code, self.server))
        except StoreError as exc:
            self._presence_paused_until = time.monotonic() + PRESENCE_SECONDS
            with self._lock:
                failing, self._presence_failing = self._presence_failing, True
            if not failing:
                LOG.warning("presence: when players were last seen is not shared through storage (%s); each server "
                            "goes by the players it sees itself until storage takes it again", exc)
            return
        if (due or wanted) and self._presence_failing:
            with self._lock:
                failing, self._presence_failing = self._presence_failing, False
            if failing:
                LOG.info("presence: shared through storage again")

    def _record_scores(self, room: Room) -> None:
        """The finished round's scores for the best-scores lists.  The round itself is stored already; a
        failure here loses only a list entry, so it is logged, not an error for the player."""
        try:
            self.store.add_scores(room.round_scores())
        except StoreError as exc:
            LOG.warning("room %s: the round's scores were not added to the best scores (%s)", room.code, exc)

    def best_scores(self, preset: str, limit: int = 10) -> list[dict]:
        return self._read(self.store.best_scores, preset, limit)

    def ai_turns(self, code) -> list[AITurn]:
        """The steps the AI seats owe in room ``code`` now (see :class:`AITurn`); apply each one's event with
        ``act(code, "ai_move", turn, turn.think())``."""
        with self._acting_on(self.get(code).code):
            return self.get(code).ai_turns()

    def _persist(self, room: Room, before: int, events: list[dict]) -> None:
        if not events:
            return
        try:
            self.store.append(room.code, before, events, room.summary())
        except StoreConflict:
            self._forget(room.code)  # memory is ahead of storage, and storage has events memory lacks
            raise _Moved() from None
        except StoreError as exc:
            self._forget(room.code)  # memory is ahead of storage
            raise Busy(f"storage failed, nothing was changed ({exc})") from None

    def listed(self, limit: int = 50) -> list[dict]:
        """Public rooms open to join (listed for :data:`IDLE_HOURS`) and games under way to watch, these only
        while someone moved in the last :data:`WATCHED_MINUTES` (a game nobody plays is nothing to watch);
        newest first."""
        # every listed room, not the newest ``limit``: those are sorted out here, and the newest games nobody plays
        # would otherwise hide every lobby made before them (a listed room is open, so there are at most about
        # max_active_rooms of them)
        rooms = self._read(self.store.listed, max(limit, self.max_active_rooms), self._recent())
        lively = time.time() - WATCHED_MINUTES * 60
        return [r for r in rooms
                if r.get("joinable", r.get("status") == "lobby") or r.get("changed", 0) >= lively][:limit]

    @staticmethod
    def _read(method, *args):
        """A store read; a storage failure is a 503 saying so, like a failed write (not a 500 'server bug')."""
        try:
            return method(*args)
        except StoreError as exc:
            raise Busy(f"storage failed ({exc})") from None
