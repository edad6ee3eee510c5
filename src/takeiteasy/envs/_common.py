"""What every environment shares: rules from keyword arguments, seeds, and the observation encoding.

An episode is one round in every environment.  The match options
(``rounds``, ``match``) count rounds and change nothing within one, so they
are accepted and leave the episode a single round; a match is one episode
per round.

Encoding (the same in the Gymnasium, PettingZoo and OpenSpiel environments):

* ``board`` -- one integer per board entry in notation order: 0 for an empty
  cell, ``tile + 1`` for a placed tile (under the daffodil holding area,
  variant 4, the three holding slots follow the layout's cells);
* ``tile`` -- the tile to place now as ``tile + 1``; 0 once the round is over;
* ``bag`` -- one flag per tile id: 1 for a tile of the game's set that has not
  been turned over (nor, with no caller, announced) yet: it may still come;
* ``hand`` -- only when several tiles are turned over at once: per tile id, its
  place among the drawn tiles still to place after the current one (1 = placed
  right after it, 2 = the one after, ...), 0 for a tile not waiting; with two at
  a time these are flags (:func:`queue_places`);
* ``announced`` -- only with no caller and three or more tiles at a time: per
  tile id, its place in the order the tiles of the coming group were announced
  so far (1 = announced first), 0 for a tile not announced;
* ``previous`` -- only under sun/moon placement, whose allowed cells depend on
  the tile placed before: that tile's cell + 1 (0 before the first).

``K`` below is the number of tile ids the ruleset can use: 27 for the standard
set, 31 with the daffodil wildcards.

Actions are board entries too, holding slots included.  The holding area's
end-of-round moves are not actions: once a player has placed every tile, the
environment moves their held tiles onto the stamen where they score most
(:meth:`~takeiteasy.core.rules.Ruleset.best_release`), and the last
placement's reward includes the gain.

With no caller (``caller=False``, rulebook 004) the players take turns
choosing the tiles, so announcing is an action too: action ``cells + t``
announces tile ``t`` (``cells`` being the number of board entries).  While a
player must announce, ``tile`` is 0 and the mask allows exactly the tiles of
the set not drawn yet (nor already announced for the coming group).
"""

from __future__ import annotations

import json
import operator
import warnings
from collections.abc import Mapping, Set
from functools import cache

import numpy as np

from ..core.errors import InputError, quoted, shown
from ..core.game import IllegalMove, check_players, group_sizes
from ..core.notation import parse_tiles
from ..core.presets import preset as preset_options
from ..core.rules import Options, Ruleset, RulesError

#: Largest seed the environments derive from their own random generator.
SEED_LIMIT = 2**63
#: Most players at one table (the OpenSpiel game's max_num_players): a bound, so that a typo cannot ask for
#: boards by the million.
MAX_PLAYERS = 10


