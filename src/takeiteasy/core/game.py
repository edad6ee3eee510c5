"""Game flow: a round of one or more players placing the same drawn tiles, and matches of rounds.

* :class:`Game` is one round.  The caller draws (``draw``) -- one tile, or
  two at a time in the easier game; with no caller, the player whose turn it
  is announces a tile of their choice (``draw(tiles)`` / ``announce``).
  Every player places each drawn tile (``place``), in the order they like; a
  tile placed since the last draw may still be moved (``move``, rulebook
  001) unless the ``takeback`` option is off.  In daffodil variant 4 each
  player ends with ``settle``, moving held tiles onto the stamen.  Illegal
  moves raise :class:`IllegalMove` whose text names the rule.
* :class:`Match` plays several rounds: running totals, or best of N boards.
* Players are pluggable: anything with ``name`` and ``choose(view) -> cell``
  (:class:`ScriptedPlayer`, the terminal player, the agents in
  :mod:`takeiteasy.ai`).  Optional hooks: ``announce(view) -> tile`` (no
  caller), ``choose_move(view) -> (tile, cell)`` (pick which of several drawn
  tiles to place first), ``settle(view) -> [(tile, cell), ...]`` (daffodil
  variant 4).  Without them a sensible default is used.

>>> game = Game(Ruleset.from_options(), ["solo"], seed=1)
>>> tile = game.draw()[0]
>>> game.place(0, 9)
>>> int(game.boards[0][9]) == tile
True
"""

from __future__ import annotations

from .errors import IllegalMove, InputError, quoted, shown

import json
import numbers
import operator
import unicodedata
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from .deal import SplitMix64, deal as seeded_deal, fresh_seed, game_seed
from .notation import format_board, format_tile, parse_tile, tile_name as _tile_name
from .rules import MAX_ROUNDS, RELEASE_ONLY_HOLDING, Options, Ruleset, _whole
from .tiles import TOKENS

FORMAT_NAME = "takeiteasy-game"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class View:
    """What a player sees when asked to act.

    ``phase`` says what is asked: ``place`` (put ``tile`` on a cell),
    ``announce`` (no caller: this player picks a tile from ``remaining``;
    ``tile`` is -1), ``settle`` (daffodil variant 4: move held tiles onto the
    stamen) or ``wait`` (nothing now, ``tile`` -1: the caller has not drawn
    yet, another player announces or places, or the round is over).
    """

    rules: Ruleset
    board: np.ndarray  # a copy of the player's board array
    tile: int
    remaining: tuple[int, ...]  # tiles of the set not drawn yet (some will never come)
    previous_tile: int
    turn: int  # tiles placed so far by this player
    previous_cell: int = -1  # where the previous tile went
    pending: tuple[int, ...] = ()  # every drawn tile this player still has to place (``tile`` among them)
    others: tuple[np.ndarray, ...] = ()  # the other players' boards, when the rules let players look (no caller)
    phase: str = "place"

    def _identity(self) -> tuple:
        """The fields with the boards as bytes (with their shape), so that views compare and hash by value."""
        def plain(board: np.ndarray) -> tuple:
            board = np.asarray(board)
            return board.shape, board.dtype.str, board.tobytes()
        return (self.rules, plain(self.board), self.tile, self.remaining, self.previous_tile, self.turn,
                self.previous_cell, self.pending, tuple(plain(b) for b in self.others), self.phase)

    def __eq__(self, other) -> bool:  # the generated one compares the board arrays, which has no single truth value
        if not isinstance(other, View):
            return NotImplemented
        return self is other or self._identity() == other._identity()

    def __hash__(self) -> int:  # a view may key a cache of decisions
        return hash(self._identity())

    def legal_cells(self, tile: int | None = None) -> list[int]:
        """Cells where ``tile`` (default: this view's tile) may go under every rule of the game; none when there
        is no tile to place (announcing)."""
        tile = self.tile if tile is None else tile
        if tile == -1:
            return []
        if self.phase == "settle":
            return self.rules.release_cells(self.board, tile)
        mask = self.rules.legal_mask(self.board, tile, self.previous_tile, self.previous_cell)
        return [int(c) for c in np.flatnonzero(mask)]


class Player(Protocol):
    name: str

    def choose(self, view: View) -> int: ...


@dataclass
class ScriptedPlayer:
    """Plays a fixed list of cells, in order (for tests and replays)."""

    name: str
    cells: list[int]
    position: int = 0

    def choose(self, view: View) -> int:
        """The next cell of the script."""
        cell = self.cells[self.position]
        self.position += 1
        return cell


def _tile_id(tile) -> int:
    """A tile id given to an action, as an int (numpy integers too); :class:`IllegalMove` for anything else."""
    try:
        return operator.index(tile)
    except TypeError:
        raise IllegalMove(f"tile {quoted(tile)}: a tile is given by its id, a whole number 0..{len(TOKENS) - 1} "
                          "(parse_tile reads a token such as 574)") from None


ZERO_WIDTH_JOINER = "\u200d"


def _joins_emoji(name: str, index: int) -> bool:
    """A zero-width joiner inside an emoji sequence (a family, a flag with a sign): it prints as part of the
    sequence, the one character that does not print on its own a name may hold."""
    if name[index] != ZERO_WIDTH_JOINER or not 0 < index < len(name) - 1:
        return False
    return unicodedata.category(name[index - 1]) in ("So", "Sk", "Mn") and unicodedata.category(name[index + 1]) == "So"


def unprintable(name: str) -> int | None:
    """Where ``name`` holds a character that does not print (``str.isprintable``: a control character, which would
    act on a terminal showing the name, or a format, unassigned or blank one other than the space), or None."""
    return next((i for i, ch in enumerate(name) if not ch.isprintable() and not _joins_emoji(name, i)), None)


def _unprintable_kind(name: str) -> tuple[str, str, dict[str, str]] | None:
    """What kind of character of ``name`` does not print (:func:`unprintable`), or None: its key (as
    :class:`NameRefused` has it), its words for a refusal, and the params of those words."""
    where = unprintable(name)
    if where is None:
        return None
    if unicodedata.category(name[where]) == "Cc":
        return "name_control", "a control character", {}
    # by its Unicode name: an escape such as '\u200b' said little to a player
    char = " ".join(filter(None, (f"U+{ord(name[where]):04X}", unicodedata.name(name[where], ""))))
    return "name_unprintable", f"a character that does not print ({char})", {"char": char}


