"""Game flow: deals, drawing, placing, moving the last tile, the end of a round, matches, saved games."""

import copy
import re
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from takeiteasy.core import Game, IllegalMove, Match, Options, Ruleset, ScriptedPlayer, deal
from takeiteasy.core.errors import InputError
from takeiteasy.core.deal import SplitMix64

RULES = Ruleset.from_options()


def test_splitmix64_reference_values():
    """The deal generator is SplitMix64; these are its published first outputs for seed 0."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@settings(deadline=None)  # a pause of the shared machine is no failure
@given(st.integers(-2**70, 2**70), st.integers(0, 10**6))
def test_deals_are_19_distinct_tiles_and_repeatable(seed, index):
    """Rulebook 000, The Game: 19 of the 27 tiles are drawn in a round."""
    tiles = deal(seed, index=index)
    assert len(tiles) == 19 and len(set(tiles)) == 19 and all(0 <= t < 27 for t in tiles)
    assert deal(seed, index=index) == tiles


def test_deal_draws_each_tile_equally_often():
    counts = np.zeros(27)
    for seed in range(3000):
        counts[deal(seed)[0]] += 1
    assert counts.min() > 60 and counts.max() < 170  # expected 111 each


def test_rulebook_000_one_tile_per_space():
    """Rulebook 000, Placement Rules: only one tile may be placed on any one space."""
    game = Game(RULES, ["a"], seed=1)
    game.draw(); game.place(0, 5); game.draw()
    with pytest.raises(IllegalMove, match="cell 5 is already taken"):
        game.place(0, 5)


def test_rulebook_000_every_player_places_the_drawn_tile_before_the_next_draw():
    """Rulebook 000, Playing the Game: the caller draws the next tile after all players have placed."""
    game = Game(RULES, ["a", "b"], seed=2)
    tile = game.draw()[0]
    game.place(0, 3)
    with pytest.raises(IllegalMove, match="every player must place"):
        game.draw()
    game.place(1, 7)
    assert game.boards[0][3] == tile == game.boards[1][7]
    game.draw()


def test_rulebook_001_last_tile_moves_until_the_next_draw():
    """Rulebook 001, How to Place: a piece may move until the caller announces the next one, never after."""
    game = Game(RULES, ["a"], seed=3)
    first = game.draw()[0]
    game.place(0, 0)
    game.move(0, 18)
    assert game.boards[0][18] == first and game.boards[0][0] == -1
    game.draw()
    game.place(0, 0)
    with pytest.raises(IllegalMove, match="placed before the last draw"):
        game.move(0, 1, first)
    with pytest.raises(IllegalMove, match="already taken"):
        game.move(0, 18)
    unplaced = next(t for t in RULES.tile_set if t not in game.boards[0])
    with pytest.raises(IllegalMove, match="not on this player's board"):  # it said "placed before the last draw"
        game.move(0, 1, unplaced)
    moves = list(game.moves[0])
    with pytest.raises(IllegalMove, match="on cell 0 already"):  # moving nothing is no move (nothing recorded)
        game.move(0, 0)
    assert game.moves[0] == moves


def test_rulebook_000_round_ends_when_the_board_is_full():
    """Rulebook 000, End of the Game: after the 19th tile every board is full and scores are counted."""
    game = Game(RULES, ["a"], seed=4)
    for cell in range(19):
        assert not game.finished
        game.draw()
        game.place(0, cell)
    assert game.finished and (game.boards[0] >= 0).all()
    with pytest.raises(IllegalMove, match="round is over"):
        game.draw()
    assert game.scores() == [RULES.score(game.boards[0])]


def test_off_board_and_unknown_moves_are_refused_with_a_reason():
    game = Game(RULES, ["a"], seed=5)
    with pytest.raises(IllegalMove, match="no drawn tile"):
        game.place(0, 1)
    game.draw()
    for cell, reason in ((19, "not on the standard board"), (-1, "not on the standard board")):
        with pytest.raises(IllegalMove, match=reason):
            game.place(0, cell)
    with pytest.raises(IllegalMove, match="no player 3"):
        game.place(3, 0)


def test_adjacent_placement_refuses_a_tile_that_touches_nothing():
    """Rulebook 004, Harder Game: after the first tile, every tile must touch a placed one."""
    game = Game(Ruleset.from_options(Options(placement="adjacent")), ["a"], seed=6)
    game.draw(); game.place(0, 0); game.draw()
    with pytest.raises(IllegalMove, match="adjacent placement"):
        game.place(0, 18)
    game.place(0, 1)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.permutations(range(19)))
def test_saved_games_replay_to_the_same_boards(seed, cells):
    game = Game(RULES, ["a", "b"], seed=seed)
    game.play([ScriptedPlayer("a", list(cells)), ScriptedPlayer("b", list(reversed(cells)))])
    again = Game.from_json(game.to_json())
    assert all((x == y).all() for x, y in zip(again.boards, game.boards))
    assert again.to_json() == game.to_json()


@pytest.mark.parametrize("cell, shown", [("3", '"3"'), (3.7, "3.7"), (True, "true"), (3.0, "3.0"), (None, "null")])
def test_a_saved_cell_must_be_a_json_integer(cell, shown):
    """int() took "3", 3.7 (as 3) and true (as 1) and replayed a different game."""
    from takeiteasy.core.errors import InputError

    game = Game(RULES, ["ann", "bob"], seed=4)
    game.play([ScriptedPlayer("ann", list(range(19))), ScriptedPlayer("bob", list(range(19)))])
    record = game.to_json()
    record["players"][1]["moves"][2]["cell"] = cell
    with pytest.raises(InputError) as info:
        Game.from_json(record)
    assert str(info.value) == f"saved game: player 'bob' move 3: a cell is a whole number, like 3, not {shown}"


def test_a_saved_seed_must_be_the_seed_of_the_saved_deal():
    """A record whose seed and deal disagree was read, and its seed then named a deal it never had."""
    from takeiteasy.core.errors import InputError

    game = Game(RULES, ["ann"], seed=4)
    game.play([ScriptedPlayer("ann", list(range(19)))])
    record = game.to_json()
    with pytest.raises(InputError, match="^saved game: the deal is not the one of its seed 5 "):
        Game.from_json({**record, "seed": 5})
    again = Game.from_json({**record, "seed": None})  # the same deal, given rather than seeded
    assert again.deal == game.deal and again.seed is None


def test_rulebook_001_four_rounds_keep_running_totals():
    """Rulebook 001: four rounds make one game and the highest combined total wins."""
    match = Match(RULES, ["a", "b"], rounds=4, seed=9)
    while not match.finished:
        game = match.new_round()
        game.play([ScriptedPlayer("a", list(range(19))), ScriptedPlayer("b", list(range(18, -1, -1)))])
        match.record(game)
    assert len(match.results) == 4
    assert match.totals == [sum(r[0] for r in match.results), sum(r[1] for r in match.results)]
    with pytest.raises(IllegalMove, match="match is over"):
        match.new_round()


def test_rulebook_004_announceable_is_exactly_what_announce_accepts():
    """No caller: Game.announceable() lists the tiles announce() takes now (the environments' masks use it)."""
    game = Game(Ruleset.from_options(Options(caller=False, draw=2)), ["a", "b"])
    assert game.announceable() == tuple(range(27))
    game.announce(5)
    assert game.announceable() == tuple(t for t in range(27) if t != 5)  # announced for the coming group
    with pytest.raises(IllegalMove):
        game.announce(5)
    game.announce(7)  # the group of two is turned over
    assert game.announceable() == ()  # tiles wait to be placed
    for player in range(2):
        game.place(player, 0)
        game.place(player, 1)
    assert game.announceable() == tuple(t for t in range(27) if t not in (5, 7))
    assert Game(Ruleset.from_options(), ["solo"], seed=1).announceable() == ()  # a caller draws


@pytest.mark.filterwarnings("error")  # numpy's overflow warnings too
@pytest.mark.parametrize("seed", [5, 2**63 + 3, 2**64 - 1])
def test_numpy_integer_seeds_deal_as_python_ints(seed):
    """Game(seed=np.int64(5)) raised OverflowError (fixed-width arithmetic in SplitMix64), and np.uint64 seeds
    overflowed with warnings; reinforcement-learning code hands out numpy seeds."""
    rules = Ruleset.from_options()
    for kind in (np.int64, np.uint64):
        if not np.iinfo(kind).min <= seed <= np.iinfo(kind).max:
            continue
        assert Game(rules, ["a"], seed=kind(seed)).deal == Game(rules, ["a"], seed=seed).deal
        assert deal(kind(seed), index=kind(2)) == deal(seed, index=2)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["adjacent", "sunmoon", "free"]), st.sampled_from([1, 2]), st.integers(0, 2**32),
       st.randoms(use_true_random=False))
