"""Throughput of the RL environments: env-steps per second, first legal cell each step, median of 5 runs.

Run from the repository root:
    NUMBA_CACHE_DIR=/tmp/numba_envs PYTHONPATH=src python scripts/bench_envs.py
Resets are included (the single environment deals with the pure-Python SplitMix64 shuffle; the batched one, since
2026-11-26, with the compiled bulk deal of takeiteasy.fast.deals, the same deals about 30 times faster).
"""

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


if __name__ == "__main__":
    for n in (1, 64, 1024):
        episodes = max(1, 2048 // n)
        fast, slow = vector_rate(n, episodes, True), vector_rate(n, max(1, episodes // 8), False)
        print(f"TakeItEasyVectorEnv num_envs={n}: compiled {fast:,.0f}, ruleset path {slow:,.0f} env-steps/s "
              f"(ratio {fast / slow:.1f})")
    print(f"TakeItEasyEnv: {single_rate():,.0f} steps/s")
