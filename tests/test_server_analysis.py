"""Post-round analysis in the web app: ``GET /api/rooms/{code}/analysis`` for screen rooms and tables."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.core.notation import parse_board, parse_tile  # noqa: E402
from takeiteasy.core.rules import Options, Ruleset  # noqa: E402
from takeiteasy.server import MemoryStore, create_app  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402
from takeiteasy.solve import solve  # noqa: E402

from test_server_api import create, place_then_wait_for_ais, post, refused  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app(MemoryStore(), rate_limits=RateLimits.off())) as c:
        yield c


def analysis(client, code):
    r = client.get(f"/api/rooms/{code}/analysis")
    assert r.status_code == 200, r.text
    return r.json()["analysis"]


def test_solo_round_is_analysed_once_it_is_over(client):
    joined = create(client, mode="solo", agents=["greedy"])
    code, token, st = joined["code"], joined["token"], joined["state"]
    refused(client.get(f"/api/rooms/{code}/analysis"), 409)  # the deal is still secret
    while st["status"] == "playing":
        st = place_then_wait_for_ais(client, code, token, st)
    report = analysis(client, code)
    rules = Ruleset.from_options(Options())
    tiles = [parse_tile(t) for t in st["drawn"]]
    assert report["deal"] == st["drawn"]
    assert report["best_possible"]["score"] == solve(rules, tiles).score
    assert report["best_possible"]["reachable"] is True  # free placement: any board, in any order
    lines = report["best_possible"]["lines"]  # the scoring lines, to draw on the board
    assert lines and sum(line["points"] for line in lines) == report["best_possible"]["score"]
    assert all(line["status"] == "complete" for line in lines)
    assert rules.score(parse_board(report["best_possible"]["board"])) == report["best_possible"]["score"]
    assert report["agent"]["agent"] == "best" and 0 <= report["agent"]["score"] <= report["best_possible"]["score"]
    assert [p["name"] for p in report["players"]] == [p["name"] for p in st["players"]]
    for mine, seen in zip(report["players"], st["players"]):
        assert mine["score"] == seen["score"]
        assert mine["missed"] == report["best_possible"]["score"] - seen["score"] >= 0
        assert len(mine["moves"]) == 19 and all(m["loss"] >= 0 for m in mine["moves"])
        assert [m["tile"] for m in mine["moves"]] == st["drawn"]
        assert len(mine["worst_moves"]) == 3
    assert '"seed"' not in json.dumps(report)
    assert analysis(client, code) == report  # kept, not searched again


def test_a_round_of_more_tiles_at_a_time_than_ai_players_take_is_analysed_without_the_ai_game(client):
    """Three tiles at a time: AI players may not sit there (their search of a big hand is too slow to wait for), and
    the analysis replayed the round with the AI all the same: two such analyses held up every hint on the server
    for five minutes.  The report leaves the AI's game out; the best board and each move are still there."""
    joined = create(client, mode="solo", options={"draw": 3})
    code, token, st = joined["code"], joined["token"], joined["state"]
    while st["status"] == "playing":
        tile = st["me"]["pending"][0]
        st = post(client, code, "place", token=token, cell=st["me"]["legal"][tile][0], tile=tile).json()["state"]
    report = analysis(client, code)
    assert report["agent"] is None
    rules = Ruleset.from_options(Options(draw=3))
    assert report["best_possible"]["score"] == solve(rules, [parse_tile(t) for t in st["drawn"]]).score
    assert len(report["players"][0]["moves"]) == 19


def test_caller_round_compares_the_entered_boards_with_the_best_one(client):
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    assert post(client, code, "add", token=ann, name="grandma").status_code == 201
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    post(client, code, "start", token=ann)
    for _ in range(19):
        st = post(client, code, "call", token=ann).json()["state"]
    refused(client.get(f"/api/rooms/{code}/analysis"), 409)  # not ended yet
    board = " ".join(st["drawn"])  # the tiles in call order, cell by cell
    post(client, code, "entry", token=bob, board=board)
    post(client, code, "entry", token=ann, player=1, score=120)
    post(client, code, "end-round", token=ann)
    report = analysis(client, code)
    rules = Ruleset.from_options(Options())
    best = solve(rules, [parse_tile(t) for t in st["drawn"]]).score
    assert report["best_possible"]["score"] == best
    ann_row, grandma, bob_row = report["players"]
    assert ann_row["score"] is None and ann_row["missed"] is None
    assert grandma["score"] == 120 and grandma["missed"] == best - 120 and grandma["board"] is None
    assert bob_row["score"] == rules.score(parse_board(board)) and bob_row["missed"] == best - bob_row["score"]
    assert report["agent"]["score"] is not None


def test_analysis_of_an_unknown_room_is_refused(client):
    refused(client.get("/api/rooms/NOPE42/analysis"), 404)