def check_names(names, first: int = 0) -> list[str]:
    """``names`` as a list of players' names, or :class:`InputError` naming the first player whose name is refused:
    each is text, not empty or blank, printable (:func:`unprintable`) and different from the others' (messages,
    scores and the analysis name the players).  Players are counted from ``first``: 0 as the game's player indices,
    1 for the players of a file or an option.  Every game, match, saved game and command checks names so."""
    if isinstance(names, str):
        raise InputError(f"players is a list of names, like [{names!r}], not a string")
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        raise InputError(f"players is a list of names, like ['ann', 'bob'], not {names!r}")
    for n, name in enumerate(names, start=first):
        if not name.strip():
            raise InputError(f"player {n}: name {name!r} is {'blank' if name else 'empty'}; each player needs a name")
        kind = _unprintable_kind(name)
        if kind is not None:
            raise InputError(f"player {n}: name {name!r} has {kind[1]}")
        if name in names[:n - first]:  # two alike: whose turn, board and score would it be?
            raise InputError(f"player {n}: name {name!r} is player {names.index(name) + first}'s too; each player "
                             "needs a name of their own")
    return list(names)


#: The most players at one table, and the longest name a player may have (characters): the web server's rooms and the
#: terminal's ``play`` and ``call`` seat no more (a Game takes any; the environments, which only simulate, allow more).
MAX_PLAYERS = 8
MAX_NAME = 24

# characters that print as nothing though Unicode counts them as letters or symbols (Hangul fillers, braille blank)
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")

# left out of a name key: the blank letters, the zero-width joiner and the combining grapheme joiner, which joins
# nothing visibly
INVISIBLE_IN_KEYS = BLANK_LETTERS | {ZERO_WIDTH_JOINER, "\u034f"}

# Cyrillic and Greek capitals and small letters drawn like Latin ones: in a name key they are the Latin letter, so
# that "Аlice" with a Cyrillic А cannot sit beside "Alice" (and be let an AI play for in her place)
LOOK_ALIKES = str.maketrans("АВЕКМНОРСТХаеорсухіјѕІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧο", "ABEKMHOPCTXaeopcyxijsIJSABEZHIKMNOPTYXo")


def _is_variation_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def name_key(name: str) -> str:
    """What two names at one table must not share: "Bob", "BOB", full-width "ＢＯＢ", "Bob" with a variation
    selector or an accent, and "Вob" with a Cyrillic В are one name.  Accents are left out only on Latin, Greek
    and Cyrillic letters: in other scripts a mark makes another name (カク and ガク, राम and रमा)."""
    kept, base = [], ""
    for ch in unicodedata.normalize("NFKD", name):
        # what prints as nothing: "\u3164Bob" and "Bob\u2800" read as "Bob" (clean_name counts them as blank)
        if _is_variation_selector(ch) or ch in INVISIBLE_IN_KEYS:
            continue
        on = unicodedata.name(base, "") if base else ""  # a mark opening the name sits on nothing (was a TypeError)
        if unicodedata.category(ch).startswith("M") and not base:
            continue
        if unicodedata.category(ch) == "Mn" and on.startswith(("LATIN", "GREEK", "CYRILLIC")):
            continue
        if not unicodedata.category(ch).startswith("M"):
            base = ch
        kept.append(ch)
    return unicodedata.normalize("NFKC", "".join(kept).translate(LOOK_ALIKES)).casefold()


class NameRefused(InputError):
    """:func:`clean_name`'s refusal of a name, with a ``key`` saying why and its ``params``, the parts of the text
    as it quotes them, so that a web page can word the refusal in its player's language (the web server passes both
    on; docs/WEB.md lists the keys).  The keys: ``name_empty`` and ``name_blank`` (``name``), ``name_long``
    (``name``, ``count``, ``most``), ``name_control`` (``name``), ``name_unprintable`` (``name``, ``char``) and
    ``name_invisible`` (``name``).  The params fill the text without the ``where`` it starts with."""

    def __init__(self, text: str, key: str, **params) -> None:
        super().__init__(text)
        self.key, self.params = key, params

    def __reduce__(self):  # the default rebuilds from args alone, which lack the key (a worker's refusal must pickle)
        return _name_refused, (str(self), self.key, self.params)


def _name_refused(text: str, key: str, params: dict) -> NameRefused:
    return NameRefused(text, key, **params)


def clean_name(name: str, where: str = "") -> str:
    """``name`` as every table seats it (the web server's rooms, ``play`` and ``call``), or :class:`NameRefused` (an
    :class:`InputError`; a plain one for a name that is not text) saying why a table refuses it, its message starting
    with ``where`` (``"player 2: "``).

    Every run of white space (tabs and line breaks too: ``str.split``'s) is one space, none is kept at either
    end, and accents are composed (NFC: a "Ș" typed as an S and a combining comma below is the one character it
    shows, and counts once).  The name is then 1 to :data:`MAX_NAME` printable characters (:func:`unprintable`),
    at least one of them a letter, digit, symbol or punctuation mark that shows (not only accents or blank
    letters)."""
    if not isinstance(name, str):
        raise InputError(f"{where}name: expected text, not {shown(name)}")
    cleaned = unicodedata.normalize("NFC", " ".join(name.split()))
    if not cleaned:
        why = "blank" if name else "empty"
        raise NameRefused(f"{where}name {quoted(name)} is {why}; each player needs a name", f"name_{why}",
                          name=quoted(name))
    shown_name = quoted(cleaned)
    if len(cleaned) > MAX_NAME:
        raise NameRefused(f"{where}name {shown_name} has {len(cleaned):,} characters; at most {MAX_NAME}",
                          "name_long", name=shown_name, count=f"{len(cleaned):,}", most=MAX_NAME)
    kind = _unprintable_kind(cleaned)
    if kind is not None:
        key, words, params = kind
        raise NameRefused(f"{where}name {shown_name} has {words}", key, name=shown_name, **params)
    if not any(unicodedata.category(ch)[0] in "LNSP" and ch not in BLANK_LETTERS for ch in cleaned):
        raise NameRefused(f"{where}name {shown_name} has nothing visible (only accents or blank letters); "
                          "each player needs a name that shows", "name_invisible", name=shown_name)
    return cleaned


