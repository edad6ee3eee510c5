"""The Gymnasium environment TakeItEasy-v0: checker, rewards, masks, seeds."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings, strategies as st

import takeiteasy.envs  # noqa: F401 - registers TakeItEasy-v0
from takeiteasy.core import Game, IllegalMove, InputError, Options, Ruleset, format_board
from takeiteasy.core.tiles import TOKENS
from takeiteasy.envs import TakeItEasyEnv

import reference

VARIANTS = [
    {},
    {"placement": "adjacent"},
    {"scoring": "sunrays"},
    {"board": "daffodil"},
    {"board": "daffodil", "placement": "adjacent", "scoring": "sunrays"},
    {"wildcards": True},
    {"board": "daffodil", "stamen": "holding"},
    {"caller": False},  # rulebook 004: the player announces the tiles
    {"caller": False, "draw": 2, "board": "daffodil"},
    {"draw": 3},  # hand by place (MultiDiscrete)
    {"caller": False, "draw": 3, "placement": "sunmoon"},  # and the announcements so far, in order
]


def play_random(env, seed, rng=None):
    """One episode with random legal cells; returns (return, last info, rewards)."""
    rng = rng or np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    rewards, done = [], False
    while not done:
        cell = rng.choice(np.flatnonzero(info["action_mask"]))
        obs, reward, done, truncated, info = env.step(cell)
        assert not truncated
        rewards.append(reward)
    return sum(rewards), info, rewards


@pytest.mark.parametrize("kwargs", VARIANTS, ids=lambda k: ",".join(f"{a}={b}" for a, b in k.items()) or "standard")
def test_passes_gymnasium_check_env(kwargs):
    check_env(gym.make("TakeItEasy-v0", **kwargs).unwrapped, skip_render_check=True)


def test_check_env_with_render_modes_through_gym_make():
    check_env(gym.make("TakeItEasy-v0", render_mode="ansi").unwrapped)


def test_spaces_and_first_observation():
    env = gym.make("TakeItEasy-v0")
    obs, info = env.reset(seed=11)
    assert env.action_space == gym.spaces.Discrete(19)
    assert obs["board"].tolist() == [0] * 19
    tile = Game(Ruleset.from_options(), ["x"], seed=11).deal[0]
    assert obs["tile"] == tile + 1 and info["tile"] == tile
    assert obs["bag"].sum() == 26 and obs["bag"][tile] == 0
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].sum() == 19
    assert env.observation_space.contains(obs)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS[:3]))
def test_episode_return_equals_final_score(seed, variant):
    """The rewards are score differences, so they add up to the final score (checked by an independent scorer)."""
    env = TakeItEasyEnv(**variant)
    total, info, rewards = play_random(env, seed)
    board = env.game.boards[0]
    assert total == info["score"] == env.rules.score(board)
    symbols = None
    if variant.get("scoring") == "sunrays":
        symbols = {TOKENS[t]: env.rules.symbol_name(t) for t in env.rules.tile_set}
    assert total == reference.score(format_board(board), symbols=symbols)
    assert all(r >= 0 for r in rewards)  # a completed line stays complete


def test_rulebook_000_adjacent_placement_mask():
    """Rulebook 000, Adjacent Placement: after the first tile every tile must touch a placed tile along an edge."""
    env = TakeItEasyEnv(placement="adjacent")
    cells = reference.standard_cells()
    steps = {(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)}
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=5)
    assert info["action_mask"].all()  # the first tile goes anywhere
    done = False
    while not done:
        cell = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, done, _, info = env.step(cell)
        if done:
            break
        filled = {cells[c] for c in range(19) if obs["board"][c]}
        expected = [int(cells[c] not in filled and any((cells[c][0] + dq, cells[c][1] + dr) in filled
                                                        for dq, dr in steps)) for c in range(19)]
        assert info["action_mask"].tolist() == expected
        assert env.action_masks().tolist() == expected


def test_seeded_reset_deals_the_games_tiles_and_repeats():
    env = TakeItEasyEnv()
    first = play_random(env, 42, np.random.default_rng(0))
    deal_a = list(env.game.deal)
    second = play_random(env, 42, np.random.default_rng(0))
    assert first[2] == second[2] and env.game.deal == deal_a
    assert deal_a == Game(Ruleset.from_options(), ["x"], seed=42).deal


def test_unseeded_resets_follow_the_first_seed():
    a, b = TakeItEasyEnv(), TakeItEasyEnv()
    a.reset(seed=7)
    b.reset(seed=7)
    deals_a = [a.reset()[1]["tile"] for _ in range(5)]
    deals_b = [b.reset()[1]["tile"] for _ in range(5)]
    assert deals_a == deals_b


def test_a_refused_reset_leaves_the_generator_as_it_was():
    """A reset refused for its deal reseeded the generator first, so the next unseeded reset left the seeded run."""
    a, b = TakeItEasyEnv(), TakeItEasyEnv()
    a.reset(seed=3)
    b.reset(seed=3)
    with pytest.raises(InputError, match="^reset option 'deal'"):
        a.reset(seed=4, options={"deal": "bad"})
    assert a.reset()[1]["tile"] == b.reset()[1]["tile"] and a.game.deal == b.game.deal


def test_reset_with_a_given_deal():
    env = TakeItEasyEnv()
    tiles = Game(Ruleset.from_options(), ["x"], seed=3).deal
    obs, info = env.reset(options={"deal": " ".join(TOKENS[t] for t in tiles)})
    assert info["tile"] == tiles[0]
    with pytest.raises(InputError):
        env.reset(options={"deal": tiles[:5]})


def test_invalid_action_ends_the_episode_or_raises():
    env = TakeItEasyEnv()
    env.reset(seed=1)
    env.step(4)
    obs, reward, terminated, truncated, info = env.step(4)  # taken
    assert terminated and reward == 0 and info["invalid_action"] and not info["action_mask"].any()
    with pytest.raises(InputError):
        env.step(5)
    strict = TakeItEasyEnv(invalid_action="raise")
    strict.reset(seed=1)
    strict.step(4)
    with pytest.raises(IllegalMove, match="already taken"):
        strict.step(4)


def test_variant_keywords_reach_the_ruleset():
    env = gym.make("TakeItEasy-v0", board="daffodil", placement="adjacent")
    rules = env.unwrapped.rules
    assert rules.options == Options(board="daffodil", placement="adjacent")
    assert env.action_space.n == 21 and env.observation_space["bag"].n == 31
    same = TakeItEasyEnv(options=Options(board="daffodil", placement="adjacent"))
    assert same.rules.options == rules.options
    with pytest.raises(InputError, match="unknown option"):
        TakeItEasyEnv(boards="daffodil")
    with pytest.raises(InputError, match="placement"):
        TakeItEasyEnv(placement="diagonal")


def test_render_ansi():
    env = TakeItEasyEnv(render_mode="ansi")
    env.reset(seed=2)
    env.step(0)
    text = env.render()
    assert "score: 0" in text and "turn: 1" in text


@pytest.mark.parametrize("seed", range(4))
def test_rulebook_003_holding_area_slots_are_actions_and_end_moves_are_made_for_the_agent(seed):
    """Daffodil variant 4: the holding slots are actions, and when the last tile is placed the held tiles
    move onto the stamen where they score most; the return is that final score."""
    env = TakeItEasyEnv(board="daffodil", stamen="holding")
    rules = env.rules
    assert env.action_space == gym.spaces.Discrete(24)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        slots = [c for c in legal if c in rules.holding_cells]
        cell = slots[0] if slots and rng.random() < 0.3 else rng.choice(legal)  # hold some tiles
        unsettled = env.game.boards[0].copy()
        unsettled[cell] = info["tile"]
        obs, reward, done, _, info = env.step(cell)
        total += reward
    held = [int(t) for t in unsettled[list(rules.holding_cells)] if t >= 0]
    assert held and env.game.finished and info["score"] == total
    best = unsettled.copy()
    for tile, cell in rules.best_release(unsettled):
        best[best == tile], best[cell] = -1, tile
    assert total == rules.score(best) == rules.score(env.game.boards[0]) >= rules.score(unsettled)
    assert obs["board"].shape == (24,) and env.observation_space.contains(obs)


@pytest.mark.parametrize("seed", range(3))
def test_rulebook_002_sunmoon_touching_the_previous_tile_masks_follow_the_game(seed):
    """Sun/moon placement as the French text reads it (`sunmoon_touch="previous"`): a tile with the same
    symbol as the previous one must touch that previous tile, so the mask needs the previous cell."""
    env = TakeItEasyEnv(placement="sunmoon", sunmoon_touch="previous")
    rules, rng = env.rules, np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    restricted, done, previous = 0, False, (-1, -1)
    while not done:
        tile = info["tile"]
        expected = rules.legal_mask(env.game.boards[0], tile, *previous)
        assert np.array_equal(info["action_mask"], expected.astype(np.int8))
        restricted += int(expected.sum() < (env.game.boards[0] < 0).sum())
        cell = int(rng.choice(np.flatnonzero(info["action_mask"])))
        previous = (tile, cell)
        obs, _, done, _, info = env.step(cell)
    assert restricted > 0  # the rule did bite in this round


def test_rulebook_004_no_caller_the_agent_announces_every_tile_and_can_reach_307():
    """Rulebook 004, no caller: the player whose turn it is chooses the tile to announce; alone, the agent
    chooses all 19, so it can lay one of the 307-point boards of rulebook 000."""
    from takeiteasy.solve import maximum

    env = TakeItEasyEnv(caller=False)
    cells = env.num_cells
    assert env.action_space.n == cells + 27
    obs, info = env.reset(seed=3)
    assert info["phase"] == "announce" and obs["tile"] == 0 and obs["bag"].sum() == 27
    assert not info["action_mask"][:cells].any() and info["action_mask"][cells:].all()
    board = maximum(Ruleset.from_options()).boards[0]
    total = 0.0
    for cell, tile in enumerate(board):
        obs, reward, done, _, info = env.step(cells + int(tile))
        assert reward == 0 and not done and info["phase"] == "place" and info["tile"] == tile
        assert obs["tile"] == tile + 1 and obs["bag"][tile] == 0
        assert info["action_mask"][:cells].sum() == 19 - cell and not info["action_mask"][cells:].any()
        obs, reward, done, _, info = env.step(cell)
        total += reward
        if not done:
            assert info["phase"] == "announce" and info["action_mask"][cells + int(tile)] == 0
    assert done and total == info["score"] == 307 and info["phase"] == "over"


@pytest.mark.parametrize("action", ["3", None, 3.5, [3], True, np.True_, np.array(True)])
def test_an_action_that_is_not_an_integer_is_refused(action):
    raising = TakeItEasyEnv(invalid_action="raise")
    raising.reset(seed=1)
    with pytest.raises(IllegalMove, match="is not an integer"):
        raising.step(action)
    assert raising.game.moves[0] == []  # nothing happened
    assert raising.step(np.int64(3))[4]["turn"] == 1  # numpy integers are integers
    ending = TakeItEasyEnv()
    ending.reset(seed=1)
    *_, done, _, info = ending.step(action)
    assert done and info["invalid_action"] and info["score"] == 0


def test_rulebook_004_no_caller_refusals():
    """Rulebook 004: only a tile not drawn yet can be announced, and only once everything drawn is placed."""
    env = TakeItEasyEnv(caller=False, invalid_action="raise")
    cells = env.num_cells
    env.reset()
    with pytest.raises(IllegalMove, match="cell 0"):
        env.step(0)  # nothing drawn yet: announce first
    env.step(cells + 5)
    with pytest.raises(IllegalMove, match="announce 6"):
        env.step(cells + 6)  # the announced tile must be placed first
    env.step(0)
    with pytest.raises(IllegalMove, match="not in the remaining set"):
        env.step(cells + 5)  # drawn already
    with pytest.raises(IllegalMove, match="not an action"):
        env.step(cells + 27)
    with pytest.raises(InputError, match="no caller"):
        env.reset(options={"deal": list(range(19))})

    ending = TakeItEasyEnv(caller=False)
    ending.reset()
    ending.step(cells + 5)
    ending.step(0)
    obs, reward, done, _, info = ending.step(cells + 5)
    assert done and reward == 0 and info["invalid_action"] and info["score"] == 0 and not info["action_mask"].any()


def test_rulebook_004_no_caller_two_tiles_are_announced_one_by_one():
    """Rulebook 004 with rulebook 001's two tiles at a time: two announcements, then both tiles are placed."""
    env = TakeItEasyEnv(caller=False, draw=2)
    cells = env.num_cells
    _, info = env.reset()
    _, _, _, _, info = env.step(cells + 0)
    assert info["phase"] == "announce" and info["action_mask"][cells + 0] == 0
    _, _, _, _, info = env.step(cells + 26)
    assert info["phase"] == "place" and info["tile"] == 0
    _, _, _, _, info = env.step(3)
    assert info["phase"] == "place" and info["tile"] == 26
    _, _, _, _, info = env.step(4)
    assert info["phase"] == "announce"
    assert [t for t, _ in env.game.moves[0]] == [0, 26] and env.game.announcers == [0]