def test_rulebook_001_move_targets_are_exactly_the_cells_a_move_takes_the_tile_to(placement, draw, seed, rng):
    """Rulebook 001, How to Place (a tile moves until the next draw), under rulebook 000's placement variants:
    ``move_targets`` lists the cells where ``move`` succeeds, no more (the web page offered every empty cell,
    which adjacent and sun/moon placement refuse) and no fewer."""
    rules = Ruleset.from_options(Options(placement=placement, draw=draw))
    game = Game(rules, ["a"], seed=seed)
    checked = 0
    while not game.all_drawn and checked < 6:
        game.draw()
        while game.pending[0]:
            tile = game.pending[0][0]
            game.place(0, rng.choice(list(game.view(0).legal_cells(tile))), tile)
        for tile in game.movable[0]:
            targets = game.move_targets(0, tile)
            for cell in range(rules.board_size):
                trial = copy.deepcopy(game)
                try:
                    trial.move(0, cell, tile)
                    moved = True
                except IllegalMove:
                    moved = False
                assert moved == (cell in targets), (cell, targets)
            checked += 1
    assert checked
    assert Game(rules, ["a"], seed=seed).move_targets(0) == []  # nothing placed: nothing moves


def test_play_refuses_an_agent_of_other_rules_or_a_name_before_anything_is_drawn():
    """``make_agent`` defaults to the standard rules: such an agent in an adjacent-placement game failed at
    some tile with a placement error, and on the daffodil board with a board-size error."""
    from takeiteasy.ai import make_agent

    for options, differ in ((Options(placement="adjacent"), "placement"), (Options(board="daffodil"), "board, wildcards")):
        game = Game(Ruleset.from_options(options), ["ann"], seed=3)
        with pytest.raises(InputError, match=f"the agent for 'ann' was made for other rules \\(they differ in {differ}\\)"):
            game.play([make_agent("greedy")])
        assert game.drawn == []
    # a match's options, or an option spelt out, change nothing in a round: such agents play
    match_round = Match(Ruleset.from_options(rounds=3, match="best-of"), ["ann"], seed=3).new_round()
    assert match_round.play([make_agent("greedy", Ruleset.from_options())])[0] >= 0
    spelt = Game(Ruleset.from_options(board="daffodil", wildcards=True), ["ann"], seed=3)
    assert spelt.play([make_agent("greedy", Ruleset.from_options(board="daffodil"))])[0] >= 0
    game = Game(RULES, ["ann"], seed=3)
    with pytest.raises(InputError, match=r"'fast', not a player .*make_agent\('fast', rules\)"):
        game.play(["fast"])
    assert game.play([make_agent("greedy", RULES)])[0] > 0