def same_name(typed: str, seated: str) -> bool:
    """Whether ``typed`` names the player seated as ``seated``, as a table counts names: ``typed`` cleaned as a name
    to seat is (:func:`clean_name`: "bob  smith" is "bob smith"), then compared by :func:`name_key` ("stefan" is
    "Ștefan").  A name :func:`clean_name` refuses is nobody's."""
    try:
        return name_key(clean_name(typed)) == name_key(seated)
    except InputError:
        return False


def check_table(names: Sequence[str], first: int = 0) -> list[str]:
    """The names of a table of people as the web server's rooms would seat them (:func:`clean_name`), or
    :class:`InputError` for a table they would not seat: more than :data:`MAX_PLAYERS` players, a name
    :func:`clean_name` refuses, or two names the rooms count as one (:func:`name_key`: "Bob" and "BOB").  Players
    are counted from ``first``, as in :func:`check_names`."""
    if len(names) > MAX_PLAYERS:
        raise InputError(f"{len(names)} players; at most {MAX_PLAYERS} at one table")
    seated: list[str] = []
    for n, name in enumerate(names, start=first):
        name = clean_name(name, f"player {n}: ")
        keys = [name_key(other) for other in seated]
        if name_key(name) in keys:  # whose turn, board and score would it be?
            other = keys.index(name_key(name))
            alike = "too" if seated[other] == name else f"({quoted(seated[other])}) written otherwise"
            raise InputError(f"player {n}: name {quoted(name)} is player {other + first}'s {alike}; each player "
                             "needs a name of their own")
        seated.append(name)
    return seated


def check_players(options: Options, count: int) -> None:
    """Refuse a table of ``count`` players that ``options`` do not allow (the check every game and
    environment makes before play)."""
    if count < 1:
        raise InputError("a game needs at least one player")
    if options.solitaire and count != 1:
        raise InputError(f"solitaire is for one player, not {count}")