def test_rulebook_000_best_sunray_bonus_comes_with_the_last_reward():
    """Best Sunray/Moonbeam: the 60-point bonuses are awarded at the end of the round (alone too), so the return
    is the player's score, board plus bonus, as Game.scores() counts it."""
    from takeiteasy.solve import maximum

    env = TakeItEasyEnv(caller=False, scoring="best-sunray")
    env.reset()
    total = 0.0
    for cell, tile in enumerate(maximum(Ruleset.from_options()).boards[0]):
        env.step(env.num_cells + int(tile))
        obs, reward, done, _, info = env.step(cell)
        total += reward
    assert done and env.game.round_bonuses() == [120]
    assert total == info["score"] == env.game.scores()[0] == 307 + 120


def test_rulebook_004_no_caller_two_tiles_the_first_announcement_shows_in_the_observation():
    """Rulebook 004 with two tiles at a time: between the two announcements the announced tile has left the bag,
    or the observation would be the same before and after the first announcement."""
    env = TakeItEasyEnv(caller=False, draw=2)
    before, _ = env.reset()
    after, *_ = env.step(env.num_cells + 5)
    assert before["bag"][5] == 1 and after["bag"][5] == 0 and after["bag"].sum() == 26
    assert env.observation_space.contains(after)


@pytest.mark.parametrize("kwargs", [{}, {"caller": False}])
def test_human_render_shows_the_reset_and_every_step(kwargs, capsys):
    """Gymnasium's human mode renders on reset too; steps that announce or end on an illegal cell print as well."""
    env = TakeItEasyEnv(render_mode="human", **kwargs)
    obs, info = env.reset(seed=4)
    assert capsys.readouterr().out.count("board:") == 1
    for _ in range(2):
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert capsys.readouterr().out.count("board:") == 1
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert done and info["invalid_action"] and capsys.readouterr().out.count("board:") == 1


