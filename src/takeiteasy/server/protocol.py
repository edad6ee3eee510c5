"""The web API's messages: pydantic models of every request body (JSON), strict about types.

Requests refuse unknown fields and wrong types (``"cell": "3"`` is not a
cell), so a client bug shows up as a clear 4xx error instead of a guess.
Responses are plain JSON objects built by :mod:`takeiteasy.server.rooms`;
their shapes are described in ``docs/WEB.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from .rooms import MAX_AGENTS, STANDIN_AGENT

Token = Field(min_length=1, max_length=200)


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateRoom(Request):
    """``POST /api/rooms``: a solo game (started at once), a room for friends, or a caller room."""

    mode: Literal["solo", "room", "caller"] = "room"
    name: StrictStr  # checked by rooms.seat_name (the body limit bounds it meanwhile)
    preset: StrictStr | None = Field(default=None, max_length=64)
    options: dict | None = None
    agents: list[StrictStr] = Field(default_factory=list, max_length=MAX_AGENTS)
    public: StrictBool = True
    # solo only: the next tile comes when the player asks for it (POST .../draw), so until then the tile
    # just placed may still be moved (rulebook 001); otherwise it comes at once
    confirm: StrictBool = False


class Join(Request):
    name: StrictStr  # checked by rooms.seat_name (the body limit bounds it meanwhile)


class Authorised(Request):
    """Any action: the player's secret token."""

    token: StrictStr = Token


class AddPlayer(Authorised):
    """Host only, before the start: an AI seat (``agent``) or, in a caller room, a person without a device."""

    name: StrictStr | None = None
    agent: StrictStr | None = Field(default=None, max_length=64)


class Remove(Authorised):
    """Before the start: the host removes ``player``'s seat, or a player who is not the host leaves (their own).
    ``name``, if given, must be that seat's (seats move up when one goes: a stale index is refused, not obeyed)."""

    player: StrictInt
    name: StrictStr | None = Field(default=None, max_length=200)


class Place(Authorised):
    cell: StrictInt
    tile: StrictStr | None = Field(default=None, max_length=8)


class Move(Place):
    pass


class Announce(Authorised):
    tile: StrictStr = Field(max_length=8)


class Release(Request):
    tile: StrictStr = Field(max_length=8)
    cell: StrictInt


class Settle(Authorised):
    releases: list[Release] = Field(default_factory=list, max_length=8)


class Call(Authorised):
    """Caller rooms, host: call the next tile(s); ``called``, the tiles called so far as the host's page shows
    them, makes a second device's call of the same tile a 409 instead of a second tile."""

    called: StrictInt | None = None


class Entry(Authorised):
    """Caller rooms: a final board in notation, or a score, for yourself (or anyone, for the host)."""

    player: StrictInt | None = None
    board: StrictStr | None = Field(default=None, max_length=400)
    score: StrictInt | None = None


class StandIn(Authorised):
    """Rooms of friends: let an AI play for ``player``, a person the game has waited for in vain."""

    player: StrictInt
    agent: StrictStr = Field(default=STANDIN_AGENT, max_length=64)


class ScoreBoard(Request):
    """``POST /api/score``: score a board text under a preset and options."""

    board: StrictStr = Field(max_length=400)
    preset: StrictStr | None = Field(default=None, max_length=64)
    options: dict | None = None


class HintRequest(Request):
    """``POST /api/hint``: the expected final score of each allowed cell for a tile, best first (or, with
    ``announce``, of each tile the player may announce, for their own board and, given ``others``, against
    the other boards).

    Only what a player sees goes in: their own board (holding slots may follow the
    layout's cells), the tile to place, any other tiles drawn with it (``in_hand``)
    and their own previous placement.  There is no
    room code or token, so a hint cannot read a room's secret deal.
    """

    board: StrictStr = Field(max_length=400)
    tile: StrictStr | None = Field(default=None, max_length=8)  # absent with ``announce``
    announce: StrictBool = False  # no caller: rank the tiles the player may announce instead
    previous_tile: StrictStr | None = Field(default=None, max_length=8)
    previous_cell: StrictInt = Field(default=-1, ge=-1, le=64)
    preset: StrictStr | None = Field(default=None, max_length=64)
    options: dict | None = None
    agent: StrictStr = Field(default="best", max_length=64)
    # the other tile of a two-tile draw; each more multiplies the search (two took 10 s, four over 15 min)
    in_hand: list[StrictStr] = Field(default_factory=list, max_length=1)
    # with ``announce``: the other players' boards, which they show the table; tiles are then ranked by how far
    # they leave this board ahead of the others' mean
    others: list[Annotated[StrictStr, Field(max_length=400)]] = Field(default_factory=list, max_length=7)


class Joined(BaseModel):
    """The answer to creating or joining a room: keep ``token`` secret, it is your identity."""

    code: str
    player: int
    token: str
    state: dict


class ErrorMessage(BaseModel):
    error: str