class _Answers:
    """An agent giving fixed answers, for the checks of what agents return."""

    name = "answers"

    def __init__(self, cell, tile=None):
        self.cell, self.tile = cell, tile

    def choose(self, view):
        return self.cell

    def announce(self, view):
        return self.tile


@pytest.mark.parametrize("cell", [3.7, "3", None])
def test_an_agents_cell_must_be_a_whole_number(cell):
    """``int()`` put an agent's 3.7 on cell 3 and took '3', where ``place`` refuses both."""
    game = Game(RULES, ["ann"], seed=3)
    with pytest.raises(IllegalMove, match=f"ann: the agent answered {re.escape(repr(cell))} for a cell"):
        game.play([_Answers(cell)])
    assert game.moves[0] == []
    game.play_one(0, _Answers(np.int64(4)))  # numpy's whole numbers are whole numbers
    assert game.moves[0] == [(game.drawn[0], 4)]


def test_an_agents_illegal_cell_names_the_player_and_the_tile():
    game = Game(RULES, ["ann", "bob"], seed=3)
    game.draw()
    game.place(0, 0)
    game.place(1, 0)
    game.draw()
    with pytest.raises(IllegalMove, match=r"^bob, tile 2: cell 0 is already taken"):
        game.play_one(1, _Answers(0))
    assert game.pending[1] == game.drawn[1:]