@pytest.mark.parametrize("action", [19, 45, 2**70])
def test_with_a_caller_an_action_past_the_cells_is_a_cell_off_the_board_not_an_announcement(action):
    """The refusal said "announce 0: not an action" in a game where nobody announces."""
    env = TakeItEasyEnv(invalid_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalMove, match=rf"^cell {action} is not on the standard board \(cells 0..18\)$"):
        env.step(action)


@pytest.mark.parametrize("options", [{"deals": [list(range(19))]}, {"bogus": 1}])
def test_reset_refuses_unknown_options_naming_the_known_ones(options):
    env = TakeItEasyEnv()
    with pytest.raises(InputError, match="unknown .*; known: deal"):
        env.reset(options=options)


@pytest.mark.parametrize("options", ["x", {"deal": 5}, {"deal": [0.0, *range(1, 19)]}, {"deal": ["0", *range(1, 19)]},
                                     {"deal": [True, *range(2, 20)]}])
def test_reset_refuses_options_that_are_not_a_dict_or_deals_not_of_integers(options):
    env = TakeItEasyEnv()
    with pytest.raises(InputError, match="^reset option") as refused:
        env.reset(options=options)
    assert "\n" not in str(refused.value)
    assert env.reset(options={"deal": list(range(19))})[1]["tile"] == 0


