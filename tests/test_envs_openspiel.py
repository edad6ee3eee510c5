"""The OpenSpiel game take_it_easy: random simulation test, explicit chance draws, returns."""

import json
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import takeiteasy.data
import takeiteasy.envs.openspiel_game  # noqa: F401 - registers take_it_easy
from takeiteasy.core import IllegalMove, Options, Ruleset
from takeiteasy.core.errors import InputError
from takeiteasy.core.notation import parse_tile
from takeiteasy.core.tiles import TOKENS


@pytest.mark.parametrize("spec", [
    "take_it_easy",
    "take_it_easy(players=2)",
    "take_it_easy(players=3,board=daffodil,placement=adjacent,scoring=sunrays)",
    'take_it_easy(players=2,board=daffodil,options={"stamen": "holding"})',
    'take_it_easy(players=3,options={"caller": false})',  # rulebook 004: the players announce the tiles
    # several options hold a comma, which the game-string syntax cannot carry: parameters as a dict
    ("take_it_easy", {"players": 2, "options": json.dumps({"caller": False, "draw": 2})}),
    "take_it_easy(players=2,draw=3)",  # the hand by place
    ("take_it_easy", {"players": 3, "options": json.dumps({"caller": False, "draw": 3})}),  # announced in order
])
def test_random_sim_test(spec):
    game = pyspiel.load_game(*spec) if isinstance(spec, tuple) else pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_chance_draws_every_tile_left_uniformly_and_returns_are_scores():
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps({"placement": "adjacent"})})
    rules = Ruleset.from_options(Options(placement="adjacent"))
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    drawn, total = [], np.zeros(2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sorted(t for t, _ in outcomes) == sorted(set(range(27)) - set(drawn))
            assert {p for _, p in outcomes} == {1.0 / (27 - len(drawn))}
            tile = int(rng.choice([t for t, _ in outcomes]))
            drawn.append(tile)
            state.apply_action(tile)
        else:
            total += state.rewards()
            player = state.current_player()
            assert player == (len(state.history()) - len(drawn)) % 2  # player 0 then player 1 on each tile
            state.apply_action(int(rng.choice(state.legal_actions())))
    total += state.rewards()
    scores = [rules.score(board) for board in state.boards]
    assert state.returns() == scores == total.tolist()
    assert len(drawn) == 19


def test_solitaire_has_perfect_information_and_tensor_layout():
    solo, duo = pyspiel.load_game("take_it_easy"), pyspiel.load_game("take_it_easy(players=2)")
    assert solo.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert duo.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert solo.observation_tensor_size() == 19 * 27 + 27 + 27
    assert duo.observation_tensor_size() == 2 * 19 * 27 + 27 + 27
    state = solo.new_initial_state()
    state.apply_action(13)
    tensor = np.array(state.observation_tensor(0))
    assert tensor[19 * 27 + 13] == 1 and tensor[19 * 27 + 27 + 13] == 0 and tensor[:19 * 27].sum() == 0


def test_rulebook_003_holding_area_returns_count_the_best_end_moves():
    """Daffodil variant 4: holding slots are actions; a player's last placement brings their held tiles
    onto the stamen where they score most, so returns are final scores."""
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps({"board": "daffodil",
                                                                                   "stamen": "holding"})})
    assert game.num_distinct_actions() == 24
    rules = Ruleset.from_options(Options(board="daffodil", stamen="holding"))
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    totals = [0.0, 0.0]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes)))
            continue
        legal = np.array(state.legal_actions())
        slots = legal[legal >= 21]
        state.apply_action(int(slots[0]) if len(slots) and rng.random() < 0.3 else int(rng.choice(legal)))
        totals = [t + r for t, r in zip(totals, state.rewards())]
    for seat in range(2):
        board = state.boards[seat]
        assert state.returns()[seat] == totals[seat] == rules.score(board)
        assert not rules.best_release(board)  # nothing better is left to move


