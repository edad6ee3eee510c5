#!/usr/bin/env bash
# Random full games per second: the C++ baseline and `takeiteasy bench --agent random`, side by side.
#   bench/compare_cpp.sh [games] [runs]
# Prints one line per run for each, then the medians and their ratio (Python / C++).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${1:-5000000}"
RUNS="${2:-5}"
BUILD="$(mktemp -d)"
trap 'rm -rf "$BUILD"' EXIT
g++ -O2 -o "$BUILD/random_games" bench/cpp/random_games.cpp
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$PWD/.numba_cache}"
if python3 -c "import takeiteasy.commands.bench" 2>/dev/null; then BENCH=(python3 -m takeiteasy); else BENCH=(env PYTHONPATH=src python3 -m takeiteasy); fi
"${BENCH[@]}" bench --agent random --games 1000 --json >/dev/null  # compile once, outside the runs
cpp=() py=()
for run in $(seq "$RUNS"); do
    c=$("$BUILD/random_games" "$GAMES" "$run" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games_per_second"])')
    p=$("${BENCH[@]}" bench --agent random --games "$GAMES" --seed "$run" --json \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["games_per_second"])')
    printf 'run %s: c++ %.0f games/s, takeiteasy %.0f games/s\n' "$run" "$c" "$p"
    cpp+=("$c") py+=("$p")
done
python3 - "${cpp[*]}" "${py[*]}" <<'PY'
import statistics, sys
cpp = [float(x) for x in sys.argv[1].split()]
py = [float(x) for x in sys.argv[2].split()]
c, p = statistics.median(cpp), statistics.median(py)
print(f"median c++ {c:,.0f} games/s; median takeiteasy {p:,.0f} games/s; ratio takeiteasy/c++ {p / c:.2f}")
PY