@pytest.mark.parametrize("keywords", [{"rules": 5}, {"options": 5}])
def test_rules_and_options_of_the_wrong_type_are_input_errors(keywords):
    with pytest.raises(InputError, match=f"{next(iter(keywords))}=5: expected"):
        TakeItEasyEnv(**keywords)


@pytest.mark.parametrize("action, message", [(True, "^action True is not an integer$"),
                                             (-1, r"^cell -1 is not on the standard board \(cells 0..18\)$")])
def test_a_refusal_says_things_once(action, message):
    env = TakeItEasyEnv(invalid_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalMove, match=message):
        env.step(action)


@pytest.mark.parametrize("seed", [-1, -123456789, np.int64(7), np.int64(-3)])
def test_negative_and_numpy_seeds_deal_as_the_game_does(seed):
    """ENV.md: a seed is a whole number, negative too, as ``Game`` takes.  Gymnasium's own generator refused a
    negative seed or a numpy integer before the environment saw it."""
    from takeiteasy.envs.vector import TakeItEasyVectorEnv

    rules = Ruleset.from_options()
    expected = [Game(rules, ["a"], seed=int(seed) + i).draw()[0] for i in range(2)]
    _, info = gym.make("TakeItEasy-v0").reset(seed=seed)
    assert info["tile"] == expected[0]
    _, infos = TakeItEasyVectorEnv(2).reset(seed=seed)
    assert list(infos["tile"]) == expected
    _, again = gym.make("TakeItEasy-v0").reset(seed=seed)
    assert again["tile"] == info["tile"]