def test_rulebook_002_sunmoon_touching_the_previous_tile_is_in_the_legal_actions():
    """Sun/moon placement touching the previous tile needs each player's previous cell."""
    options = {"placement": "sunmoon", "sunmoon_touch": "previous"}
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps(options)})
    rules = Ruleset.from_options(Options(**options))
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    previous = {0: (-1, -1), 1: (-1, -1)}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes)))
            continue
        seat = state.current_player()
        tile = state.queue[0][1]
        expected = np.flatnonzero(rules.legal_mask(state.boards[seat], tile, *previous[seat]))
        assert state.legal_actions() == expected.tolist()
        cell = int(rng.choice(expected))
        previous[seat] = (tile, cell)
        state.apply_action(cell)


def test_rulebook_004_no_caller_announcements_are_decisions_not_chance():
    """Rulebook 004, no caller: the players take turns choosing the tile (player 0 first), so the game has no
    chance node; an announcement is the chooser's decision among the tiles not drawn yet."""
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps({"caller": False})})
    cells = 19
    assert game.num_distinct_actions() == cells + 27
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    announcers, rewards = [], np.zeros(2)
    while not state.is_terminal():
        assert not state.is_chance_node()
        player = state.current_player()
        rewards += state.rewards()
        legal = state.legal_actions()
        if legal[0] >= cells:  # announcing
            announcers.append(player)
            assert legal == [cells + t for t in range(27) if t not in state.drawn]
            assert state.legal_actions(1 - player) == []
            tile = int(rng.choice(legal))
            assert state.action_to_string(player, tile) == f"announce {TOKENS[tile - cells]}"
            state.apply_action(tile)
            assert state.rewards() == [0.0, 0.0] and state.drawn[-1] == tile - cells
        else:
            state.apply_action(int(rng.choice(legal)))
    rewards += state.rewards()
    assert announcers == [k % 2 for k in range(19)]
    rules = Ruleset.from_options(Options(caller=False))
    assert list(rewards) == state.returns() == [float(rules.score(b)) for b in state.boards]


def test_rulebook_000_best_sunray_bonus_is_in_the_returns():
    """Best Sunray/Moonbeam: the bonuses come with the last placement, so returns are the players' scores
    (two equal 307 boards split each 60)."""
    from takeiteasy.solve import maximum

    board = [int(t) for t in maximum(Ruleset.from_options()).boards[0]]
    game = pyspiel.load_game("take_it_easy", {"players": 2, "scoring": "best-sunray",
                                              "options": json.dumps({"caller": False})})
    state = game.new_initial_state()
    total = np.zeros(2)
    while not state.is_terminal():
        total += state.rewards()
        if state.legal_actions()[0] >= 19:
            state.apply_action(19 + board[len(state.drawn)])
        else:
            state.apply_action(int((state.boards[state.current_player()] >= 0).sum()))
    total += state.rewards()
    assert state.returns() == total.tolist() == [307.0 + 60, 307.0 + 60]


@pytest.mark.parametrize("options", [{"board": "daffodil", "stamen": "holding", "wildcards": False},
                                     {"caller": False, "draw": 2, "scoring": "sunrays"},
                                     {"placement": "sunmoon", "sunmoon_touch": "previous"}])
