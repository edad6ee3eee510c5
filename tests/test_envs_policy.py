"""The built-in agents as environment policies: the same play as outside the environments, placing and
announcing, in Gymnasium, PettingZoo and OpenSpiel."""

import json

import gymnasium as gym
import numpy as np
import pytest

import takeiteasy.envs  # noqa: F401 - registers TakeItEasy-v0
from takeiteasy.ai import make_agent
from takeiteasy.core import Game, InputError, Options, Ruleset
from takeiteasy.envs import env as aec_env, parallel_env
from takeiteasy.envs.policy import AgentPolicy


def play_gym(env, policy, seed=None):
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        assert info["action_mask"][policy(env)] == 1
        obs, reward, done, _, info = env.step(policy(env))
        total += reward
        assert not info.get("invalid_action")
    return total, info


@pytest.mark.parametrize("name", ["heuristic", "fast"])
@pytest.mark.parametrize("options", [{}, {"placement": "adjacent"}, {"draw": 2}])
def test_gym_policy_plays_as_the_agent_plays_outside(name, options):
    env = gym.make("TakeItEasy-v0", **options)
    rules = env.unwrapped.rules
    policy = AgentPolicy(name, rules)
    for seed in (1, 2):
        total, info = play_gym(env, policy, seed)
        outside = Game(rules, ["x"], seed=seed).play([_InDrawOrder(make_agent(name, rules))])[0]
        assert total == info["score"] == outside


class _InDrawOrder:
    """The agent without choose_move, so that it places drawn tiles in draw order, as the environments do."""

    def __init__(self, agent):
        self.agent = agent

    def choose(self, view):
        return self.agent.choose(view)


def test_rulebook_004_no_caller_gym_policy_announces_and_places():
    """Rulebook 004, no caller: the policy chooses every tile as well (the learned agents announce the tile whose
    best placement promises most), so alone it scores far above a random policy."""
    env = gym.make("TakeItEasy-v0", caller=False)
    rules = env.unwrapped.rules
    scores = [play_gym(env, AgentPolicy("fast", rules))[1]["score"] for _ in range(3)]
    randoms = [play_gym(env, AgentPolicy("random", rules, seed=s))[1]["score"] for s in range(3)]
    assert min(scores) > 150 > max(randoms)


@pytest.mark.parametrize("options", [{}, {"caller": False}])
def test_pettingzoo_policies_for_every_agent(options):
    env = aec_env(2, **options)
    env.reset(seed=5)
    policies = {a: AgentPolicy(n, env.rules) for a, n in zip(env.possible_agents, ("heuristic", "fast"))}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else policies[agent](env)
        if action is not None:
            assert obs["action_mask"][action] == 1
        env.step(action)
    assert min(env.round.game.board_scores()) > 60

    par = parallel_env(2, **options)
    obs, infos = par.reset(seed=5)
    while par.agents:
        actions = {a: policies[a](par, a) for a in par.agents if infos[a]["phase"] in ("place", "announce")}
        obs, _, _, _, infos = par.step(actions)
    assert min(par.round.game.board_scores()) > 60
    with pytest.raises(InputError, match="say which agent"):
        policies["player_0"](par)


