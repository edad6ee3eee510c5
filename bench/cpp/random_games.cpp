// Baseline for `takeiteasy bench --agent random`: a plain single-threaded C++ loop
// that plays random full games of the standard board (draw 19 of the 27 tiles,
// put each on a random empty cell, score the 15 lines) and prints games per second.
//
//   g++ -O2 -o random_games random_games.cpp && ./random_games [games] [seed]

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// Cells in notation order: q from -2 to 2, then r ascending, |s| <= 2.
struct Board {
    int lines[15][5];
    int length[15];
    int direction[15];
};

Board build_board() {
    int q_of[19], r_of[19], n = 0;
    for (int q = -2; q <= 2; ++q)
        for (int r = -2; r <= 2; ++r)
            if (std::abs(q + r) <= 2) { q_of[n] = q; r_of[n] = r; ++n; }
    Board b{};
    int line = 0;
    for (int d = 0; d < 3; ++d) {
        for (int k = -2; k <= 2; ++k) {  // constant q, s or r
            b.length[line] = 0;
            b.direction[line] = d;
            for (int c = 0; c < 19; ++c) {
                int key = d == 0 ? q_of[c] : d == 1 ? -q_of[c] - r_of[c] : r_of[c];
                if (key == k) b.lines[line][b.length[line]++] = c;
            }
            ++line;
        }
    }
    return b;
}

const int kValues[3][3] = {{1, 5, 9}, {2, 6, 7}, {3, 4, 8}};

struct Rng {  // xorshift64*
    uint64_t s;
    uint64_t next() {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        return s * 0x2545F4914F6CDD1DULL;
    }
    uint32_t below(uint32_t n) { return (uint32_t)(((next() >> 32) * n) >> 32); }
};

}  // namespace

int main(int argc, char** argv) {
    long games = argc > 1 ? std::atol(argv[1]) : 5000000;
    uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    Board b = build_board();
    int tile_value[27][3];
    for (int t = 0; t < 27; ++t) {
        tile_value[t][0] = kValues[0][t / 9];
        tile_value[t][1] = kValues[1][(t / 3) % 3];
        tile_value[t][2] = kValues[2][t % 3];
    }
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 1};
    int bag[27], empties[19], board[19];
    long long total = 0, zeros = 0;
    auto start = std::chrono::steady_clock::now();
    for (long g = 0; g < games; ++g) {
        for (int i = 0; i < 27; ++i) bag[i] = i;
        for (int c = 0; c < 19; ++c) empties[c] = c;
        for (int t = 0; t < 19; ++t) {
            int j = t + (int)rng.below(27 - t);
            int tile = bag[j]; bag[j] = bag[t]; bag[t] = tile;
            int free = 19 - t;
            int k = (int)rng.below(free);
            int cell = empties[k]; empties[k] = empties[free - 1]; empties[free - 1] = cell;
            board[cell] = tile;
        }
        int score = 0;
        for (int line = 0; line < 15; ++line) {
            int d = b.direction[line];
            int v = tile_value[board[b.lines[line][0]]][d];
            bool same = true;
            for (int k = 1; k < b.length[line]; ++k)
                if (tile_value[board[b.lines[line][k]]][d] != v) { same = false; break; }
            if (same) score += v * b.length[line];
        }
        total += score;
        zeros += score == 0;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("{\"games\": %ld, \"mean\": %.4f, \"share_zero\": %.4f, \"seconds\": %.4f, \"games_per_second\": %.0f}\n",
                games, (double)total / games, (double)zeros / games, seconds, games / seconds);
    return 0;
}