def test_games_of_several_options_serialize(options):
    """The game string cannot carry a comma inside a value, so a ruleset of several options must be named
    otherwise: serialize_game_and_state used to write the JSON, which could not be read back."""
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps(options)})
    assert pyspiel.load_game(str(game)).rules.options == game.rules.options == Options(**options)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(7):
        legal = [t for t, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(legal)))
    copy_game, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.legal_actions() == state.legal_actions() and copy_game.rules.options == game.rules.options
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_rulebook_000_a_sun_moon_map_of_its_own_survives_the_game_string(tmp_path):
    """Rulebook 000 (Sunrays and Moonbeams) with a sun/moon map of the players' own: the map as JSON text, or a
    file whose path holds a ',' or '=', cut the game string in two, and serialize_game_and_state wrote a string
    that could not be read back.  The game string spells the map out instead (``moons``), so it needs no file."""
    moons = {"574": "moon", "123": "moon", "928": "sun"}
    inline = json.dumps({"symbols": moons})
    path = tmp_path / "our,map=1.json"
    path.write_text(inline)
    for symbols in (inline, str(path)):
        game = pyspiel.load_game("take_it_easy", {"players": 2, "scoring": "sunrays", "symbols": symbols})
        assert "moons=" in str(game) and "," not in game.get_parameters()["moons"]
        again = pyspiel.load_game(str(game))
        assert str(again) == str(game) and np.array_equal(again.rules.symbols, game.rules.symbols)
        assert [game.rules.symbol_name(parse_tile(t)) for t in moons] == list(moons.values())
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[0])
        state.apply_action(4)
        copy_game, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(copy) == str(state) and np.array_equal(copy_game.rules.symbols, game.rules.symbols)
    none = pyspiel.load_game("take_it_easy", {"scoring": "sunrays",
                                              "symbols": json.dumps({"symbols": {t: "sun" for t in TOKENS}})})
    assert "moons=none," in str(none) and not pyspiel.load_game(str(none)).rules.symbols.any()
    with pytest.raises(InputError, match="as symbols or as moons, not both"):
        pyspiel.load_game("take_it_easy", {"symbols": inline, "moons": "574", "scoring": "sunrays"})


def test_a_board_file_whose_path_the_game_string_cannot_carry_is_refused(tmp_path):
    layout = tmp_path / "a,b.json"
    layout.write_text((Path(takeiteasy.data.__file__).parent / "layouts" / "standard.json").read_text())
    with pytest.raises(InputError, match=r"board .* holds a ',' or '=', which an OpenSpiel game string"):
        pyspiel.load_game("take_it_easy", {"board": str(layout)})


def test_every_options_field_is_a_parameter():
    """Options fields are parameters by name (wildcards, true, false or unset, only in the JSON); one other than
    its default wins over the JSON."""
    game = pyspiel.load_game("take_it_easy(players=2,board=daffodil,stamen=first,draw=2,caller=false)")
    assert game.rules.options == Options(board="daffodil", stamen="first", draw=2, caller=False)
    game = pyspiel.load_game("take_it_easy", {"placement": "adjacent", "options": json.dumps({"placement": "sunmoon",
                                                                                            "draw": 3})})
    assert game.rules.options == Options(placement="adjacent", draw=3)


def test_a_preset_is_a_parameter_and_the_others_change_it():
    """``preset`` as in the other environments: its options, changed by the JSON and the single options; the game
    string spells the options out, so it reads back without the preset."""
    from takeiteasy.core.presets import preset

    game = pyspiel.load_game("take_it_easy", {"players": 2, "preset": "daffodil-holding"})
    assert game.rules.options == preset("daffodil-holding")
    game = pyspiel.load_game("take_it_easy", {"preset": "easier", "placement": "adjacent",
                                              "options": json.dumps({"scoring": "sunrays"})})
    assert game.rules.options == Options(draw=2, placement="adjacent", scoring="sunrays")
    assert pyspiel.load_game(str(game)).rules.options == game.rules.options and "preset=," in str(game)
    with pytest.raises(Exception, match="unknown preset 'hard'"):
        pyspiel.load_game("take_it_easy", {"preset": "hard"})


def test_information_state_shows_a_placement_of_the_current_tile_only_to_its_player():
    game = pyspiel.load_game("take_it_easy(players=2)")
    states = []
    for cell in (5, 6):
        state = game.new_initial_state()
        state.apply_action(13)  # tile 13 turned over
        state.apply_action(cell)  # player 0 puts it on cell 5 or 6
        states.append(state)
    one, other = states
    assert one.information_state_string(1) == other.information_state_string(1)
    assert one.information_state_tensor(1) == other.information_state_tensor(1)
    assert one.information_state_string(0) != other.information_state_string(0)
    for state in states:
        state.apply_action(0)
        state.apply_action(2)  # the next tile turned over: player 0's placement is public
    assert one.information_state_string(1) != other.information_state_string(1)
    assert one.information_state_string(1) == f"p1 {TOKENS[13]}@0 {TOKENS[2]} | p0 5"
    assert len(one.information_state_tensor(0)) == game.information_state_tensor_size() == 2 + 19 * 27 + 2 * 19 * 19