def group_sizes(total: int, group: int) -> list[int]:
    """How many tiles each draw turns over: groups of ``group``, the remainder alone."""
    sizes = [group] * (total // group)
    if total % group:
        sizes.append(total % group)
    return sizes


def announcer(group: int, players: int, first: int = 0) -> int:
    """No caller (rulebook 004): who announces draw number ``group`` (from 0) -- ``first``, then round the table."""
    return (first + group) % players


@dataclass
class Game:
    """One round.  ``deal`` fixes the tile order; otherwise ``seed`` makes one.  Given neither, the game draws a
    fresh random seed and keeps it as :attr:`seed` (saved with the game, so the round replays); with a ``deal``
    and no seed, ``seed`` stays None ("the deal was given", docs/FORMATS.md).

    ``draw_size`` defaults to the ruleset's ``draw`` option.  ``caller`` is
    the index of the player who calls this round (with no caller: who
    announces first; later announcements go round the table).
    """

    rules: Ruleset
    players: list[str]
    seed: int | None = None
    deal: list[int] | None = None
    draw_size: int | None = None
    caller: int = 0
    boards: list[np.ndarray] = field(init=False)
    moves: list[list[tuple[int, int]]] = field(init=False)  # per player: (tile, cell) in placing order
    drawn: list[int] = field(init=False, default_factory=list)
    pending: list[list[int]] = field(init=False)  # per player: drawn tiles not placed yet
    movable: list[list[int]] = field(init=False)  # per player: tiles placed since the last draw
    settled: list[bool] = field(init=False)  # per player: done with the end-of-round moves (variant 4)
    releases: list[list[tuple[int, int]]] = field(init=False)  # per player: (tile, stamen cell) moved from holding
    announcers: list[int] = field(init=False, default_factory=list)  # per draw: who announced (no caller)

    def __post_init__(self) -> None:
        Ruleset.require(self.rules, "a game is played")
        self.players = check_names(self.players)
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral)):
            raise InputError(f"seed {self.seed!r}: a seed is a whole number (or None)")
        if self.seed is not None:
            self.seed = int(self.seed)  # a numpy integer would not save as JSON
        if self.seed is None and self.deal is None:  # a fresh round each time, its seed kept to save and replay it
            self.seed = fresh_seed()
        options = self.rules.options
        check_players(options, len(self.players))
        self.caller = _whole("caller", self.caller, 0, len(self.players) - 1)
        n = self.rules.tiles_per_round
        if self.draw_size is None:
            self.draw_size = options.draw
        self.draw_size = _whole("draw size", self.draw_size, 1, n)
        if self.deal is not None:
            self.deal = self._checked_deal(self.deal, exact=options.caller)  # with no caller, the tiles so far
            if self.seed is not None and options.caller \
                    and self.deal != seeded_deal(self.seed, self.rules.tile_set, n):
                # the saved game would name a seed that deals other tiles, and could not be read back
                raise InputError(f"the deal is not the one of seed {self.seed} (`takeiteasy deal --seed {self.seed}`); "
                                 "a deal of its own takes no seed")
        elif options.caller:
            assert self.seed is not None  # drawn above: no deal was given
            self.deal = seeded_deal(self.seed, self.rules.tile_set, n)
        else:
            self.deal = []  # grows as players announce tiles
        self.boards = [self.rules.empty_board() for _ in self.players]
        self.moves = [[] for _ in self.players]
        self.pending = [[] for _ in self.players]
        self.movable = [[] for _ in self.players]
        self.settled = [not self.rules.holding_cells for _ in self.players]
        self.releases = [[] for _ in self.players]
        self._sizes = group_sizes(n, self.draw_size)
        self._groups_drawn = 0
        self._announced: list[int] = []  # no caller, several tiles at a time: announced so far
        self._rng = SplitMix64(game_seed(0 if self.seed is None else self.seed, 1))

    def __repr__(self) -> str:
        state = "finished" if self.finished else f"{len(self.drawn)} of {self.rules.tiles_per_round} tiles drawn"
        return f"<Game {self.players!r} under {self.rules!r}: {state}>"

    def _checked_deal(self, tiles, exact: bool) -> list[int]:
        """``tiles`` as a list of tile ids, checked before converting (int() would take 0.7 and "0")."""
        n = self.rules.tiles_per_round
        if isinstance(tiles, (str, bytes)) or not hasattr(tiles, "__iter__"):
            raise InputError(f"a deal is a list of {n} tile ids, not {tiles!r}")
        if isinstance(tiles, (Set, Mapping)):  # a deal is an order
            raise InputError(f"a deal is a list of {n} tile ids in draw order, not a {type(tiles).__name__}")
        tiles = list(tiles)
        bad = [t for t in tiles if isinstance(t, (bool, np.bool_)) or not isinstance(t, numbers.Integral)
               or t not in self.rules.tile_set]
        if bad or len(set(tiles)) != len(tiles) or (len(tiles) != n if exact else len(tiles) > n):
            tokens = any(isinstance(t, str) for t in bad)
            raise InputError(f"a deal is {n} distinct tiles of the game's tile set"
                             + (", by id (parse_tiles reads tokens such as \"574 123\")" if tokens else ""))
        return [int(t) for t in tiles]

    # -- state ---------------------------------------------------------------
    @property
    def all_drawn(self) -> bool:
        """Whether every tile of the round has been drawn (some may still wait to be placed)."""
        return len(self.drawn) == self.rules.tiles_per_round

    @property
    def finished(self) -> bool:
        """Whether the round is over: every tile drawn and placed, every player settled."""
        return self.all_drawn and not any(self.pending) and all(self.settled)

    @property
    def waiting(self) -> list[int]:
        """Players who still have something to do before the next draw (place tiles, or settle at the end)."""
        if self.all_drawn:
            return [p for p in range(len(self.players)) if self.pending[p] or not self.settled[p]]
        return [p for p, tiles in enumerate(self.pending) if tiles]

    @property
    def chooser(self) -> int | None:
        """With no caller: the player who announces the next tile(s); None otherwise or when nothing is left."""
        if self.rules.options.caller or self.all_drawn:
            return None
        return announcer(self._groups_drawn, len(self.players), self.caller)

    def nothing_to_place(self) -> str:
        """Why a player with no drawn tile cannot place one now: the round is over, or (no caller) a tile must be
        announced first, or others must place theirs before the next draw."""
        if self.all_drawn:
            return "no drawn tile to place: every tile has been drawn"
        chooser = self.chooser
        if chooser is not None and not self.waiting:
            return (f"no drawn tile to place: no caller, so player {chooser} ({self.players[chooser]}) "
                    "announces the next tile first")
        return "no drawn tile to place: wait for the next draw"

    @property
    def next_draw_size(self) -> int:
        """How many tiles the next draw turns over (0 when all are drawn)."""
        return 0 if self.all_drawn else self._sizes[self._groups_drawn]

    def remaining(self) -> tuple[int, ...]:
        """Tiles of the set not drawn yet."""
        drawn = set(self.drawn)
        return tuple(t for t in self.rules.tile_set if t not in drawn)

    def previous_tile(self, player: int) -> int:
        """The tile ``player`` placed last (what sun/moon placement compares with), -1 before the first."""
        self._check_player(player)
        return self.moves[player][-1][0] if self.moves[player] else -1

    def previous_cell(self, player: int) -> int:
        """Where ``player`` placed their last tile, -1 before the first."""
        self._check_player(player)
        return self.moves[player][-1][1] if self.moves[player] else -1

    def view(self, player: int, tile: int | None = None) -> View:
        """What ``player`` sees now: placing ``tile`` (default: their first pending tile), announcing (no caller,
        their turn to choose the next tile), settling (daffodil variant 4) or waiting (see :class:`View`)."""
        self._check_player(player)
        phase = "place"
        if tile is None:
            if self.pending[player]:
                tile = self.pending[player][0]
            elif self.all_drawn and not self.settled[player]:
                phase, tile = "settle", -1
            elif self.chooser == player and not self.waiting:
                phase, tile = "announce", -1
            else:  # a caller game before its draw said "announce", and an agent then picked a tile
                phase, tile = "wait", -1
        others = tuple(b.copy() for b in self.rules.others_in_sight(self.boards, player) or ())
        return View(self.rules, self.boards[player].copy(), tile, self.remaining(), self.previous_tile(player),
                    len(self.moves[player]), self.previous_cell(player), tuple(self.pending[player]), others, phase)

    def board_scores(self) -> list[int]:
        """Each board's own score, without round bonuses."""
        return [self.rules.score(board) for board in self.boards]

    def round_bonuses(self) -> list[int]:
        """Bonus points from comparing the boards (Best Sunray/Moonbeam); zeros in other variants."""
        return self.rules.round_bonuses(self.boards)

    def scores(self) -> list[int]:
        """Each player's score for the round: board score plus round bonus."""
        return [s + b for s, b in zip(self.board_scores(), self.round_bonuses())]

    # -- actions -------------------------------------------------------------
    def draw(self, tiles: list[int] | None = None) -> list[int]:
        """Turn over the next tile (or tiles); every player must place them.

        With no caller, ``tiles`` are the tiles the chooser announces (as
        many as :attr:`next_draw_size`); with a caller they come from the deal.
        """
        if self.waiting:
            raise IllegalMove("every player must place the drawn tiles before the next draw")
        if self.all_drawn:
            raise IllegalMove("the round is over: every tile has been drawn")
        if tiles is not None and (isinstance(tiles, (str, bytes)) or not hasattr(tiles, "__iter__")):
            raise IllegalMove(f"tiles {tiles!r}: the tiles drawn are a list of tile ids, like [{tiles!r}]"
                              if isinstance(tiles, numbers.Integral) else
                              f"tiles {tiles!r}: the tiles drawn are a list of tile ids (parse_tiles reads tokens)")
        deal = self.deal
        assert deal is not None  # __post_init__ made it (None is only what the constructor takes)
        size = self._sizes[self._groups_drawn]
        start = len(self.drawn)
        if not self.rules.options.caller and start + size > len(deal):
            chooser = self.chooser
            assert chooser is not None  # no caller, and tiles are left
            if tiles is None:
                raise IllegalMove(f"no caller: player {chooser} ({self.players[chooser]}) must announce "
                                  f"{size} tile{'s' if size > 1 else ''} from their remaining set")
            tiles = [_tile_id(t) for t in tiles]
            left = set(self.remaining())
            for t in tiles:
                if t not in left:
                    raise IllegalMove(f"no caller: tile {_tile_name(t)} is not in the remaining set")
            if len(tiles) != size or len(set(tiles)) != size:
                raise IllegalMove(f"no caller: announce {size} different tile{'s' if size > 1 else ''}")
            deal.extend(tiles)
            self.announcers.append(chooser)
        elif tiles is not None and [_tile_id(t) for t in tiles] != deal[start: start + size]:
            raise IllegalMove("the caller draws the tiles: they cannot be chosen")
        self._groups_drawn += 1
        tiles = deal[start: start + size]
        self.drawn.extend(tiles)
        for p in range(len(self.players)):
            self.pending[p] = list(tiles)
            self.movable[p] = []
        return list(tiles)

    @property
    def announced(self) -> tuple[int, ...]:
        """No caller, several tiles at a time: the tiles of the coming group announced so far."""
        return tuple(self._announced)

    def announceable(self) -> tuple[int, ...]:
        """No caller: the tiles the chooser may announce now -- not drawn yet, nor announced already for the
        coming group (empty when nothing may be announced: a caller, tiles still to place, or all drawn)."""
        if self.rules.options.caller or self.waiting or self.all_drawn:
            return ()
        return tuple(t for t in self.remaining() if t not in self._announced)

    def announce(self, tile: int) -> list[int]:
        """No caller: the chooser announces one tile (several calls when more are drawn at a time).

        Returns the tiles turned over once the group is complete, else [].
        """
        if self.rules.options.caller:
            raise IllegalMove("this game has a caller: tiles are drawn at random")
        if self.waiting:
            raise IllegalMove("every player must place the drawn tiles before the next announcement")
        if self.all_drawn:
            raise IllegalMove("the round is over: every tile has been drawn")
        tile = _tile_id(tile)
        size = self._sizes[self._groups_drawn]
        partial = self._announced
        if tile not in self.announceable():
            raise IllegalMove(f"no caller: tile {_tile_name(tile)} is not in the remaining set")
        partial.append(tile)
        if len(partial) < size:
            return []
        self._announced = []
        return self.draw(partial)

    def place(self, player: int, cell: int, tile: int | None = None) -> None:
        """Put a drawn tile (the first pending one if ``tile`` is None) on ``cell``."""
        self._check_player(player)
        pending = self.pending[player]
        if not pending:
            raise IllegalMove(self.nothing_to_place())
        tile = pending[0] if tile is None else _tile_id(tile)
        if tile not in pending:
            raise IllegalMove(f"tile {_tile_name(tile)} is not waiting to be placed")
        reason = self.rules.refusal(self.boards[player], tile, cell, self.previous_tile(player),
                                    self.previous_cell(player))
        if reason:
            raise IllegalMove(reason)
        self.boards[player][cell] = tile
        self.moves[player].append((tile, cell))
        pending.remove(tile)
        self.movable[player].append(tile)

    def move(self, player: int, cell: int, tile: int | None = None) -> None:
        """Move a tile placed since the last draw (the last one by default) to ``cell``.

        The tiles placed since the last draw keep their placing order; the
        move stands only if each of them is still legal in that order.
        """
        self._check_player(player)
        reason = self._nothing_moves(player)
        if reason:
            raise IllegalMove(reason)
        tile = self.movable[player][-1] if tile is None else _tile_id(tile)
        if tile not in self.movable[player]:
            if tile not in self.boards[player]:
                raise IllegalMove(f"tile {_tile_name(tile)} is not on this player's board")
            raise IllegalMove(f"tile {_tile_name(tile)} was placed before the last draw and may not move")
        if isinstance(cell, bool) or not isinstance(cell, numbers.Integral):  # a bool would index the board as a mask
            raise IllegalMove(f"cell {quoted(cell)}: a cell is a whole number")
        if 0 <= cell < len(self.boards[player]) and self.boards[player][cell] == tile:
            raise IllegalMove(f"tile {_tile_name(tile)} is on cell {cell} already")
        board, replay, reason = self._moved(player, tile, cell)
        if reason:
            raise IllegalMove(reason)
        self.boards[player] = board
        self.moves[player][len(self.moves[player]) - len(replay):] = replay

    def move_targets(self, player: int, tile: int | None = None) -> list[int]:
        """The empty cells :meth:`move` would take ``tile`` (default: the tile placed last) to now; none when
        nothing may move."""
        self._check_player(player)
        if self._nothing_moves(player):
            return []
        tile = self.movable[player][-1] if tile is None else _tile_id(tile)
        if tile not in self.movable[player]:
            return []
        board = self.boards[player]
        return [cell for cell in range(len(board)) if board[cell] < 0 and self._moved(player, tile, cell)[2] is None]

    def _nothing_moves(self, player: int) -> str | None:
        """Why no placed tile of ``player`` may move now, or None when the tiles placed since the last draw may."""
        if not self.rules.options.takeback:
            return "no takeback: a placed tile may not be moved in this game"
        if self.rules.holding_cells and self.all_drawn and (self.releases[player] or self.settled[player]):
            # the end moves start once play is over: a move now could lay a released tile down twice
            return "holding area: once a held tile has moved onto the stamen, or the player has settled, no placed " \
                   "tile moves again"
        if not self.movable[player]:
            return "only a tile placed since the last draw may be moved"
        return None

    def _moved(self, player: int, tile: int, cell: int) -> tuple[np.ndarray, list[tuple[int, int]], str | None]:
        """The board and placements after moving ``tile`` to ``cell``, replaying the tiles placed since the last
        draw in their order, and why that is refused (``None``: it stands)."""
        moves = self.moves[player]
        first = len(moves) - len(self.movable[player])
        replay = [(t, cell if t == tile else c) for t, c in moves[first:]]
        board = self.boards[player].copy()
        for t, c in moves[first:]:
            board[c] = -1
        previous = moves[first - 1] if first else (-1, -1)
        for t, c in replay:
            reason = self.rules.refusal(board, t, c, previous[0], previous[1])
            if reason:
                if t != tile:
                    reason = f"moving {format_tile(tile)} there would make {format_tile(t)} illegal ({reason})"
                return board, replay, reason
            board[c] = t
            previous = (t, c)
        return board, replay, None

    def release(self, player: int, tile: int, cell: int) -> None:
        """Daffodil variant 4, end of round: move a held tile onto an empty stamen cell."""
        self._release_refusal(player)
        self.boards[player] = self.rules.released(self.boards[player], [(tile, cell)])
        self.releases[player].append((int(tile), int(cell)))  # checked whole numbers, numpy's too
        self.movable[player] = []  # play is over for this player: see move()

    def _release_refusal(self, player: int) -> None:
        """:class:`IllegalMove` unless ``player`` may move held tiles onto the stamen now."""
        self._check_player(player)
        if not self.rules.holding_cells:
            raise IllegalMove(RELEASE_ONLY_HOLDING)
        if not self.all_drawn or self.pending[player]:
            raise IllegalMove("holding area: tiles move onto the stamen only once every tile is placed")
        if self.settled[player]:
            raise IllegalMove("holding area: this player has already finished the round")

    def settle(self, player: int, releases: Sequence[tuple[int, int]] = ()) -> None:
        """Daffodil variant 4: make the given (tile, stamen cell) moves, and finish the round for ``player``.
        Every move is checked before any is made: a refused settle changes nothing."""
        self._check_player(player)
        if isinstance(releases, (str, bytes)) or not hasattr(releases, "__iter__"):
            raise IllegalMove(f"releases: expected a list of (tile, stamen cell) pairs, not {quoted(releases)}")
        releases = list(releases)
        if releases:
            self._release_refusal(player)
            self.rules.released(self.boards[player], releases)  # refuses a bad pair before anything moves
        for tile, cell in releases:
            self.release(player, tile, cell)
        if not self.all_drawn or self.pending[player]:
            raise IllegalMove("the round is not over: tiles are still to be placed")
        self.settled[player] = True
        self.movable[player] = []

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, numbers.Integral) or not 0 <= player < len(self.players):
            raise IllegalMove(f"there is no player {quoted(player)}")

    # -- driving players -----------------------------------------------------
    def play(self, agents: list[Player]) -> list[int]:
        """Play the round to the end with one agent per player; returns the scores."""
        if not isinstance(agents, (list, tuple)):  # one agent alone, not in a list
            raise InputError(f"play takes a list of agents, one per player (like [agent]), not "
                             f"{type(agents).__name__}")
        if len(agents) != len(self.players):
            raise InputError(f"one agent per player: {len(agents)} agents for {len(self.players)} players")
        self._check_agents(agents)
        while not self.all_drawn:
            self.draw_next(agents)
            for p, agent in enumerate(agents):
                while self.pending[p]:
                    self.play_one(p, agent)
        for p, agent in enumerate(agents):
            if not self.settled[p]:
                self.settle_with(p, agent)
        return self.scores()

    def _check_agents(self, agents: list[Player]) -> None:
        """Refuse what cannot play this round, before anything is drawn: a name instead of an agent, or an agent
        made for other rules (it would pick cells these rules forbid, or index another board)."""
        for player, agent in zip(self.players, agents):
            if not callable(getattr(agent, "choose", None)):
                raise InputError(f"the agent for {player!r} is {agent!r}, not a player with a choose(view) method"
                                 + (f"; make one with make_agent({agent!r}, rules)" if isinstance(agent, str) else ""))
            own = getattr(agent, "rules", None)
            differ = self.rules.differences_in_play(own) if isinstance(own, Ruleset) else []
            if differ:
                raise InputError(f"the agent for {player!r} was made for other rules (they differ in "
                                 f"{', '.join(differ)}); make it with this game's rules (game.rules)")

    def _agents_number(self, player: int, value, what: str) -> int:
        """An agent's answer as a whole number, or :class:`IllegalMove` naming the player: ``int()`` would take
        3.7 as cell 3 and a token '574' as tile id 574."""
        try:
            return operator.index(value)
        except TypeError:
            hint = "; a tile is its id (parse_tile turns a token into one)" if what == "tile" else ""
            raise IllegalMove(f"{self.players[player]}: the agent answered {quoted(value)} for a {what}: "
                              f"a {what} is a whole number{hint}") from None

    def draw_next(self, agents: Sequence[Player | None] | None = None) -> list[int]:
        """Draw the next tiles; with no caller, the chooser's ``announce`` hook picks them (default: at random),
        unless the game was given them already (a replay).  ``agents``: one per player, None for a person."""
        assert self.deal is not None  # __post_init__ made it
        if self.rules.options.caller or len(self.drawn) + self.next_draw_size <= len(self.deal):
            return self.draw()
        chooser = self.chooser
        assert chooser is not None  # no caller, and tiles are left (else the draw above)
        agent = agents[chooser] if agents else None
        tiles: list[int] = []
        for _ in range(self.next_draw_size):
            left = [t for t in self.remaining() if t not in tiles]
            if agent is not None and hasattr(agent, "announce"):
                view = self.view(chooser)
                view = View(view.rules, view.board, -1, tuple(left), view.previous_tile, view.turn,
                            view.previous_cell, (), view.others, "announce")
                tile = self._agents_number(chooser, agent.announce(view), "tile")
            else:
                tile = left[self._rng.below(len(left))]
            tiles.append(tile)
        return self.draw(tiles)

    def play_one(self, player: int, agent: Player) -> None:
        """Let ``agent`` place one of ``player``'s pending tiles."""
        view = self.view(player)
        if hasattr(agent, "choose_move") and len(view.pending) > 1:
            answer = agent.choose_move(view)
            try:
                tile, cell = answer
            except (TypeError, ValueError):
                raise IllegalMove(f"{self.players[player]}: the agent's choose_move answered {quoted(answer)}: "
                                  "expected a (tile, cell) pair") from None
            tile = self._agents_number(player, tile, "tile")
        else:
            cell, tile = agent.choose(view), None
        cell = self._agents_number(player, cell, "cell")
        try:
            self.place(player, cell, tile)
        except IllegalMove as exc:  # an agent's mistake: say whose, and at which tile
            raise IllegalMove(f"{self.players[player]}, tile {len(self.drawn)}: {exc}") from None

    def settle_with(self, player: int, agent: Player) -> None:
        """Daffodil variant 4: the agent's ``settle`` hook, or else the best-scoring moves onto the stamen."""
        if not hasattr(agent, "settle"):
            self.settle(player, self.best_release(player))
            return
        try:
            self.settle(player, agent.settle(self.view(player)))
        except IllegalMove as exc:  # an agent's mistake: say whose
            raise IllegalMove(f"{self.players[player]}, settling: {exc}") from None

    def best_release(self, player: int) -> list[tuple[int, int]]:
        """Daffodil variant 4: ``player``'s best moves onto the stamen (:meth:`Ruleset.best_release`), counting
        the Best Sunray/Moonbeam bonus against the boards the player can see: all of them alone or with no
        caller (rulebook 004: players look at each other's boards), none with a caller."""
        self._check_player(player)
        return self.rules.best_release(self.boards[player], self.rules.others_in_sight(self.boards, player))

    # -- saving --------------------------------------------------------------
    def to_json(self) -> dict:
        """The saved-game record described in docs/FORMATS.md."""
        n = self.rules.layout.num_cells
        assert self.deal is not None  # __post_init__ made it
        record: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            # a game made with its own draw_size drew that many at a time: its record's rules say so
            "options": self.rules.options.but(draw=self.draw_size).to_json(),
            "seed": self.seed,
            "caller": self.caller,
            "draw_size": self.draw_size,
            "deal": [TOKENS[t] for t in self.deal],
            "players": [],
        }
        bonuses = self.round_bonuses()
        for p, name in enumerate(self.players):
            board = self.boards[p]
            entry = {"name": name, "moves": [{"tile": TOKENS[t], "cell": c} for t, c in self.moves[p]],
                     "board": format_board(board[:n]), "score": self.rules.score(board)}
            if self.rules.holding_cells:
                entry["holding"] = format_board(board[n:])
                entry["releases"] = [{"tile": TOKENS[t], "cell": c} for t, c in self.releases[p]]
                entry["settled"] = self.settled[p]
            if any(bonuses):
                entry["round_bonus"] = bonuses[p]
            record["players"].append(entry)
        return record

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        """Rebuild a game by replaying its saved moves through the rules."""
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
            raise InputError(f"not a saved game: expected format {FORMAT_NAME!r}")
        version = data.get("version", FORMAT_VERSION)
        if type(version) is not int or version != FORMAT_VERSION:  # true and 1.0 equal 1 in Python, not in the format
            raise InputError(f"saved game version {shown(data['version'])}: this takeiteasy reads version "
                             f"{FORMAT_VERSION}")
        try:
            rules = Ruleset.from_options(Options.from_json(data.get("options", {}), saved=True))
            deal = [parse_tile(t) for t in data["deal"]]
            players = data["players"]
            names = [p["name"] for p in players]
            caller = data.get("caller", 0)  # checked by the constructor: int() would take "1", 1.9 and true
            size = data.get("draw_size")
            moves = [[(parse_tile(m["tile"]), _saved_cell(m["cell"], p["name"], f"move {n}"))
                      for n, m in enumerate(p["moves"], start=1)] for p in players]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"saved game: missing or malformed field ({exc})") from None
        try:
            check_names(names, first=1)  # counted as a person reads the file, as the other messages name players
        except InputError as exc:
            raise InputError(f"saved game: {exc}") from None
        no_caller = not rules.options.caller
        seed = data.get("seed")
        if isinstance(seed, int) and not isinstance(seed, bool) and not no_caller \
                and deal != seeded_deal(seed, rules.tile_set, rules.tiles_per_round):
            raise InputError(f"saved game: the deal is not the one of its seed {seed} (`takeiteasy deal --seed "
                             f"{seed}`); a deal of its own has seed null")
        # no caller: the deal grows as the replay announces it ([]: given, so a null seed stays null)
        game = cls(rules, names, seed, [] if no_caller else deal, size, caller)
        if game.draw_size != rules.options.draw:  # which of the two did the round follow?
            raise InputError(f"saved game: draw_size {game.draw_size} contradicts the options' draw "
                             f"{rules.options.draw}; give one number of tiles turned over at a time")
        while not game.all_drawn and any(len(game.moves[p]) < len(moves[p]) for p in range(len(moves))):
            if no_caller:
                start = len(game.drawn)
                tiles = game.draw(deal[start: start + game.next_draw_size])
            else:
                tiles = game.draw()
            for p, player_moves in enumerate(moves):
                for tile, cell in player_moves[len(game.moves[p]): len(game.moves[p]) + len(tiles)]:
                    try:
                        game.place(p, cell, tile)
                    except IllegalMove as exc:  # say where: the record may hold many moves
                        raise IllegalMove(f"player {game.players[p]!r} move {len(game.moves[p]) + 1}: {exc}") from None
        for p, player_moves in enumerate(moves):  # moves left over once every tile is drawn: a damaged record
            if len(player_moves) > len(game.moves[p]):
                raise InputError(f"saved game: player {game.players[p]!r} lists {len(player_moves)} moves, but a round "
                                 f"deals only {len(game.drawn)} tiles")
        for p, entry in enumerate(players):
            releases = entry.get("releases", [])
            if not isinstance(releases, list):
                raise InputError(f"saved game: player {game.players[p]!r}: releases is a list, not {releases!r}")
            for n, release in enumerate(releases, start=1):
                if not isinstance(release, dict) or "tile" not in release or "cell" not in release:
                    raise InputError(f"saved game: player {game.players[p]!r} release {n}: expected "
                                     f'{{"tile": "574", "cell": 3}}, not {release!r}')
                tile, cell = parse_tile(release["tile"]), _saved_cell(release["cell"], game.players[p], f"release {n}")
                try:
                    game.release(p, tile, cell)
                except IllegalMove as exc:
                    raise IllegalMove(f"player {game.players[p]!r} release {n}: {exc}") from None
            if entry.get("settled"):
                game.settle(p)
        return game


