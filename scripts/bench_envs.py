"""Throughput of the RL environments: env-steps per second, first legal cell each step, median of 5 runs.

Run from the repository root:
    NUMBA_CACHE_DIR=/tmp/numba_envs PYTHONPATH=src python scripts/bench_envs.py
With ``--policy AGENT``: instead, the time an AgentPolicy takes to play 4,096 batched rounds (docs/ENV.md).
Resets are included (the single environment deals with the pure-Python SplitMix64 shuffle; the batched one, since
2026-11-26, with the compiled bulk deal of takeiteasy.fast.deals, the same deals about 30 times faster).
"""

import argparse
import statistics
import time

from takeiteasy.envs import TakeItEasyEnv, TakeItEasyVectorEnv


def vector_rate(num_envs: int, episodes: int, fast: bool) -> float:
    envs = TakeItEasyVectorEnv(num_envs, fast=fast)
    _, info = envs.reset(seed=0)
    envs.step(info["action_mask"].argmax(axis=1))  # compile outside the timing
    rates = []
    for _ in range(5):
        start, steps = time.perf_counter(), 0
        for episode in range(episodes):
            _, info = envs.reset(seed=episode)
            for _ in range(19):
                _, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))
                steps += num_envs
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates)


def single_rate(episodes: int = 100) -> float:
    env, rates = TakeItEasyEnv(), []
    for _ in range(5):
        start = time.perf_counter()
        for episode in range(episodes):
            _, info = env.reset(seed=episode)
            for _ in range(19):
                _, _, _, _, info = env.step(int(info["action_mask"].argmax()))
        rates.append(episodes * 19 / (time.perf_counter() - start))
    return statistics.median(rates)


def policy_run(agent: str, num_envs: int = 4096) -> tuple[float, float]:
    """Seconds for the 19 steps of ``num_envs`` batched rounds with the agent choosing every action (its first
    call is timed too), and the rounds' mean score."""
    from takeiteasy.core import Ruleset
    from takeiteasy.envs import AgentPolicy

    envs, policy = TakeItEasyVectorEnv(num_envs), AgentPolicy(agent, Ruleset.from_options())
    envs.reset(seed=0)
    start, total = time.perf_counter(), 0.0
    for _ in range(19):
        _, reward, _, _, _ = envs.step(policy(envs))
        total += float(reward.sum())
    return time.perf_counter() - start, total / num_envs


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", metavar="AGENT", help="time an AgentPolicy over 4,096 batched rounds instead")
    args = parser.parse_args()
    if args.policy:
        seconds, mean = policy_run(args.policy)
        print(f"AgentPolicy({args.policy!r}) over 4,096 batched rounds: {seconds:.2f} s for 19 steps, "
              f"{seconds / (4096 * 19) * 1000:.3f} ms a move; mean score {mean:.2f}")
        raise SystemExit(0)
    for n in (1, 64, 1024):
        episodes = max(1, 2048 // n)
        fast, slow = vector_rate(n, episodes, True), vector_rate(n, max(1, episodes // 8), False)
        print(f"TakeItEasyVectorEnv num_envs={n}: compiled {fast:,.0f}, ruleset path {slow:,.0f} env-steps/s "
              f"(ratio {fast / slow:.1f})")
    print(f"TakeItEasyEnv: {single_rate():,.0f} steps/s")