def _histories(game, seed):
    """Histories that share a random prefix and branch at one node, then go on alike: pairs a player can and
    cannot tell apart."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(int(rng.integers(0, game.max_game_length() - 2))):
        choices = [t for t, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(choices)))
    prefix = state.history()
    choices = [t for t, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for branch in rng.permutation(choices)[:3]:
        history = prefix + [int(branch)]
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        while not state.is_terminal():
            action = state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
            history.append(action)
            state.apply_action(action)
        yield history


@pytest.mark.parametrize("spec", [
    "take_it_easy",
    "take_it_easy(board=daffodil,stamen=holding)",
    "take_it_easy(players=2)",
    "take_it_easy(players=3,draw=2,caller=false)",
    "take_it_easy(players=2,board=daffodil,stamen=holding)",
])
def test_information_state_is_what_the_player_has_seen_and_done(spec):
    """Perfect recall, nothing more: two histories have the same information state for a player exactly when
    the player saw the same sequence of observations and took the same actions in both."""
    game = pyspiel.load_game(spec)
    view_of, info_of, tensor_of, histories_of = {}, {}, {}, {}
    for seed in range(4):
        for history in _histories(game, seed):
            state = game.new_initial_state()
            views = [[state.observation_string(p)] for p in range(game.num_players())]
            for step in range(len(history) + 1):
                for p in range(game.num_players()):
                    if state.observation_string(p) != views[p][-1]:
                        views[p].append(state.observation_string(p))
                    view, info = (p, tuple(views[p])), state.information_state_string(p)
                    assert view_of.setdefault(info, view) == view
                    assert info_of.setdefault(view, info) == info
                    assert tensor_of.setdefault(info, tuple(state.information_state_tensor(p))) == tensor_of[info]
                    histories_of.setdefault(info, set()).add(tuple(history[:step]))
                if step < len(history):
                    if state.current_player() >= 0:
                        views[state.current_player()].append(("action", history[step]))
                    state.apply_action(history[step])
    assert len(set(tensor_of.values())) == len(tensor_of)
    merged = [h for h in histories_of.values() if len(h) > 1]  # a state of the current player's information set
    assert merged if game.num_players() > 1 else not merged  # alone, the information state is the history


def test_algorithms_that_need_the_information_state_run():
    """rl_environment hands agents the information-state tensor, and outcome-sampling MCCFR keys its tables
    by the information-state string."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("take_it_easy(players=2)")
    env = rl_environment.Environment(game, seed=1)
    assert not env.use_observation
    step = env.reset()
    while not step.last():
        assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
        player = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][player][0]])
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    state = game.new_initial_state()
    state.apply_action(3)
    assert sum(solver.average_policy().action_probabilities(state).values()) == pytest.approx(1.0)


def test_an_observer_of_public_information_only_is_refused():
    """The observers show one player's private view; asked for less, they would show too much."""
    game = pyspiel.load_game("take_it_easy(players=2)")
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="one player"):
        game.make_py_observer(public)