def _saved_cell(value, player, where: str) -> int:
    """A saved cell number: a JSON integer only (int() would take "3", 3.7 and true)."""
    # Integral also lets a record built in memory with numpy integers through; bool is an int in Python.
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise InputError(f"saved game: player {player!r} {where}: a cell is a whole number, like 3, "
                         f"not {json.dumps(value, default=str)[:40]}")
    return int(value)


@dataclass
class Match:
    """Several rounds (boards) of one ruleset.

    ``rounds`` and ``format`` default to the ruleset's ``rounds`` and
    ``match`` options.  ``total`` (rulebook 001): the caller rotates each
    round and the highest running total wins.  ``best-of`` (rulebook 001):
    the single highest score takes each board (a shared top score takes it
    for nobody); nothing carries over; the match ends when no one can catch
    the leader, and tied leaders after N boards play deciding boards, at most
    N of them (then they share the win).  ``seed`` is the series the rounds' deals come from
    (``deal --seed S --index i``); None (the default) draws a fresh random one, kept as :attr:`seed`.
    """

    rules: Ruleset
    players: list[str]
    rounds: int | None = None
    seed: int | None = None
    results: list[list[int]] = field(default_factory=list)  # per round, per player
    format: str | None = None

    def __post_init__(self) -> None:
        Ruleset.require(self.rules, "a match is played")
        self.players = check_names(self.players)
        check_players(self.rules.options, len(self.players))
        if self.rounds is None:
            self.rounds = self.rules.options.rounds
        if self.format is None:
            self.format = self.rules.options.match
        if not isinstance(self.format, str) or self.format not in ("total", "best-of"):
            raise InputError(f"unknown match format {quoted(self.format)}; expected total or best-of")
        self.results = self._checked_results(self.results)
        self.rounds = _whole("rounds", self.rounds, 1, MAX_ROUNDS)  # a match is bounded, as the option is
        if self.seed is None:  # a fresh series of deals, its seed kept so the match can be replayed
            self.seed = fresh_seed()
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral):
            raise InputError(f"seed {self.seed!r}: a seed is a whole number (or None for a fresh random one)")

    def _checked_results(self, results) -> list[list[int]]:
        """Rounds already played (per round, one score per player), or :class:`InputError`."""
        if isinstance(results, (str, bytes)) or not isinstance(results, Sequence):
            raise InputError(f"results: expected a list of rounds, each a list of scores, not {quoted(results)}")
        checked = []
        for number, scores in enumerate(results, start=1):
            if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) or len(scores) != len(self.players) \
                    or any(isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in scores):
                raise InputError(f"results: round {number} is {quoted(scores)}; expected one whole-number score for "
                                 f"each of the {len(self.players)} players")
            checked.append([int(x) for x in scores])
        return checked

    def __repr__(self) -> str:
        state = "finished" if self.finished else f"{len(self.results)} rounds played"
        return f"<Match {self.players!r} under {self.rules!r}, {self.format} of {self.rounds}: {state}>"

    def new_round(self) -> Game:
        """The next round's game (the caller rotates; each round has its own seeded deal)."""
        if self.finished:
            raise IllegalMove("the match is over")
        index = len(self.results)
        assert self.seed is not None  # __post_init__ drew one
        return Game(self.rules, self.players, game_seed(self.seed, index), caller=index % len(self.players))

    def record(self, game: Game) -> None:
        """Add a finished round's scores to the match."""
        if not isinstance(game, Game) or not game.finished:
            raise IllegalMove("only a finished round can be recorded")
        if self.finished:
            raise IllegalMove("the match is over")
        if game.players != self.players or game.rules.options != self.rules.options:
            # another table's round: its scores would go to the wrong players (or past the end of the list)
            raise IllegalMove(f"a round of {game.players} under other rules is not a round of this match "
                              f"({self.players})" if game.rules.options != self.rules.options else
                              f"a round of {game.players} is not a round of this match ({self.players})")
        index = len(self.results)
        assert self.seed is not None  # __post_init__ drew one
        if game.seed != game_seed(self.seed, index) or game.caller != index % len(self.players):
            # a round recorded twice, or one dealt elsewhere, would count in place of the round the match deals
            raise IllegalMove(f"this is not round {index + 1} of the match (its deal is seed "
                              f"{game_seed(self.seed, index)}'s): play the round new_round() gives")
        self.results.append(game.scores())

    def play(self, agents: list[Player]) -> list[int]:
        """Play every round with one agent per player; returns the standings (see :attr:`standings`)."""
        while not self.finished:
            game = self.new_round()
            game.play(agents)
            self.record(game)
        return self.standings

    @property
    def totals(self) -> list[int]:
        """Each player's running total over the rounds played."""
        return [sum(r[p] for r in self.results) for p in range(len(self.players))]

    @property
    def boards_won(self) -> list[int]:
        """Best-of: boards each player took (the sole highest score of a round).  A deciding board, after the
        N boards, is played for by the leaders tied then: the highest score among them alone takes it (a
        player already out who scored more took it, and the match went on though one leader beat the other)."""
        won = [0] * len(self.players)

        def take(scores: list[int], contenders: list[int]) -> None:
            top = max(scores[p] for p in contenders)
            best = [p for p in contenders if scores[p] == top]
            if len(best) == 1:
                won[best[0]] += 1

        everyone = list(range(len(self.players)))
        for scores in self.results[:self.rounds]:
            take(scores, everyone)
        leaders = [p for p in everyone if won[p] == max(won)]
        for scores in self.results[self.rounds:]:
            take(scores, leaders)
        return won

    @property
    def standings(self) -> list[int]:
        """What decides the match: running totals, or boards won in best-of."""
        return self.totals if self.format == "total" else self.boards_won

    @property
    def finished(self) -> bool:
        """Whether the match is decided (every round played, or in best-of nobody can catch the leader)."""
        played, rounds = len(self.results), self.rounds
        assert rounds is not None  # __post_init__ took the ruleset's
        if self.format == "total":
            return played >= rounds
        won = self.boards_won
        lead = max(won)
        if len(self.players) > 1 and played < rounds:
            left = rounds - played
            return sum(1 for w in won if w + left >= lead) == 1  # nobody else can reach the leader
        if played >= rounds * 2:  # N deciding boards at most: players who always tie would never finish
            return True
        return played >= rounds and won.count(lead) == 1 or (len(self.players) == 1 and played >= rounds)

    @property
    def winners(self) -> list[int]:
        """Players with the best standing (several when tied); empty before the match ends."""
        if not self.finished:
            return []
        best = max(self.standings)
        return [p for p, s in enumerate(self.standings) if s == best]