def test_an_announced_token_is_refused_as_a_token_not_taken_as_a_tile_id():
    """No caller (rulebook 004): an agent announcing '574' (the token) had it read as tile id 574, and the
    message said 574 was not in the remaining set."""
    game = Game(Ruleset.from_options(Options(caller=False)), ["ann"], seed=3)
    with pytest.raises(IllegalMove, match="ann: the agent answered '574' for a tile: .*parse_tile"):
        game.draw_next([_Answers(0, "574")])
    assert game.drawn == []


def test_messages_for_common_mistakes_say_what_to_use():
    """A float array read 'not ndarray', a deal of tokens gave no hint, and analyse_game(game) did not say that a
    Game gives its record with to_json()."""
    from takeiteasy.solve import analyse_game

    with pytest.raises(InputError, match="not an array of float64"):
        RULES.score(np.zeros(19))
    with pytest.raises(InputError, match=r"by id \(parse_tiles reads tokens"):
        Game(RULES, ["a"], deal=["574"] * 19)
    with pytest.raises(InputError, match=r"game.to_json\(\)"):
        analyse_game(Game(RULES, ["a"], seed=1))


@pytest.mark.parametrize("names, message", [
    (["ann", ""], "player 1: name '' is empty; each player needs a name"),
    (["  "], "player 0: name '  ' is blank; each player needs a name"),
    (["ann", "bo\x1b[2Jb"], "player 1: name 'bo\\x1b[2Jb' has a control character"),
    (["ann\u00a0"], "player 0: name 'ann\\xa0' has a character that does not print (U+00A0 NO-BREAK SPACE)"),
    (["ann", "bob", "ann"], "player 2: name 'ann' is player 0's too; each player needs a name of their own"),
])
def test_a_game_and_a_match_refuse_a_name_play_refuses(names, message):
    """`takeiteasy play --players` refused an empty name, a control character and a name given twice, but Game and
    Match took them (a blank name read "'s turn" in every message).  One check now serves all, and counts players
    as the game does, from 0."""
    with pytest.raises(InputError) as game:
        Game(RULES, names, seed=1)
    with pytest.raises(InputError) as match:
        Match(RULES, names)
    assert str(game.value) == str(match.value) == message


def test_a_name_of_an_emoji_family_is_printable_everywhere():
    """The web rooms take a family emoji (people joined by zero-width joiners); a game of such a player must be
    playable, saved and read back (``check_names`` is the rooms' test of printable characters too)."""
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    game = Game(RULES, [family], seed=3)
    game.play([ScriptedPlayer(family, list(range(19)))])
    assert Game.from_json(game.to_json()).players == [family]
    with pytest.raises(InputError, match=r"does not print \(U\+200D ZERO WIDTH JOINER\)"):
        Game(RULES, ["a\u200db"])  # a joiner between letters shows nothing


@pytest.mark.parametrize("name, message", [
    ("", "saved game: player 2: name '' is empty; each player needs a name"),
    (" \t", "saved game: player 2: name ' \\t' is blank; each player needs a name"),
    ("ann", "saved game: player 2: name 'ann' is player 1's too; each player needs a name of their own"),
])
def test_a_saved_game_refuses_a_blank_or_repeated_name(name, message):
    """Game.from_json read a player named "" (docs/FORMATS.md: a name is printable text, different from the
    others'); the players are counted as the file lists them, from 1, as `takeiteasy analyse` counts them."""
    game = Game(RULES, ["ann", "bob"], seed=4)
    game.play([ScriptedPlayer("ann", list(range(19))), ScriptedPlayer("bob", list(range(19)))])
    record = game.to_json()
    record["players"][1]["name"] = name
    with pytest.raises(InputError) as info:
        Game.from_json(record)
    assert str(info.value) == message