def whole_number(value, what: str, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``; a bool, float or string is refused, not coerced (``int(1.5)`` is 1)."""
    bounds = f"{low}..{high}" if high is not None else f"at least {low}"
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise InputError(f"{what}={shown(value)}: expected a whole number, {bounds}") from None
    if number < low or (high is not None and number > high):
        raise InputError(f"{what}={shown(number)}: expected {bounds}")
    return number


def reset_options(options, known: tuple[str, ...], strict: bool = True) -> dict:
    """The reset options as a dict, refusing anything else, and any key not in ``known`` (a misspelt key
    would otherwise be ignored without a word).  ``strict=False`` only warns about such keys: PettingZoo's
    own checkers reset with ``options={"options": 1}`` and expect it to be taken."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise InputError(f"reset options={shown(options)}: expected a dict")
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        message = f"reset options: unknown {', '.join(map(repr, unknown))}; known: {', '.join(known)}"
        if strict:
            raise InputError(message)
        warnings.warn(message + " (ignored)", stacklevel=4)
    return options


def seed_number(seed) -> int | None:
    """A reset seed as an int (negative too, as ``Game`` takes), or None."""
    return None if seed is None else given_seed(seed)


def given_seed(seed) -> int:
    """A reset seed other than None as an int (:func:`seed_number`)."""
    try:
        if isinstance(seed, (bool, np.bool_)):
            raise TypeError
        return operator.index(seed)
    except TypeError:
        raise InputError(f"reset seed={shown(seed)}: expected a whole number or None") from None


def generator(seed: int) -> np.random.Generator:
    """numpy's generator for any int seed: as numpy's own for 0 and up (the streams of earlier versions), and
    for a negative seed, which numpy refuses, the pair (-seed, 1)."""
    return np.random.default_rng(seed if seed >= 0 else (-seed, 1))


def rules_from(rules: Ruleset | None = None, options: Options | dict | None = None, preset: str | None = None,
               **kwargs) -> Ruleset:
    """A ruleset from a ready ``Ruleset``, an ``Options`` (or its JSON dict), a preset name, or Options fields
    as keywords (on their own, or changing the preset's options).

    Keywords are passed to :class:`Options` unchanged, so every field it has
    (``board``, ``placement``, ``scoring``, ``wildcards``, ...) is a keyword of
    every environment.
    """
    if sum(x is not None for x in (rules, options, preset)) > 1:
        raise RulesError("give one of rules=, options= or preset=, not several")
    if rules is not None and not isinstance(rules, Ruleset):
        raise RulesError(f"rules={shown(rules)}: expected a Ruleset")
    if options is not None and not isinstance(options, (Options, dict)):
        raise RulesError(f"options={shown(options)}: expected an Options or a dict of its fields")
    if rules is None and options is not None:
        if kwargs:
            raise RulesError("give either options= or rule keywords, not both")
        rules = Ruleset.from_options(options if isinstance(options, Options) else Options.from_json(dict(options)))
    elif rules is None:
        base = preset_options(preset).to_json() if preset is not None else {}
        rules = Ruleset.from_options(Options.from_json({**base, **kwargs}))
    elif kwargs:
        raise RulesError("give either rules= or rule keywords, not both")
    return rules


def seats(rules: Ruleset, num_players) -> int:
    """The number of players as an int, refused as ``Game`` would (solitaire is for one player), so that an
    environment fails when it is built rather than at its first reset."""
    count = whole_number(num_players, "num_players", 1, MAX_PLAYERS)
    check_players(rules.options, count)
    return count


def settle_when_done(game, seat: int) -> None:
    """Daffodil variant 4: once ``seat`` has placed every tile, make its best end moves onto the stamen."""
    rules = game.rules
    if rules.holding_cells and game.all_drawn and not game.pending[seat] and not game.settled[seat]:
        game.settle(seat, game.best_release(seat))


def score_now(game, seat: int) -> int:
    """The seat's score: its board's, plus the round bonus (Best Sunray/Moonbeam) once the round is over."""
    return game.scores()[seat] if game.finished else game.rules.score(game.boards[seat])


def settled(rules: Ruleset, board: np.ndarray, others=None) -> np.ndarray:
    """``board`` after its best end moves from the holding area (itself when there is none); ``others`` as in
    :meth:`~takeiteasy.core.rules.Ruleset.best_release` (the other boards, ``()`` alone)."""
    if not rules.holding_cells:
        return board
    return rules.released(board, rules.best_release(board, others))


def action_number(action) -> int:
    """An action as an int: Python and numpy integers (0-d arrays too); anything else is refused, booleans too
    (``True`` is an int to Python, but as a cell it is a mistake; numpy's booleans are refused anyway)."""
    if isinstance(action, (bool, np.bool_)) or (isinstance(action, np.ndarray) and action.dtype == np.bool_):
        raise IllegalMove(f"action {quoted(action)} is not an integer")
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalMove(f"action {quoted(action)} is not an integer") from None


def announces(rules: Ruleset) -> bool:
    """No caller (rulebook 004): the players choose the tiles, and announcing one is an action."""
    return not rules.options.caller


def num_actions(rules: Ruleset) -> int:
    """Board entries, then (no caller) one announcement per tile id."""
    return rules.board_size + (num_tile_ids(rules) if announces(rules) else 0)


def action_mask(rules: Ruleset, game, seat: int) -> np.ndarray:
    """int8 over :func:`num_actions`: the cells for the seat's tile in hand, or the tiles it may announce."""
    mask = np.zeros(num_actions(rules), dtype=np.int8)
    if announcing(game) and game.chooser == seat:
        mask[[rules.board_size + t for t in announceable(game)]] = 1
    elif game.pending[seat]:
        mask[:rules.board_size] = rules.legal_mask(game.boards[seat], game.pending[seat][0], game.previous_tile(seat),
                                                   game.previous_cell(seat))
    return mask


def announcing(game) -> bool:
    """No caller, and the next tile is the chooser's to announce (everyone has placed)."""
    return game.chooser is not None and not game.waiting


def announceable(game) -> list[int]:
    """The tiles the chooser may announce now (the engine's :meth:`Game.announceable`)."""
    return list(game.announceable())


def bag(flags: np.ndarray, game) -> np.ndarray:
    """``flags`` (the tile set) without the tiles turned over, nor those announced for the coming group: with no
    caller and several tiles at a time, the observation must show the announcements already made."""
    out = flags.copy()
    out[game.drawn] = 0
    out[list(game.announced)] = 0
    return out


def check_no_deal_without_caller(rules: Ruleset, options: dict) -> None:
    if announces(rules) and options.get("deal") is not None:
        raise InputError("reset option 'deal': with no caller the players choose the tiles; there is no deal")


@cache
def rules_for_json(options_json: str) -> Ruleset:
    """The ruleset of a canonical options JSON string (shared, so game states stay cheap to copy)."""
    return Ruleset.from_options(Options.from_json(json.loads(options_json)))


def options_key(rules: Ruleset) -> str:
    return json.dumps(rules.options.to_json(), sort_keys=True)


def draw_size_of(rules: Ruleset) -> int:
    """Tiles turned over at once (1 unless the ruleset's options say otherwise)."""
    return rules.options.draw


def num_tile_ids(rules: Ruleset) -> int:
    """K: the size of the tile-id range the ruleset uses."""
    return max(rules.tile_set) + 1


def set_flags(rules: Ruleset) -> np.ndarray:
    """Multi-hot of the ruleset's tile set over K ids."""
    return tile_flags(num_tile_ids(rules), rules.tile_set)


def shows_hand(rules: Ruleset) -> bool:
    """Several tiles turned over at once: the observation has a ``hand``, the tiles drawn and still to place
    after the current one (a player at the table sees them), each by its place in the queue (:func:`queue_places`)."""
    return draw_size_of(rules) > 1


def shows_order(rules: Ruleset) -> bool:
    """Three or more tiles turned over at once: flags would not say in which order the tiles waiting after the
    current one (nor, with no caller, the tiles announced for the coming group) come, so ``hand`` and
    ``announced`` give each tile's place in its queue (:func:`queue_places`)."""
    return draw_size_of(rules) > 2


def shows_announced(rules: Ruleset) -> bool:
    """No caller and three or more tiles at a time: the observation has an ``announced``, the order in which the
    tiles of the coming group were announced so far.  (With two at a time at most one is announced before the
    group is turned over, and the bag, which it has left, shows it.)"""
    return announces(rules) and shows_order(rules)


def queue_high(rules: Ruleset) -> int:
    """The highest value of a ``hand`` or ``announced`` entry: the most tiles that can wait after the current one,
    ``draw`` - 1 (1 with two at a time, when the entries are flags)."""
    return max(draw_size_of(rules) - 1, 1)


def queue_dtype(rules: Ruleset) -> type[np.integer]:
    """The dtype of ``hand`` and ``announced``: int8 for flags (two at a time, Gymnasium's ``MultiBinary``), int64
    for places (three or more, ``MultiDiscrete``)."""
    return np.int64 if shows_order(rules) else np.int8


def queue_places(rules: Ruleset, tiles) -> np.ndarray:
    """``hand`` and ``announced``: per tile id (K), the place of the tile in ``tiles`` (1 for the first, 2 for the
    second, ...), 0 for a tile not among them.  With two tiles at a time ``tiles`` holds at most one, so these
    are the flags :func:`tile_flags` gives."""
    places = np.zeros(num_tile_ids(rules), dtype=queue_dtype(rules))
    tiles = list(tiles)
    places[tiles] = np.arange(1, len(tiles) + 1)
    return places


def hand_places(game, seat: int) -> np.ndarray:
    """The ``hand`` of ``seat``: the tiles drawn and still to place after the current one, by their place."""
    return queue_places(game.rules, game.pending[seat][1:])


def announced_places(game) -> np.ndarray:
    """The ``announced`` observation: the tiles announced so far for the coming group, by announcement order."""
    return queue_places(game.rules, game.announced)


def shows_previous(rules: Ruleset) -> bool:
    """The placement rule looks at the player's previous placement (sun/moon placement): the observation has a
    ``previous``, the cell of that placement + 1 (0 before the first), without which two positions with the same
    board, tile and bag could allow different cells."""
    return rules.placement.follows_previous


def previous_entry(game, seat: int) -> int:
    """The ``previous`` observation of ``seat``: the cell of their last placement + 1, 0 before the first."""
    return game.previous_cell(seat) + 1


def tile_flags(num_ids: int, tiles) -> np.ndarray:
    """Multi-hot of ``tiles`` over K ids (the tile set; the tiles in hand after the one to place now)."""
    flags = np.zeros(num_ids, dtype=np.int8)
    flags[list(tiles)] = 1
    return flags


def visible_counts(rules: Ruleset) -> np.ndarray:
    """visible[t]: how many tiles have been turned over when the t-th tile is placed."""
    sizes = group_sizes(rules.tiles_per_round, draw_size_of(rules))
    out, drawn = [], 0
    for size in sizes:
        drawn += size
        out.extend([drawn] * size)
    return np.array(out, dtype=np.int64)


def checked_deal(rules: Ruleset, given, name: str = "reset option 'deal'") -> list[int]:
    """A deal from reset options (``name`` in messages): tile ids or a string of tile tokens."""
    n = rules.tiles_per_round
    if isinstance(given, str):
        try:
            tiles = parse_tiles(given, allowed=rules.tile_set)
        except InputError as exc:
            raise InputError(f"{name}: {exc}") from None
    elif isinstance(given, (Set, Mapping)):  # a deal is an order
        raise InputError(f"{name}: a deal is tile ids in draw order, not a {type(given).__name__}")
    else:  # tile ids: int() would truncate 1.7 and take "0"
        try:
            items = list(given)
            if any(isinstance(t, (bool, np.bool_)) for t in items):
                raise TypeError
            tiles = [operator.index(t) for t in items]
        except TypeError:
            raise InputError(f"{name}: {shown(given)} is neither tile tokens nor a list of tile ids") from None
    if len(tiles) != n or len(set(tiles)) != n or any(t not in rules.tile_set for t in tiles):
        raise InputError(f"{name}: expected {n} distinct tiles of the game's tile set")
    return tiles


def encode_board(board: np.ndarray) -> np.ndarray:
    return (np.asarray(board, dtype=np.int64) + 1)