def _state_after(spec, params, actions):
    state = pyspiel.load_game(spec, params).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("params,actions,illegal,reason", [
    ({}, [3, 5, 4], 5, "cell 5 is already taken"),  # the tile on cell 5 was overwritten
    ({}, [3], 19, "cell 19 is not on the standard board"),  # an IndexError
    ({}, [3, 5], 3, "draw 3: not a tile of the set left to draw"),  # tile 3 came twice
    ({}, [], 30, "draw 30: not a tile of the set left to draw"),  # a wildcard id, not in the standard set
    ({"placement": "adjacent"}, [3, 5, 4], 18, "adjacent placement"),
    ({"board": "daffodil", "stamen": "first"}, [3], 0, "stamen first"),
    ({"caller": False}, [], 5, "must announce a tile"),  # tile -14 was announced
    ({"caller": False}, [], 19 + 27, "announce 27: not a tile of the set"),  # a wildcard in the standard game
    ({"caller": False}, [19 + 4, 0], 19 + 4, "announce 4"),  # announced twice
])
def test_an_illegal_action_raises_and_leaves_the_state_as_it_was(params, actions, illegal, reason):
    """apply_action took any action: it overwrote placed tiles, drew a tile twice or off the set, announced
    negative tiles, or raised IndexError; now it raises IllegalMove with the engine's reason."""
    params = {"options": json.dumps(params)} if params else {}
    state = _state_after("take_it_easy", params, actions)
    assert illegal not in state.legal_actions()
    before = (str(state), state.history(), state.observation_tensor(0), state.returns())
    with pytest.raises(IllegalMove, match=reason):
        state.apply_action(illegal)
    assert (str(state), state.history(), state.observation_tensor(0), state.returns()) == before
    for action in state.legal_actions() if not state.is_chance_node() else [t for t, _ in state.chance_outcomes()]:
        state.clone().apply_action(action)  # every legal action is still taken


@pytest.mark.parametrize("options", [
    {"placement": "sunmoon", "sunmoon_touch": "previous", "draw": 2},
    {"scoring": "best-sunray"},
    {"board": "daffodil", "stamen": "holding"},
    {"board": "daffodil", "stamen": "first", "placement": "adjacent"},
    {"caller": False, "draw": 3, "board": "daffodil", "stamen": "last"},
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_state_plays_as_the_engines_game(options):
    """The state keeps its own round (cheap to clone), so check it against takeiteasy.core.Game move by move:
    the same chance outcomes, legal actions, boards and final scores, for three players."""
    from takeiteasy.core import Game
    from takeiteasy.envs import _common

    rules = Ruleset.from_options(Options(**options))
    state = pyspiel.load_game("take_it_easy", {"players": 3, "options": json.dumps(options)}).new_initial_state()
    game = Game(rules, ["a", "b", "c"], deal=[] if not rules.options.caller else None)
    game.deal = []  # filled by the chance nodes (with a caller)
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            coming = game.deal[len(game.drawn):]
            assert [t for t, _ in state.chance_outcomes()] == [t for t in game.remaining() if t not in coming]
            tile = int(rng.choice([t for t, _ in state.chance_outcomes()]))
            state.apply_action(tile)
            game.deal.append(tile)
            if len(game.deal) == len(game.drawn) + game.next_draw_size:
                game.draw()
            continue
        player = state.current_player()
        assert state.legal_actions() == np.flatnonzero(_common.action_mask(rules, game, player)).tolist()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        if action >= rules.board_size:
            game.announce(action - rules.board_size)
        else:
            game.place(player, action)
            _common.settle_when_done(game, player)
        assert all((state.boards[p] == game.boards[p]).all() for p in range(3))
    assert game.finished and state.returns() == [float(s) for s in game.scores()]


def test_rulebook_004_no_caller_the_chooser_sees_the_last_placements():
    """Rulebook 004: at an announcement everyone has placed every tile, so the chooser's observation and
    information state show every board as it is (they lagged by the last tile)."""
    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps({"caller": False})})
    state = game.new_initial_state()
    for action in (19 + 5, 3, 7):  # player_0 announces tile 5, player_0 puts it on 3, player_1 on 7
        state.apply_action(action)
    assert state.current_player() == 1 and all(a >= 19 for a in state.legal_actions())
    tensor = np.asarray(state.observation_tensor(1))
    opponent = tensor[19 * 27 + 27 + 27:].reshape(19, 27)  # player_0's board one-hot, after board, waiting, bag
    assert opponent[3, 5] == 1 and opponent.sum() == 1
    assert "p0 3" in state.information_state_string(1)
    child = state.child(19 + 8)  # once a tile is turned over, where player_0 puts it is hidden again
    child.apply_action(0)
    assert child.current_player() == 1 and child.information_state_string(1).endswith("| p0 3")


def _played_out(spec="take_it_easy"):
    state = pyspiel.load_game(spec).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    return state