def test_a_saved_draw_size_must_be_the_options_draw():
    """A record with "draw_size": 2 under options drawing one was replayed two tiles at a time while its rules
    said one: which was the round?  The two must agree, and a game made with its own draw_size saves it so."""
    game = Game(RULES, ["ann"], seed=4)
    game.play([ScriptedPlayer("ann", list(range(19)))])
    record = game.to_json()
    with pytest.raises(InputError) as info:
        Game.from_json({**record, "draw_size": 2})
    assert str(info.value) == ("saved game: draw_size 2 contradicts the options' draw 1; give one number of tiles "
                               "turned over at a time")
    options = {key: value for key, value in record["options"].items() if key != "draw"}  # left out: 1
    with pytest.raises(InputError, match="^saved game: draw_size 2 contradicts the options' draw 1"):
        Game.from_json({**record, "options": options, "draw_size": 2})
    assert Game.from_json({**record, "options": options}).draw_size == 1  # draw_size left out: the options' draw
    own = Game(RULES, ["ann"], seed=4, draw_size=2)
    own.play([ScriptedPlayer("ann", list(range(19)))])
    saved = own.to_json()
    assert saved["draw_size"] == saved["options"]["draw"] == 2
    assert Game.from_json(saved).draw_size == 2


# pieces of names as people type them: spaces of every kind, controls, accents composed and not, look-alikes,
# blank letters, joiners, scripts where a mark makes another name
NAME_PIECES = st.sampled_from(["ann", "Bob", "BOB", "\uff22ob", "\u0412ob", "\u0218tefan", "S\u0326tefan",
                               "\u015ferban", "\u0103", "\u00e2", "-", " ", "  ", "\t", "\n", "\u3000", "\xa0", "\x07",
                               "\x1b", "\x85",
                               "\u200b", "\u200d", "\u0301", "\u3164", "\u2800", "\ufe0f", "\u30ab", "\u30ac",
                               "\U0001F468", "\U0001F469", "x" * 20])
TYPED_NAMES = st.one_of(st.text(max_size=30), st.lists(NAME_PIECES | st.text(max_size=2), max_size=6).map("".join))


@given(st.lists(TYPED_NAMES, max_size=10), st.integers(0, 2))
def test_check_table_seats_each_name_as_clean_name_makes_it_and_no_two_alike(names, first):
    """The one check of a table the rooms, ``play`` and ``call`` share (a room joins one name after the other):
    at most MAX_PLAYERS players, each name as ``clean_name`` makes it (cleaning it again changes nothing; a Game
    takes it), no two one name to a room (``name_key``).  A refusal is one line naming the count or the first
    player refused (counted from ``first``), in ``clean_name``'s words where the name itself is refused."""
    from takeiteasy.core.game import MAX_NAME, MAX_PLAYERS, check_names, check_table, clean_name, name_key

    refusal, keys = None, []
    for n, name in enumerate(names, start=first):
        try:
            keys.append(name_key(clean_name(name, f"player {n}: ")))
        except InputError as exc:
            refusal = str(exc)
            break
        if keys[-1] in keys[:-1]:
            refusal = f"player {n}: name "
            break
    if len(names) > MAX_PLAYERS:
        refusal = f"{len(names)} players; at most {MAX_PLAYERS} at one table"
    if refusal is not None:
        with pytest.raises(InputError) as refused:
            check_table(names, first)
        assert str(refused.value).startswith(refusal) and "\n" not in str(refused.value)
        return
    seated = check_table(names, first)
    assert seated == [clean_name(name) for name in names] == [clean_name(name) for name in seated]
    assert check_names(seated, first) == seated  # a Game takes every name a table seats
    for name in seated:
        assert 1 <= len(name) <= MAX_NAME and name == name.strip() and "  " not in name
        assert unicodedata.is_normalized("NFC", name)