@pytest.mark.parametrize("options", [{}, {"caller": False}])
def test_openspiel_policy(options):
    pyspiel = pytest.importorskip("pyspiel")
    import takeiteasy.envs.openspiel_game  # noqa: F401 - registers take_it_easy

    game = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps(options)})
    policy = AgentPolicy("fast", Ruleset.from_options(Options.from_json(options)))
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            tiles, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(tiles, p=probabilities)))
        else:
            action = policy(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert min(state.returns()) > 60
    with pytest.raises(InputError, match="no player acts"):
        policy(state)


def test_policy_refuses_what_it_cannot_act_in():
    rules = Ruleset.from_options()
    with pytest.raises(InputError, match="expected a Gymnasium"):
        AgentPolicy("fast", rules)(object())
    with pytest.raises(InputError, match="unknown agent"):
        AgentPolicy("deep-blue", rules)
    envs = gym.make_vec("TakeItEasy-v0", num_envs=2, vectorization_mode="sync")
    envs.reset(seed=1)
    with pytest.raises(InputError, match="only TakeItEasyVectorEnv"):  # it said "after reset()" after a reset
        AgentPolicy("fast", rules)(envs)


def test_a_policy_without_rules_plays_the_standard_rules_as_make_agent_does():
    env = gym.make("TakeItEasy-v0")
    play_gym(env, AgentPolicy("fast"), seed=3)
    assert env.unwrapped.game.finished


def test_rulebook_004_no_caller_openspiel_policy_looks_at_the_other_boards_as_at_the_table():
    """With no caller the players look at each other's boards (Game.view's others): the OpenSpiel policy gave
    the agent none, so 'best' planned the solitaire puzzle at a table of two and played otherwise than in
    PettingZoo.  No chance here: the same agent must make the same moves in both."""
    pyspiel = pytest.importorskip("pyspiel")
    import takeiteasy.envs.openspiel_game  # noqa: F401 - registers take_it_easy

    options = {"caller": False}
    rules = Ruleset.from_options(Options(**options))
    state = pyspiel.load_game("take_it_easy", {"players": 2, "options": json.dumps(options)}).new_initial_state()
    policy = AgentPolicy("best", rules)
    while not state.is_terminal():
        state.apply_action(policy(state))
    env, policy = aec_env(2, **options), AgentPolicy("best", rules)
    env.reset(seed=0)
    in_pettingzoo = {}
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else policy(env)
        if action is not None:
            in_pettingzoo.setdefault(agent, []).append(action)
        env.step(action)
    by_player = {}
    for step in state.full_history():  # each player's own moves in order (the turn order may differ)
        by_player.setdefault(f"player_{step.player}", []).append(step.action)
    assert by_player == in_pettingzoo
    assert state.returns() == [float(s) for s in env.round.game.scores()]


def test_a_policy_of_other_rules_is_refused():
    """The standard agent in an adjacent-placement round picked cells the mask forbids."""
    env = gym.make("TakeItEasy-v0", placement="adjacent")
    env.reset(seed=1)
    policy = AgentPolicy("fast", Ruleset.from_options(Options()))
    with pytest.raises(InputError, match="other rules than the environment's"):
        policy(env)
    assert AgentPolicy("fast", env.unwrapped.rules)(env) in range(19)


def test_a_policy_for_an_unknown_agent_is_refused():
    env = parallel_env(2)
    env.reset(seed=1)
    policy = AgentPolicy("fast", env.rules)
    with pytest.raises(InputError, match="agent 'player_9'; expected one of player_0, player_1"):
        policy(env, "player_9")


@pytest.mark.parametrize("kwargs", [{}, {"placement": "adjacent"}, {"draw": 2},
                                    {"board": "daffodil", "stamen": "first"}])
def test_the_policy_gives_the_batched_env_one_action_per_sub_environment(kwargs):
    """policy(envs) on the batched env was refused ("expected a Gymnasium ... environment"): expert actions for
    imitation are wanted there most.  Each sub-environment gets what the policy plays in the single environment
    of the same seed, and the rounds end with the same scores."""
    import gymnasium as gym

    from takeiteasy.envs import TakeItEasyEnv

    n, seed = 3, 40
    envs = gym.make_vec("TakeItEasy-v0", num_envs=n, **kwargs)
    policy = AgentPolicy("fast", envs.unwrapped.rules)  # deterministic (greedy breaks ties at random)
    singles = [TakeItEasyEnv(**kwargs) for _ in range(n)]
    envs.reset(seed=seed)
    for i, env in enumerate(singles):
        env.reset(seed=seed + i)
    for _ in range(envs.unwrapped.tiles_per_round):
        actions = policy(envs)
        assert list(actions) == [policy(env) for env in singles]
        _, _, terminated, _, info = envs.step(actions)
        for env, action in zip(singles, actions):
            env.step(int(action))
    assert terminated.all() and list(info["score"]) == [env.game.scores()[0] for env in singles]
    assert list(policy(envs)) == [0] * n  # rounds over: the next step resets them and ignores the actions