def test_a_terminal_state_refuses_every_action_and_stays_over():
    """A tile still in the bag once passed for a draw there and started a 20th turn."""
    state = _played_out()
    before = (str(state), state.history(), state.returns())
    for action in (19, 26, 0):
        with pytest.raises(IllegalMove, match="the game is over"):
            state.apply_action(action)
    assert state.is_terminal() and (str(state), state.history(), state.returns()) == before


def test_chance_outcomes_only_at_chance_nodes():
    """As OpenSpiel's own games (CHECK(IsChanceNode())): a decision or terminal node has no outcomes to give."""
    state = pyspiel.load_game("take_it_easy").new_initial_state()
    state.apply_action(5)
    with pytest.raises(InputError, match="decision node"):
        state.chance_outcomes()
    with pytest.raises(InputError, match="terminal"):
        _played_out().chance_outcomes()


@pytest.mark.parametrize("spec", ["take_it_easy(players=2)", "take_it_easy(board=daffodil)"])
def test_a_player_has_no_legal_actions_at_a_chance_node(spec):
    """As OpenSpiel's own games.  pyspiel's Python-game state answered with the chance outcomes (27 or 31 tile
    ids), and its mask, sized by the 19 or 21 cells, was written past its end: memory corrupted."""
    game = pyspiel.load_game(spec)
    state = game.new_initial_state()
    assert state.is_chance_node()
    for player in range(game.num_players()):
        assert state.legal_actions(player) == []
        assert state.legal_actions_mask(player) == [0] * game.num_distinct_actions()
    outcomes = [t for t, _ in state.chance_outcomes()]
    assert state.legal_actions() == outcomes == state.legal_actions(pyspiel.PlayerId.CHANCE)
    state.apply_action(outcomes[0])
    assert state.legal_actions(0) == list(range(game.num_distinct_actions()))
    assert state.legal_actions_mask(0) == [1] * game.num_distinct_actions()


@pytest.mark.parametrize("player, action", [(pyspiel.PlayerId.CHANCE, 99), (pyspiel.PlayerId.CHANCE, -5),
                                            (pyspiel.PlayerId.CHANCE, 27), (0, 19 + 99), (0, -1)])
def test_action_to_string_refuses_ids_out_of_range(player, action):
    state = pyspiel.load_game("take_it_easy").new_initial_state()
    with pytest.raises(InputError, match="out of range"):
        state.action_to_string(player, action)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 26) == f"draw {TOKENS[26]}"


@pytest.mark.parametrize("options", ["nope", "[1]", "{"])
def test_an_options_parameter_that_is_not_a_json_object_is_an_input_error(options):
    with pytest.raises(InputError, match="'options' parameter must be a JSON object") as refused:
        pyspiel.load_game("take_it_easy", {"options": options})
    assert "\n" not in str(refused.value)


def test_a_presets_setting_is_undone_in_the_json_since_a_parameter_at_its_default_cannot_be_told_from_none():
    """OpenSpiel fills in every parameter with its default before the game sees them: ``draw=1`` after
    ``preset=easier`` is indistinguishable from no ``draw`` at all (ENV.md says so); the JSON undoes it."""
    assert pyspiel.load_game("take_it_easy(preset=easier)").rules.options.draw == 2
    assert pyspiel.load_game('take_it_easy(preset=easier,options={"draw":1})').rules.options.draw == 1
    assert pyspiel.load_game('take_it_easy(preset=no-caller,options={"caller":true})').rules.options.caller
    assert pyspiel.load_game("take_it_easy(preset=easier,draw=3)").rules.options.draw == 3  # not the default: wins


@pytest.mark.parametrize("spec", ["take_it_easy_terminal", "take_it_easy_terminal(players=2,placement=adjacent)",
                                  'take_it_easy_terminal(players=2,options={"caller": false})'])