@pytest.mark.parametrize("typed, seated", [
    ("  Ana \t Maria\n", "Ana Maria"),  # a web page's field and a command line differ in their spaces
    ("Ana\u3000Maria\xa0", "Ana Maria"),
    ("S\u0326tefan", "\u0218tefan"),  # an S and a combining comma below: the one letter it shows
    ("S\u0326tefa\u0306nit\u0326a\u0306 Bra\u0302ncoveanu", "\u0218tef\u0103ni\u021b\u0103 Br\u00e2ncoveanu"),
    ("S\u0326" * 24, "\u0218" * 24),  # 48 characters typed, 24 shown: not too long
    ("\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F468\u200d\U0001F469\u200d\U0001F467"),  # a family emoji
])
def test_clean_name_collapses_spaces_and_composes_accents(typed, seated):
    """Names in Romanian keep their letters however the keyboard typed them; composed, each letter counts once
    towards the 24 characters, as a reader counts it."""
    from takeiteasy.core.game import check_table, clean_name

    assert clean_name(typed) == seated
    assert check_table([typed, "ann"]) == [seated, "ann"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\x07b", "\u3164"])
def test_a_refused_name_survives_pickling_with_its_key_and_params(name):
    """A refusal raised in a worker process reaches the parent pickled; it must arrive with the key and params a
    web page words it by, not fail to unpickle (the default rebuilds an exception from its message alone)."""
    import pickle

    from takeiteasy.core.game import NameRefused, clean_name

    with pytest.raises(NameRefused) as refused:
        clean_name(name, "player 2: ")
    copy = pickle.loads(pickle.dumps(refused.value))
    assert type(copy) is NameRefused
    assert (str(copy), copy.key, copy.params) == (str(refused.value), refused.value.key, refused.value.params)


@given(TYPED_NAMES, TYPED_NAMES)
def test_same_name_is_the_name_a_table_would_refuse_beside_the_seated_one(typed, other):
    """``same_name`` (a room's seat to remove by name, ``call``'s 'c NAME') finds a player exactly when
    ``check_table`` would refuse the typed name beside the seated one as theirs; a name clean_name refuses is
    nobody's."""
    from takeiteasy.core.game import check_table, clean_name, same_name

    try:
        seated = clean_name(other)
    except InputError:
        return
    try:
        clean_name(typed)
    except InputError:
        assert not same_name(typed, seated)
        return
    try:
        check_table([seated, typed])  # two names it cleans: refused only as one name twice
    except InputError:
        assert same_name(typed, seated)
    else:
        assert not same_name(typed, seated)
    assert same_name("  Bob \t Smith ", "bob smith") and same_name("stefan", "\u0218tefan")
    assert not same_name("   ", "ann") and not same_name("ann" * 9, "ann" * 9)


@pytest.mark.parametrize("names, message", [
    (["ann", "ann  "], "player 1: name 'ann' is player 0's too; each player needs a name of their own"),
    (["Bob", "\uff22OB"], "player 1: name '\uff22OB' is player 0's ('Bob') written otherwise; each player needs a name "
                         "of their own"),
    (["\u015eerban", "\u0218erban"], "player 1: name '\u0218erban' is player 0's ('\u015eerban') written otherwise; "
                                   "each player needs a name of their own"),  # a cedilla or a comma below: one name
    (["ann", "a\x07"], "player 1: name 'a\\x07' has a control character"),
    (["ann", "a\u200bb"], "player 1: name 'a\\u200bb' has a character that does not print (U+200B ZERO WIDTH SPACE)"),
    (["ann", " \t "], "player 1: name ' \\t ' is blank; each player needs a name"),
    (["\u3164"], "player 0: name '\u3164' has nothing visible (only accents or blank letters); each player needs a "
                 "name that shows"),
    (["a" * 20 + " " * 10 + "b" * 4], "player 0: name 'aaaaaaaaaaaaaaaaaaaa bbbb' has 25 characters; at most 24"),
])
def test_check_table_refuses_a_name_in_the_words_of_clean_name(names, message):
    """Each refusal says which player and why, the name as it would be seated (spaces collapsed)."""
    from takeiteasy.core.game import check_table

    with pytest.raises(InputError) as refused:
        check_table(names)
    assert str(refused.value) == message


def test_views_compare_and_hash_by_value():
    """A View holds board arrays: the generated ``==`` asked numpy for one truth value of a whole board (an error)
    and ``hash`` failed.  Two views of the same moment are equal and hash alike; a view after a move is not."""
    game = Game(RULES, ["a", "b"], seed=5)
    game.draw()
    first, again = game.view(0), game.view(0)
    assert first is not again and first == again and hash(first) == hash(again) and len({first, again}) == 1
    game.place(0, first.legal_cells()[0], first.tile)
    after = game.view(0)
    assert after != first and after != game.view(1) and hash(after) != hash(first)
    assert (first == "not a view") is False