def test_the_terminal_reward_game_passes_the_random_simulation_test(spec):
    game = pyspiel.load_game(spec)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_terminal_reward_game_scores_only_at_the_end_and_as_take_it_easy_does():
    """take_it_easy rewards every placement (RewardModel.REWARDS), which OpenSpiel's MCTS and AlphaZero refuse
    ("Game must have terminal rewards"); take_it_easy_terminal is the same game with the score at the end."""
    a = pyspiel.load_game("take_it_easy(players=2)").new_initial_state()
    b = pyspiel.load_game("take_it_easy_terminal(players=2)").new_initial_state()
    rng = np.random.default_rng(3)
    while not a.is_terminal():
        if a.is_chance_node():
            tiles, probabilities = zip(*a.chance_outcomes())
            action = int(rng.choice(tiles, p=probabilities))
        else:
            action = int(rng.choice(a.legal_actions()))
        assert b.legal_actions() == a.legal_actions()
        a.apply_action(action)
        b.apply_action(action)
        if not b.is_terminal():
            assert b.rewards() == [0.0, 0.0] and b.returns() == [0.0, 0.0]
    assert b.is_terminal() and b.returns() == b.rewards() == a.returns()


def test_openspiels_mcts_plays_the_terminal_reward_game_through_the_chance_nodes():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("take_it_easy_terminal")
    bot = mcts.MCTSBot(game, uct_c=50.0, max_simulations=20, random_state=np.random.RandomState(0),
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)))
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            tiles, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probabilities)))
        else:
            state.apply_action(bot.step(state))
    rules = game.rules
    assert state.returns() == [float(rules.score(state.boards[0]))]


@pytest.mark.parametrize("options", [{}, {"scoring": "sunrays"}, {"scoring": "best-sunray"}, {"board": "daffodil"},
                                     {"board": "daffodil", "scoring": "sunrays"}])
def test_max_utility_is_a_bound_no_board_beats_and_not_three_times_too_high(options):
    """max_utility was 1,032 on the standard board (true maximum 307), which hurts the algorithms that normalise
    by it: it is now what every line scoring its direction's best value (and the variants' bonuses) can make."""
    from takeiteasy.core.deal import deal

    game = pyspiel.load_game("take_it_easy", {"options": json.dumps(options)})
    rules = game.rules
    bound = game.max_utility()
    if not options:
        assert bound == 456 >= 307  # 19 cells x (9 + 7 + 8), the best value in each direction
    from takeiteasy.solve import solve

    boards = []
    for seed in range(300):  # random full boards, and the solver's best boards of a few deals
        board = rules.empty_board()
        board[: rules.layout.num_cells] = deal(seed, rules.tile_set, rules.layout.num_cells)
        boards.append(board)
    boards += [solve(rules, deal(seed, rules.tile_set, rules.layout.num_cells)).board for seed in range(3)]
    assert max(rules.score(b) + max(rules.round_bonuses([b])) for b in boards) <= bound


@pytest.mark.parametrize("spec", ["take_it_easy(draw=2)", "take_it_easy(players=2,draw=3,placement=sunmoon)",
                                  "take_it_easy(players=2,caller=False,draw=2)"])
def test_with_several_tiles_drawn_the_observation_tensor_says_which_is_placed_next(spec):
    """Two tiles turned over in either order left the same flags in "waiting", so the observation tensor could not
    tell which tile the next action places: the tensor now has the next tile one-hot after the waiting flags."""
    game = pyspiel.load_game(spec)
    k, cells = 27, game.rules.board_size
    first, second = game.new_initial_state(), game.new_initial_state()
    for state, order in ((first, (4, 9)), (second, (9, 4))):
        for tile in order:
            state.apply_action(tile + (cells if game.announces else 0))  # a draw, or with no caller an announcement
        while state.is_chance_node():  # the rest of the group (draw=3)
            state.apply_action(state.chance_outcomes()[0][0])
    assert first.observation_tensor(0) != second.observation_tensor(0)
    for state, tile in ((first, 4), (second, 9)):
        tensor = np.array(state.observation_tensor(0))
        assert tensor[cells * k + tile] == 1  # waiting
        assert tensor[cells * k + k:cells * k + 2 * k].tolist() == np.eye(k)[tile].tolist()  # next
    assert pyspiel.load_game("take_it_easy").observation_tensor_size() == 19 * 27 + 27 + 27  # one at a time: as it was
