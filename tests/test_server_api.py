"""The web API: solo and multi-player games played to the end, every illegal or cheating action refused
with the room intact, caller rooms, the reference endpoints, and AI players moving after the answer."""

from __future__ import annotations

import contextlib
import json
import re
import sys
import threading
import time

import pytest

pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from takeiteasy.core.notation import parse_board, parse_tile  # noqa: E402
from takeiteasy.core.presets import preset  # noqa: E402
from takeiteasy.core.rules import Options, Ruleset  # noqa: E402
from takeiteasy.core.tiles import TOKENS  # noqa: E402
from takeiteasy.server import MemoryStore, SQLiteStore, create_app  # noqa: E402
from takeiteasy.server.limits import RateLimits  # noqa: E402
from takeiteasy.server.store import StoreError  # noqa: E402

UNLIMITED = RateLimits.off()  # these tests act faster than people; tests/test_server_limits.py checks the limits

TOKEN_RE = re.compile(r"^[1-9*]{3}$")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(SQLiteStore(tmp_path / "rooms.db"), rate_limits=UNLIMITED)) as c:
        yield c


def create(client, **body):
    body.setdefault("name", "ann")
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def state(client, code, token=None):
    r = client.get(f"/api/rooms/{code}", headers={"x-player-token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def post(client, code, action, **body):
    return client.post(f"/api/rooms/{code}/{action}", json=body)


def refused(response, status=None):
    assert 400 <= response.status_code < 500, response.text
    if status:
        assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error and "\n" not in error
    return error


def place_first_legal(client, code, token, st):
    tile = st["me"]["pending"][0]
    r = post(client, code, "place", token=token, cell=st["me"]["legal"][tile][0], tile=tile)
    assert r.status_code == 200, r.text
    return r.json()["state"]


def ai_busy(st) -> bool:
    """An AI seat still owes a move: it is placing or settling (``waiting``), or, with no caller, it has to
    announce the next tiles."""
    if st["status"] != "playing":
        return False
    players, chooser = st["players"], st.get("chooser")
    if any(p["waiting"] for p in players if p["kind"] == "ai"):
        return True
    return (chooser is not None and players[chooser]["kind"] == "ai" and not any(p["waiting"] for p in players)
            and not st["awaiting_draw"])


def after_ais(client, code, token=None, seconds=60.0):
    """The room's state once its AI players have nothing left to do: they move in the background after an
    action is answered.  The bound only keeps a broken server from hanging the tests."""
    deadline = time.monotonic() + seconds
    while True:
        st = state(client, code, token)
        if not ai_busy(st):
            return st
        assert time.monotonic() < deadline, f"the AI players of room {code} did not move"
        time.sleep(0.01)


def place_then_wait_for_ais(client, code, token, st):
    place_first_legal(client, code, token, st)
    return after_ais(client, code, token)


def board_of(player, rules):
    text = " ".join(t or "." for t in player["board"][: rules.layout.num_cells])
    return parse_board(text, rules.layout, rules.tile_set)


def tile_strings(value, out):
    """Every string in a JSON value that looks like a tile token."""
    if isinstance(value, dict):
        for v in value.values():
            tile_strings(v, out)
    elif isinstance(value, list):
        for v in value:
            tile_strings(v, out)
    elif isinstance(value, str) and TOKEN_RE.match(value):
        out.add(value)
    return out


def test_solo_game_against_an_ai_to_the_end(client):
    joined = create(client, mode="solo", agents=["greedy"])
    code, token, st = joined["code"], joined["token"], joined["state"]
    assert st["status"] == "playing" and len(st["players"]) == 2
    while st["status"] == "playing":
        st = place_then_wait_for_ais(client, code, token, st)
    assert st["status"] == "finished"
    rules = Ruleset.from_options(Options())
    for player in st["players"]:
        assert player["score"] == rules.score(board_of(player, rules))
        assert player["round_score"] == player["score"] + player["bonus"]
        assert sum(line["points"] for line in player["lines"]) == player["score"]
    assert st["totals"] == [p["round_score"] for p in st["players"]]
    assert len(st["drawn"]) == 19
    refused(post(client, code, "place", token=token, cell=0), 409)


def test_finished_rounds_fill_the_best_scores_of_their_preset(client):
    """People's scores of rounds played on the server go on their preset's best-scores list; AI players' do
    not, nor do a caller room's, which the players at the table report themselves."""
    assert client.get("/api/scores").json() == {"preset": "standard", "scores": []}
    joined = create(client, mode="solo", agents=["greedy"], name="Åsa")
    code, token, st = joined["code"], joined["token"], joined["state"]
    while st["status"] == "playing":
        st = place_then_wait_for_ais(client, code, token, st)
    listed = client.get("/api/scores", params={"preset": "standard"}).json()["scores"]
    assert [(s["name"], s["score"], s["mode"]) for s in listed] == [("Åsa", st["players"][0]["round_score"], "solo")]
    assert state(client, code, token)["status"] == "finished"  # reading the room again records nothing more

    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    st = post(client, code, "start", token=ann).json()["state"]
    while st["left"]:
        st = post(client, code, "call", token=ann).json()["state"]
    assert post(client, code, "entry", token=ann, score=150).status_code == 200
    assert post(client, code, "end-round", token=ann).json()["state"]["status"] == "finished"
    assert client.get("/api/scores", params={"limit": 50}).json()["scores"] == listed
    assert client.get("/api/scores", params={"preset": "easier"}).json()["scores"] == []
    assert "preset 'nope'" in refused(client.get("/api/scores", params={"preset": "nope"}))
    refused(client.get("/api/scores", params={"limit": 0}))


def test_rulebook_001_solo_with_confirm_lets_the_last_tile_move_until_the_player_asks_for_the_next(tmp_path):
    """Rulebook 001: a placed tile may move until the next draw.  In a solo game with ``confirm`` the next
    tile comes only when the player asks (POST draw), so the rule can be used; the wait survives a restart."""
    db = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as client:
        joined = create(client, mode="solo", agents=["greedy"], confirm=True)
        code, token, st = joined["code"], joined["token"], joined["state"]
        assert "place the drawn tiles first" in refused(post(client, code, "draw", token=token))
        first = st["current"]
        st = place_then_wait_for_ais(client, code, token, st)
        assert st["awaiting_draw"] and st["current"] == first and len(st["drawn"]) == 1
        tile = first[0]
        empty = [c for c, t in enumerate(st["players"][0]["board"]) if t is None]
        r = post(client, code, "move", token=token, cell=empty[-1], tile=tile)
        assert r.status_code == 200, r.text
        assert r.json()["state"]["players"][0]["board"][empty[-1]] == tile
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as client:  # a restart: still waiting
        st = state(client, code, token)
        assert st["awaiting_draw"] and len(st["drawn"]) == 1
        r = post(client, code, "draw", token=token)
        assert r.status_code == 200, r.text
        st = r.json()["state"]
        assert not st["awaiting_draw"] and len(st["drawn"]) == 2 and st["me"]["phase"] == "place"
        assert "place the drawn tiles first" in refused(post(client, code, "draw", token=token))
        refused(post(client, code, "move", token=token, cell=0, tile=tile))  # drawn past it: fixed now
        while st["status"] == "playing":
            st = place_then_wait_for_ais(client, code, token, st)
            if st["awaiting_draw"]:
                st = post(client, code, "draw", token=token).json()["state"]
        assert st["status"] == "finished" and len(st["drawn"]) == 19


def test_rulebook_000_adjacent_placement_the_state_names_where_a_placed_tile_may_move(client):
    """Rulebook 000, adjacent placement, with rulebook 001's moving of the tile just placed: the page offered
    every empty cell, and the server refused most of them.  ``me.move_targets`` is what a move is allowed."""
    joined = create(client, mode="solo", confirm=True, options={"placement": "adjacent"})
    code, token, st = joined["code"], joined["token"], joined["state"]
    while len(st["drawn"]) < 3:  # from the second tile on, a move must stay next to a placed tile
        st = place_first_legal(client, code, token, st)
        assert st["awaiting_draw"]
        tile = st["me"]["movable"][0]
        targets = st["me"]["move_targets"][tile]
        if len(st["drawn"]) == 1:
            assert len(targets) == 18  # the first tile goes anywhere
        else:
            board = st["players"][0]["board"]
            empty = [c for c, t in enumerate(board) if t is None]
            assert targets and set(targets) < set(empty)
            outside = next(c for c in empty if c not in targets)
            assert "adjacent placement" in refused(post(client, code, "move", token=token, cell=outside, tile=tile))
            r = post(client, code, "move", token=token, cell=targets[-1], tile=tile)
            assert r.status_code == 200, r.text
            assert r.json()["state"]["players"][0]["board"][targets[-1]] == tile
        st = post(client, code, "draw", token=token).json()["state"]
        assert "move_targets" not in st["me"]  # the draw fixed it


def test_confirm_is_refused_outside_solo_or_without_moving_tiles(client):
    assert "solo" in refused(client.post("/api/rooms", json={"name": "ann", "mode": "room", "confirm": True}))
    body = {"name": "ann", "mode": "solo", "confirm": True, "options": {"takeback": False}}
    assert "forbid moving" in refused(client.post("/api/rooms", json=body))
    joined = create(client, mode="solo")
    assert "by itself" in refused(post(client, joined["code"], "draw", token=joined["token"]))


def test_two_player_room_played_to_the_end_with_every_illegal_action_refused(client):
    host = create(client, mode="room", preset="easier")
    code, ann = host["code"], host["token"]
    assert code in [r["code"] for r in client.get("/api/rooms").json()["rooms"]]
    refused(client.post(f"/api/rooms/{code}/join", json={"name": "ANN"}), 409)  # names are unique
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    refused(post(client, code, "place", token=bob, cell=0), 409)  # placing before the start
    refused(post(client, code, "start", token=bob), 403)  # only the host starts
    assert [r["joinable"] for r in client.get("/api/rooms").json()["rooms"] if r["code"] == code] == [True]
    assert post(client, code, "start", token=ann).status_code == 200
    # still listed while under way, now to watch (not to join)
    listed = [r for r in client.get("/api/rooms").json()["rooms"] if r["code"] == code]
    assert [(r["joinable"], r["status"], r["round"]) for r in listed] == [(False, "playing", 0)]
    refused(client.post(f"/api/rooms/{code}/join", json={"name": "cy"}), 409)
    rules = Ruleset.from_options(preset("easier"))

    def attempts(st_ann):
        pending = st_ann["me"]["pending"]
        taken = [i for i, t in enumerate(st_ann["players"][0]["board"]) if t]
        bad = [dict(token=ann, cell=99), dict(token=ann, cell=-1), dict(token=ann, cell="3"),
               dict(token=ann, cell=0, tile="999"), dict(token=ann, cell=0, tile="5-7-4-1"),
               dict(token="not-a-token", cell=0), dict(token=ann, cell=True)]
        if taken:
            bad.append(dict(token=ann, cell=taken[0], tile=pending[0]))
        others = [t for t in ("159", "267", "348", "574") if t not in pending]
        bad.append(dict(token=ann, cell=st_ann["me"]["legal"][pending[0]][0], tile=others[0]))
        return bad

    rounds = 0
    while True:
        st_ann = state(client, code, ann)
        if st_ann["status"] != "playing":
            break
        before = (st_ann["version"], st_ann["players"][0]["board"])
        for body in attempts(st_ann):
            refused(post(client, code, "place", **body))
        refused(client.post(f"/api/rooms/{code}/place", content=b"{not json", headers={"content-type": "application/json"}), 400)
        refused(post(client, code, "next", token=ann), 409)
        after = state(client, code, ann)
        assert (after["version"], after["players"][0]["board"]) == before  # the room is intact
        for _ in st_ann["me"]["pending"]:
            st_ann = place_first_legal(client, code, ann, st_ann)
        if st_ann["status"] == "playing":
            # ann is done with this draw: placing again before the next draw is refused
            error = refused(post(client, code, "place", token=ann, cell=0), 400)
            assert "wait for the next draw" in error or "nothing to place" in error
        st_bob = state(client, code, bob)
        for _ in st_bob["me"]["pending"]:
            st_bob = place_first_legal(client, code, bob, st_bob)
        rounds += 1
    assert rounds == 10  # 9 draws of two tiles and the 19th alone
    final = state(client, code, ann)
    assert final["status"] == "finished"
    assert code not in [r["code"] for r in client.get("/api/rooms").json()["rooms"]]  # over: no longer listed
    for player in final["players"]:
        assert player["round_score"] == rules.score(board_of(player, rules))


def test_cheating_is_refused_and_secrets_stay_on_the_server(client):
    host = create(client, mode="room")
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    other = create(client, mode="room", name="eve")
    refused(post(client, other["code"], "start", token=ann), 403)  # a token of another room
    refused(post(client, code, "start", token=bob + "x"), 403)  # a forged token
    refused(post(client, code, "start", token=other["token"]), 403)
    assert post(client, code, "start", token=ann).status_code == 200
    room = client.app.state.master.get(code)
    deal = [t for t in room.game.deal]
    for _ in range(5):
        for token in (ann, bob):
            views = [client.get(f"/api/rooms/{code}", headers={"x-player-token": token}).json(),
                     client.get(f"/api/rooms/{code}").json()]  # an onlooker
            for view in views:
                text = json.dumps(view)
                assert '"seed"' not in text and '"deal"' not in text and "token" not in view["state"]
                drawn = set(view["state"]["drawn"])
                assert tile_strings(view, set()) <= drawn  # no tile that is still in the bag
            ann_view = views[0]["state"]["players"]
            other_seat = 1 if token == ann else 0
            assert "board" not in ann_view[other_seat]  # another player's board is hidden during the round
            assert "board" not in views[1]["state"]["players"][0]
        st = state(client, code, ann)
        st = place_first_legal(client, code, ann, st)
        refused(post(client, code, "place", token=ann, cell=0))  # placing twice before the next draw
        place_first_legal(client, code, bob, state(client, code, bob))
    # the server's deal is untouched by everything above
    assert room.game.deal == deal


def test_no_caller_boards_are_visible_and_players_announce(client):
    joined = create(client, mode="solo", preset="no-caller", agents=["random"])
    code, token = joined["code"], joined["token"]
    st = joined["state"]
    assert st["chooser"] == 0 and st["me"]["phase"] == "announce"
    refused(post(client, code, "place", token=token, cell=0), 400)
    refused(post(client, code, "announce", token=token, tile="12"))
    while st["status"] == "playing":
        if st["me"]["phase"] == "announce":
            r = post(client, code, "announce", token=token, tile=st["remaining"][-1])
            assert r.status_code == 200, r.text
        else:
            place_first_legal(client, code, token, st)
        st = after_ais(client, code, token)  # the AI places, and announces every other draw
        assert "board" in st["players"][1]  # rulebook 004: with no caller, players see each other's boards
    assert st["status"] == "finished" and len(st["drawn"]) == 19
    listed = client.get("/api/scores", params={"preset": "no-caller"}).json()["scores"]
    assert [(row["name"], row["score"]) for row in listed] == [("ann", st["players"][0]["round_score"])]


def test_a_rooms_state_is_never_worked_out_on_the_event_loop(client, monkeypatch):
    """A room's state scores its boards with compiled kernels.  Worked out on the event loop, its first call after a
    start waited there for numba's lock while the warm-up thread held it, and every request froze for seconds
    (minutes with a cold cache).  Every request and live update works it out in a worker thread."""
    import asyncio

    from takeiteasy.server.rooms import Room

    calls, on_loop = [], []
    real_state = Room.state

    def state_watched(self, viewer=None):
        try:
            asyncio.get_running_loop()
            on_loop.append(viewer)
        except RuntimeError:  # no running loop: a worker thread
            pass
        calls.append(viewer)
        return real_state(self, viewer)

    monkeypatch.setattr(Room, "state", state_watched)
    joined = create(client, mode="room", name="Ann")
    code, token = joined["code"], joined["token"]
    with client.websocket_connect(f"/api/rooms/{code}/ws?token={token}") as socket:
        assert socket.receive_json()["type"] == "state"
        bob = post(client, code, "join", name="Bob").json()["token"]
        assert socket.receive_json()["type"] == "state"
        st = post(client, code, "start", token=token).json()["state"]
        place_first_legal(client, code, token, st)
        state(client, code, bob)
    assert len(calls) >= 6 and on_loop == []


def test_rulebook_004_alone_with_no_caller_a_round_is_a_puzzle_and_no_best_score(client):
    """Rulebook 004 alone: the lone player announces every tile, so 307 is always there to lay (the rules refuse
    solitaire with no caller for that reason).  A solo room of one seat with no caller played, and its 307 went
    on the best-scores list beside rounds dealt at random."""
    from takeiteasy.solve import maximum

    best = maximum(Ruleset.from_options(Options(caller=False))).boards[0]
    joined = create(client, mode="solo", preset="no-caller", name="Puzzler")
    code, token, st = joined["code"], joined["token"], joined["state"]
    for cell, tile in enumerate(best.tolist()):
        assert post(client, code, "announce", token=token, tile=TOKENS[tile]).status_code == 200
        st = post(client, code, "place", token=token, cell=cell, tile=TOKENS[tile]).json()["state"]
    assert st["status"] == "finished" and st["players"][0]["score"] == 307
    assert client.get("/api/scores", params={"preset": "no-caller"}).json()["scores"] == []


def test_rulebook_004_two_people_with_no_caller_are_kept_off_the_best_scores(client):
    """Rulebook 004, no caller: the players announce the tiles in turn.  One person joining their own room a second
    time (or two friends agreeing) announced a 307 board's tiles between the two seats, and both 307s went on the
    best-scores list.  With no caller only a person among AI players, who choose their own tiles, is ranked (as in
    ``test_no_caller_boards_are_visible_and_players_announce``)."""
    from takeiteasy.solve import maximum

    best = maximum(Ruleset.from_options(Options(caller=False))).boards[0]
    joined = create(client, mode="room", preset="no-caller", name="Ann", public=False)
    code, tokens = joined["code"], [joined["token"]]
    tokens.append(post(client, code, "join", name="Ann2").json()["token"])
    assert post(client, code, "start", token=tokens[0]).status_code == 200
    for cell, tile in enumerate(best.tolist()):
        chooser = state(client, code, tokens[0])["chooser"]
        assert post(client, code, "announce", token=tokens[chooser], tile=TOKENS[tile]).status_code == 200
        for token in tokens:
            st = post(client, code, "place", token=token, cell=cell, tile=TOKENS[tile]).json()["state"]
    assert [p["round_score"] for p in st["players"]] == [307, 307]
    assert client.get("/api/scores", params={"preset": "no-caller"}).json()["scores"] == []


def test_rulebook_004_the_next_chooser_is_told_to_wait_until_everyone_has_placed(client):
    """Rulebook 004, no caller: the next tile is announced once every player has placed the last.  The next
    chooser, done placing before the others, used to be offered the tiles to announce, and got a refusal."""
    host = create(client, mode="room", preset="no-caller")
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    st = post(client, code, "start", token=ann).json()["state"]
    assert st["chooser"] == 0 and st["me"]["phase"] == "announce"
    st = post(client, code, "announce", token=ann, tile=st["remaining"][0]).json()["state"]
    bobs = place_first_legal(client, code, bob, state(client, code, bob))
    assert bobs["chooser"] == 1 and bobs["me"]["phase"] == "wait"  # ann still places
    assert "every player must place" in refused(post(client, code, "announce", token=bob, tile=bobs["remaining"][0]))
    place_first_legal(client, code, ann, state(client, code, ann))
    assert state(client, code, bob)["me"]["phase"] == "announce"


def test_draw_is_refused_when_there_is_nothing_to_draw_in_a_no_caller_confirm_game(client):
    """Rulebook 004: with no caller the next tile is announced, not drawn; a draw on the player's turn to
    announce used to answer 200 and do nothing."""
    joined = create(client, mode="solo", preset="no-caller", confirm=True)
    code, token, st = joined["code"], joined["token"], joined["state"]
    assert st["me"]["phase"] == "announce"
    assert "announce" in refused(post(client, code, "draw", token=token), 409)
    st = post(client, code, "announce", token=token, tile=st["remaining"][0]).json()["state"]
    st = place_first_legal(client, code, token, st)
    assert not st["awaiting_draw"] and st["me"]["phase"] == "announce" and st["me"]["movable"]
    assert "announce" in refused(post(client, code, "draw", token=token), 409)
    assert state(client, code, token)["version"] == st["version"]
    r = post(client, code, "announce", token=token, tile=st["remaining"][0])  # the announcement draws
    assert r.status_code == 200, r.text
    assert len(r.json()["state"]["drawn"]) == 2


def test_rounds_are_bounded_on_every_surface(client):
    """A match of 10**30 rounds was accepted: every option surface checks Options, so the bound is there."""
    from takeiteasy.core.rules import MAX_ROUNDS, RulesError

    assert Options(rounds=MAX_ROUNDS).validate().rounds == MAX_ROUNDS
    for rounds in (MAX_ROUNDS + 1, 10**30):
        with pytest.raises(RulesError, match=f"expected 1 to {MAX_ROUNDS}"):
            Options(rounds=rounds).validate()
        error = refused(client.post("/api/rooms", json={"name": "ann", "mode": "solo", "options": {"rounds": rounds}}))
        assert "rounds" in error
    assert create(client, mode="solo", options={"rounds": MAX_ROUNDS})["state"]["rounds"] == MAX_ROUNDS


def test_player_tokens_are_masked_in_the_server_logs():
    """The WebSocket URL carries ``?token=...`` and uvicorn logs request paths with their query: a token in a
    log lets whoever reads it play for that player."""
    import logging

    import uvicorn

    names = ("uvicorn", "uvicorn.access", "uvicorn.error")
    levels = {name: logging.getLogger(name).level for name in names}
    app = create_app(MemoryStore(), rate_limits=UNLIMITED)
    uvicorn.Config(app, log_level="info")  # as ``takeiteasy serve``: uvicorn configures its loggers after
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(record.getMessage())

    keep = Keep()
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addHandler(keep)
    try:
        logging.getLogger("uvicorn.error").info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000",
                                                "/api/rooms/ABC234/ws?token=s3cr3t-Tok_en")
        logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                                                 "/api/rooms/ABC234?since=3&token=s3cr3t-Tok_en", "1.1", 200)
        # a message with the URL in it and no arguments (uvicorn's access formatter wants five, so on .error)
        logging.getLogger("uvicorn.error").info("GET /api/rooms/ABC234?token=s3cr3t-Tok_en")
    finally:
        for name in names:
            logging.getLogger(name).removeHandler(keep)
            logging.getLogger(name).setLevel(levels[name])
    assert len(lines) == 3 and not any("s3cr3t" in line for line in lines), lines
    assert "/ws?token=***" in lines[0] and "?since=3&token=*** HTTP/1.1" in lines[1] and "?token=***" in lines[2]


def test_ai_players_only_in_games_of_one_or_two_tiles_at_a_time(client):
    """An AI weighs every order of the tiles in hand, on the server's event loop: with three at a time a best
    move took 40 s and with five even the fast agent took 30 s, while the whole server waited."""
    error = refused(client.post("/api/rooms", json={"name": "ann", "mode": "solo", "agents": ["random"],
                                                    "options": {"draw": 3}}))
    assert "at most 2 tiles at a time" in error
    assert client.get("/api/rooms").json()["rooms"] == []
    host = create(client, mode="room", options={"draw": 3})
    assert "at most 2" in refused(post(client, host["code"], "add", token=host["token"], agent="greedy"))
    assert len(state(client, host["code"])["players"]) == 1
    assert create(client, mode="solo", options={"draw": 2}, agents=["greedy"])["state"]["status"] == "playing"


def test_joining_and_leaving_a_lobby_again_and_again_is_limited(client):
    """A guest joining and giving up the seat over and over stored 3,000 events in 5 s: the joins a room takes
    are bounded (and so its removals).  Removing stays possible: a stranger's comings and goings must not stop
    the host taking a seat out.  The open-rooms list then no longer offers the room to join (it still said
    ``joinable``, to a refusal)."""
    from takeiteasy.server.rooms import MAX_PLAYERS, MAX_REMOVALS

    host = create(client, mode="room", public=True)
    listed = lambda: [r for r in client.get("/api/rooms").json()["rooms"] if r["code"] == code]  # noqa: E731
    code, ann = host["code"], host["token"]
    joined = 1  # the host
    while True:
        r = client.post(f"/api/rooms/{code}/join", json={"name": "gus"})
        if r.status_code != 201:
            break
        joined += 1
        guest = r.json()["token"]
        assert post(client, code, "remove", token=guest if joined % 2 else ann, player=1).status_code == 200
    assert joined == MAX_PLAYERS + MAX_REMOVALS
    assert f"has seen {joined} players join" in refused(r, 409)
    assert [r["joinable"] for r in listed()] == [False]  # listed still, to watch once it plays
    version = state(client, code)["version"]
    assert "has seen" in refused(post(client, code, "add", token=ann, agent="random"), 409)
    assert state(client, code)["version"] == version
    assert post(client, code, "start", token=ann).status_code == 200  # the room itself goes on


def call_every_tile(client, code: str, host: str) -> dict:
    """Start a caller room's round and call all its tiles (boards and scores are entered after the last)."""
    st = post(client, code, "start", token=host).json()["state"]
    while st["left"]:
        st = post(client, code, "call", token=host).json()["state"]
    return st


def test_moves_and_score_entries_are_limited_so_a_room_cannot_grow_without_end(client):
    """Every event is stored and replayed when the room is loaded: moving one tile back and forth (or entering a
    score again and again) grew a room without end (20 000 moves took 1.7 s to load, with the server waiting)."""
    from takeiteasy.server.rooms import MAX_REPEATS

    joined = create(client, mode="solo", confirm=True)
    code, token = joined["code"], joined["token"]
    place_first_legal(client, code, token, joined["state"])
    for k in range(MAX_REPEATS):
        assert post(client, code, "move", token=token, cell=1 + k % 2).status_code == 200
    version = state(client, code, token)["version"]
    assert "at most" in refused(post(client, code, "move", token=token, cell=5))
    assert state(client, code, token)["version"] == version
    st = post(client, code, "draw", token=token).json()["state"]  # a new draw: moving is allowed again
    st = place_first_legal(client, code, token, st)
    empty = [c for c, t in enumerate(st["players"][0]["board"]) if t is None]
    assert post(client, code, "move", token=token, cell=empty[0]).status_code == 200

    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    call_every_tile(client, code, ann)
    for k in range(MAX_REPEATS):
        assert post(client, code, "entry", token=ann, score=k).status_code == 200
        assert post(client, code, "entry", token=ann, player=1, score=k).status_code == 200
    assert "at most" in refused(post(client, code, "entry", token=ann, score=99), 409)
    assert "at most" in refused(post(client, code, "entry", token=ann, player=1, score=99), 409)
    assert state(client, code, ann)["entries"]["0"]["score"] == MAX_REPEATS - 1
    # the host's entries for bob do not use up bob's own (bob's final board must always go in)
    assert post(client, code, "entry", token=bob, score=7).status_code == 200
    assert [state(client, code, ann)["entries"][p]["score"] for p in "01"] == [MAX_REPEATS - 1, 7]


def test_a_daffodil_caller_room_says_every_called_tile_including_the_wildcards(client):
    """Rulebook 003: the caller room gives the words to call each tile; the wildcards go by name."""
    from takeiteasy.core.notation import call_words, parse_tile

    host = create(client, mode="caller", preset="daffodil")
    code, token = host["code"], host["token"]
    st = post(client, code, "start", token=token).json()["state"]
    said = list(st["call"])
    while st["left"]:
        st = post(client, code, "call", token=token).json()["state"]
        said += st["call"]
    assert said == [call_words(parse_tile(t)) for t in st["drawn"]] and len(said) == 21


def test_daffodil_holding_area_is_settled_at_the_end(client):
    joined = create(client, mode="solo", preset="daffodil-holding", agents=["greedy"])
    code, token, st = joined["code"], joined["token"], joined["state"]
    assert st["board_size"] == 24 and st["holding"] == [21, 22, 23]
    while st["me"]["phase"] == "place":
        st = place_then_wait_for_ais(client, code, token, st)
    assert st["me"]["phase"] == "settle"
    refused(post(client, code, "settle", token=token, releases=[{"tile": "***", "cell": 3}]))
    assert state(client, code, token)["me"]["phase"] == "settle"  # a refused settle changes nothing
    releases = [{"tile": t, "cell": cells[0]} for t, cells in st["me"]["release"].items() if cells][:1]
    r = post(client, code, "settle", token=token, releases=releases)
    assert r.status_code == 200, r.text
    assert r.json()["state"]["me"]["phase"] == "done"
    assert after_ais(client, code, token)["status"] == "finished"  # once the AI has settled too


def test_caller_room_calls_tiles_and_keeps_running_totals(client):
    host = create(client, mode="caller", preset="four-rounds")
    code, ann = host["code"], host["token"]
    refused(post(client, code, "add", token=ann, agent="greedy"))  # AI players are for screen games
    assert post(client, code, "add", token=ann, name="grandma").status_code == 201
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    refused(post(client, code, "call", token=ann), 409)  # not started
    assert post(client, code, "start", token=ann).status_code == 200
    refused(post(client, code, "call", token=bob), 403)
    for k in range(19):
        st = post(client, code, "call", token=ann).json()["state"]
        assert len(st["drawn"]) == k + 1 and st["current"] == st["drawn"][-1:]
    refused(post(client, code, "call", token=ann), 409)
    called = st["drawn"]
    rules = Ruleset.from_options(preset("four-rounds"))
    board = " ".join(called)
    expected = rules.score(parse_board(board))
    refused(post(client, code, "entry", token=bob, board=" ".join(["574"] + ["."] * 18))
            if "574" not in called else post(client, code, "entry", token=bob, board="1 2"))
    refused(post(client, code, "entry", token=bob, player=0, score=10), 403)  # only the host enters for others
    assert post(client, code, "entry", token=bob, board=board).json()["state"]["entries"]["2"]["score"] == expected
    refused(post(client, code, "entry", token=ann, player=1, score=-5))
    assert post(client, code, "entry", token=ann, player=1, score=120).status_code == 200
    st = post(client, code, "end-round", token=ann).json()["state"]
    assert st["status"] == "round_over" and st["results"] == [[0, 120, expected]]
    assert post(client, code, "next", token=ann).json()["state"]["drawn"] == []
    assert st["totals"] == [0, 120, expected]


def test_an_empty_board_to_score_is_called_empty(client):
    """The home page's "Score a board" with nothing typed got "wrong cell count: 0 tokens"; it is named empty, with
    what to give instead (the layout's cell count)."""
    for board in ("", "  \n "):
        assert refused(client.post("/api/score", json={"board": board})) == \
            "the board is empty: give the standard board's 19 cell tokens (. for an empty cell)"
    assert "daffodil board's 21 cell tokens" in refused(client.post("/api/score", json={"board": "",
                                                                                        "preset": "daffodil"}))
    assert refused(client.post("/api/score", json={"board": "574"})).startswith("wrong cell count: 1 token,")


def test_a_score_entry_of_the_wrong_type_says_what_is_wrong_in_the_projects_words(client):
    """Caller rooms: a fractional score typed in got Pydantic's "Input should be a valid integer"; the refusal now
    says where, what and why in one line, as the room's own refusals do, and the room is unchanged."""
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    call_every_tile(client, code, ann)
    before = state(client, code, ann)["version"]
    for score, why in ((12.5, "score: 12.5 is not a whole number"),
                       (12.0, "score: expected a whole number written without a decimal point, not 12.0"),
                       ("12", 'score: expected a whole number, not "12"'),
                       (True, "score: expected a whole number, not true")):
        assert refused(post(client, code, "entry", token=ann, score=score), 422) == why
    assert refused(post(client, code, "entry", token=ann, score=2001)) == "score: expected a whole number 0..2000"
    # the other fields of the API speak alike
    assert refused(post(client, code, "entry", token=ann, player="0", score=1), 422) == \
        'player: expected a whole number, not "0"'
    assert refused(client.post("/api/score", json={"board": 574}), 422) == \
        "board: expected text (a JSON string), not 574"
    assert refused(client.get(f"/api/rooms/{code}", params={"since": "1.5"}), 422) == \
        'query.since: expected a whole number, not "1.5"'
    st = state(client, code, ann)
    assert st["version"] == before and st["entries"] == {}
    assert post(client, code, "entry", token=ann, score=12).json()["state"]["entries"]["0"]["score"] == 12


def test_a_room_code_is_ascii_letters_and_digits(client):
    """str.upper made "ßabcd" the code "SSABCD" of another room; other scripts' letters and digits are refused."""
    made = create(client, mode="solo")["code"]
    for code in ("ß" + made[2:].lower(), "٣" + made[1:], made[:-1] + "Ⅻ"):
        assert refused(client.get(f"/api/rooms/{code}"), 404) == \
            "room code: expected letters A to Z and digits, like K7QX2M"
    assert client.get(f"/api/rooms/{made.lower()}").status_code == 200  # lower case is still the same room


def test_bad_input_gets_a_one_line_error(tmp_path):
    with TestClient(create_app(MemoryStore(), max_active_rooms=2, rate_limits=UNLIMITED)) as client:
        refused(client.get("/api/rooms/NOPE42"), 404)
        refused(client.get("/api/rooms/../../etc"), 404)
        refused(client.post("/api/rooms", json={"name": "x" * 25}))
        assert "at most 24" in refused(client.post("/api/rooms", json={"name": "x" * 97}), 400)  # was 422 from 97 on
        for blank in ("\u3164", "\u2800 \u2800"):  # they print as nothing
            assert "nothing visible" in refused(client.post("/api/rooms", json={"name": blank}), 400)
        assert refused(client.post("/api/rooms", json={"name": "ann", "agents": ["random"] * 6}), 422) == \
            "agents: at most 5 items"
        assert "JSON object" in refused(client.post("/api/rooms", content=b'{"name": "ann"}',
                                                    headers={"content-type": "text/plain"}))
        assert refused(client.get("/api/scores", params={"limit": 0}), 422).endswith("expected at least 1")
        assert len(refused(client.get("/api/layouts/" + "x" * 5000), 404)) < 200  # the name is not echoed whole
        assert client.head("/api/health").status_code == 200
        refused(client.post("/api/rooms", json={"name": ""}))
        refused(client.post("/api/rooms", json={"name": "a\u0007b"}))
        refused(client.post("/api/rooms", json={"name": "ann", "mode": "party"}), 422)
        refused(client.post("/api/rooms", json={"name": "ann", "preset": "nope"}))
        refused(client.post("/api/rooms", json={"name": "ann", "options": {"board": "/etc/passwd.json"}}))
        refused(client.post("/api/rooms", json={"name": "ann", "options": {"symbols": "/tmp/x.json"}}))
        refused(client.post("/api/rooms", json={"name": "ann", "options": {"draw": "two"}}))
        refused(client.post("/api/rooms", json={"name": "ann", "agents": ["deep-blue"]}))
        refused(client.post("/api/rooms", json={"name": "ann", "agents": ["random"] * 6}), 422)
        refused(client.post("/api/rooms", json=[1, 2]), 422)
        refused(client.post("/api/rooms", content=b"x" * 20000, headers={"content-type": "application/json"}), 413)
        refused(client.get("/api/layouts/..%2Fsecret"), 404)
        refused(client.post("/api/score", json={"board": "574"}))
        lone_surrogate = b'{"board": "574 \\ud800"}'  # JSON allows it, text has no such character
        assert refused(client.post("/api/score", content=lone_surrogate, headers={"content-type": "application/json"}),
                       422) == 'board: not Unicode text (it holds half of a surrogate pair, like "\\ud800")'
        create(client, mode="room")
        create(client, mode="room")
        assert client.post("/api/rooms", json={"name": "ann"}).status_code == 503  # room limit


def test_a_chunked_body_is_held_to_the_size_limit_too(client):
    """A body sent in chunks has no Content-Length; it is counted as it arrives and refused past 16 KiB."""
    def chunks(size):
        yield b'{"name": "ann", "preset": "'
        for _ in range(size // 1000):
            yield b"x" * 1000
        yield b'"}'

    error = refused(client.post("/api/rooms", content=chunks(20_000), headers={"content-type": "application/json"}),
                    413)
    assert "too large" in error
    assert client.get("/api/rooms").json()["rooms"] == []  # nothing was created
    small = client.post("/api/rooms", content=chunks(1000), headers={"content-type": "application/json"})
    assert "at most 64 characters" in refused(small, 422)  # a small chunked body reaches the app


def test_a_body_the_json_parser_cannot_take_is_refused_in_words_and_the_game_is_kept(client):
    """A number of more than 4,300 digits (Python's limit on int()), nesting deeper than the parser goes and text
    that is not UTF-8 were all answered "malformed body: expected a JSON object": the parser raised something other
    than a syntax error.  Each says what it is now, and the room is as it was."""
    joined = create(client, mode="solo")
    code, token = joined["code"], joined["token"]
    before = state(client, code, token)
    digits = sys.get_int_max_str_digits()
    bodies = {f'{{"token": "{token}", "cell": {"9" * (digits + 1)}}}'.encode():
                  f"body: a number in it has more than {digits:,} digits",
              f'{{"token": "{token}", "cell": -1{"0" * 5000}.5}}'.encode():  # a float is read, as infinity
                  "cell: -Infinity is not a whole number",
              b"[" * 5000 + b"]" * 5000: "body: nested too deeply to read",
              f'{{"token": "{token}", "cell": 0, "tile": "\xff"}}'.encode("latin-1"): "body: not UTF-8 text",
              f'{{"token": "{token}", "cell": 0,}}'.encode():  # the parser's place, as a file gets it
                  "body: not valid JSON (Expecting property name enclosed in double quotes: line 1 column 57 "
                  "(char 56))"}
    for body, error in bodies.items():
        answer = client.post(f"/api/rooms/{code}/place", content=body, headers={"content-type": "application/json"})
        assert refused(answer, 400 if error.startswith("body") else 422) == error
    assert state(client, code, token) == before


def test_a_body_with_a_key_given_twice_is_refused_as_a_file_is_and_changes_nothing(client):
    """The commands refuse a JSON file with a key given twice in one object (Python keeps the last, other readers
    the first: which one counts is a guess), while the server took such a body, the last one winning: a page or
    proxy that read '{"cell": 0, "cell": 5}' otherwise placed another tile than the server did.  A body is now read
    as a file is (core.layouts.read_json), refused with a 400 in the file's words, and nothing changes."""
    joined = create(client, mode="solo")
    code, token = joined["code"], joined["token"]
    before = state(client, code, token)
    cell = before["me"]["legal"][before["me"]["pending"][0]][0]
    twice = f'{{"token": "{token}", "cell": {cell}, "cell": {cell}}}'.encode()  # even alike: which one was meant?
    answer = client.post(f"/api/rooms/{code}/place", content=twice, headers={"content-type": "application/json"})
    assert refused(answer, 400) == 'body: key "cell" is given twice in one object'
    assert state(client, code, token) == before
    nested = b'{"name": "bob", "mode": "room", "public": true, "options": {"draw": 1, "draw": 2}}'
    answer = client.post("/api/rooms", content=nested, headers={"content-type": "application/json"})
    assert refused(answer, 400) == 'body: key "draw" is given twice in one object'
    answer = client.post("/api/rooms", content=b'{"name": "ann", "name": "bob", "mode": "room", "public": true}',
                         headers={"content-type": "application/json; charset=utf-8"})
    assert refused(answer, 400) == 'body: key "name" is given twice in one object'
    assert client.get("/api/rooms").json()["rooms"] == [] and state(client, code, token) == before
    placed = client.post(f"/api/rooms/{code}/place", content=f'{{"token": "{token}", "cell": {cell}}}'.encode(),
                         headers={"content-type": "application/json"})
    assert placed.status_code == 200, placed.text  # a body with each key once is read as before


@pytest.mark.parametrize("body", [b'{"name": ' + b"9" * 5000 + b"}", b"[" * 5000 + b"]" * 5000, b'{"name": "\xff"}',
                                  b'{"name": "ann",}', b'[{"name": "ann", "name": "bob"}]'],
                         ids=["long-number", "deep", "not-utf8", "syntax", "key-twice"])
def test_a_body_is_refused_in_the_words_a_file_gets(client, tmp_path, body):
    """The server refused a number of 4,301 digits in a body saying "4,300 digits", the commands the same number in
    a file saying "4300 digits"; the words of each failure of the JSON parser are now core.layouts.json_failure's,
    the body named as a file names itself."""
    from takeiteasy.core.layouts import LayoutError, layout

    answer = refused(client.post("/api/rooms", content=body, headers={"content-type": "application/json"}), 400)
    path = tmp_path / "board.json"
    path.write_bytes(body)
    with pytest.raises(LayoutError) as read:
        layout(path)
    assert answer.startswith("body: ") and str(read.value).startswith(f"board file {path}: ")
    assert answer.removeprefix("body: ") == str(read.value).removeprefix(f"board file {path}: ")


def test_reference_endpoints(client):
    assert client.get("/api/health").json()["ok"] is True
    names = [p["name"] for p in client.get("/api/presets").json()["presets"]]
    assert "standard" in names and "daffodil-holding" in names
    agents = client.get("/api/agents").json()  # every agent, each with a word for players choosing an opponent
    assert {"random", "best"} <= set(agents["agents"]) and all(agents["about"][a] for a in agents["agents"])
    layout = client.get("/api/layouts/standard").json()
    assert len(layout["cells"]) == 19 and len(layout["lines"]) == 15
    for cell in layout["cells"]:
        assert cell["x"] == pytest.approx(1.5 * cell["q"])
        assert cell["y"] == pytest.approx(3 ** 0.5 * (cell["r"] + cell["q"] / 2), abs=1e-5)
    scored = client.post("/api/score", json={"board": " ".join(["574"] + ["."] * 18)}).json()
    assert scored["score"] == 0 and len(scored["lines"]) == 15
    assert "Take It Easy" in client.get("/").text
    # the sun or moon of every tile (wildcards too), as the engine scores and places them, for the page to draw
    from takeiteasy.core.tiles import SYMBOLS
    tiles = client.get("/api/tiles").json()
    assert tiles["symbol_of"] == {token: ("sun", "moon")[int(SYMBOLS[t])] for t, token in enumerate(TOKENS)}
    assert len(tiles["symbol_of"]) == 31 and tiles["symbol_of"]["***"] == "sun"
    # what the page calls a tile: as a caller says it (rulebook 003 names the wildcards)
    assert tiles["names"]["964"] == "9-6-4" and tiles["names"]["***"] == "triple wildcard"
    assert tiles["names"]["*2*"] == "double wildcard with 2" and len(tiles["names"]) == 31


def test_rulebook_000_sun_moon_rooms_send_the_symbols_and_what_the_rule_asks_of_each_tile(client):
    """Rulebook 000, sun/moon placement: the page shows each tile's symbol and why cells are refused; both
    come from the engine in the room's state (symbols only where the rules look at them)."""
    joined = create(client, mode="solo", preset="sunmoon")
    code, token, st = joined["code"], joined["token"], joined["state"]
    from takeiteasy.core.tiles import TOKENS

    rules = Ruleset.from_options(Options(placement="sunmoon"))
    assert st["symbols"] == {TOKENS[t]: name for t, name in rules.symbol_names().items()}
    assert st["me"]["guidance"] == {t: "the first tile: any empty cell" for t in st["me"]["pending"]}
    st = place_first_legal(client, code, token, st)
    tile, previous = parse_tile(st["me"]["pending"][0]), st["me"]["previous"]
    assert st["me"]["guidance"][TOKENS[tile]] == rules.guidance(tile, parse_tile(previous["tile"]), previous["cell"])
    plain = create(client, mode="solo")["state"]
    assert "symbols" not in plain and set(plain["me"]["guidance"].values()) == {""}


def test_hint_endpoint_ranks_cells_like_the_hint_function(client):
    from takeiteasy.ai import hint
    from takeiteasy.core import parse_board, parse_tile

    text = "928 978 968 123 178 164 124 523 . 568 573 528 973 563 . 923 163 174 128"
    answer = client.post("/api/hint", json={"board": text, "tile": "5-7-4", "agent": "fast"}).json()
    rules = Ruleset.from_options()
    expected = [h.to_json() for h in hint(rules, parse_board(text), parse_tile("574"), agent="fast")]
    assert answer["tile"] == "574" and answer["hints"] == expected and {h["cell"] for h in expected} == {8, 14}
    refused(client.post("/api/hint", json={"board": text, "tile": "5x4"}))
    refused(client.post("/api/hint", json={"board": text, "tile": "928"}))
    refused(client.post("/api/hint", json={"board": text, "tile": "574", "agent": "oracle"}))


def test_announce_hint_ranks_the_tiles_like_the_function(client):
    """Rulebook 004, no caller: {"announce": true} ranks the tiles the player may announce."""
    from takeiteasy.ai import announce_hints
    from takeiteasy.core import parse_board

    text = ". . . . . . . . . 574 . . . . . . . . ."
    answer = client.post("/api/hint", json={"board": text, "announce": True, "agent": "fast"}).json()
    rules = Ruleset.from_options(Options(caller=False))
    assert answer["announce"] is True
    assert answer["hints"] == [h.to_json() for h in announce_hints(rules, parse_board(text), agent="fast")]
    assert "tile: missing" in refused(client.post("/api/hint", json={"board": text}))
    other = "574 . . . . . . . . . . . . . . . . . ."
    against = client.post("/api/hint", json={"board": text, "announce": True, "agent": "fast", "others": [other],
                                             "previous_tile": "574", "previous_cell": 9}).json()
    assert against["hints"] == [h.to_json() for h in announce_hints(
        rules, parse_board(text), None, parse_tile("574"), 9, agent="fast", others=[parse_board(other)])]
    assert "other board 1" in refused(client.post("/api/hint", json={"board": text, "announce": True,
                                                                    "others": [". . ."]}))
    assert "for \"announce\"" in refused(client.post("/api/hint", json={"board": text, "tile": "123",
                                                                       "others": [other]}))
    refused(client.post("/api/hint", json={"board": text, "announce": True, "tile": "123"}))
    refused(client.post("/api/hint", json={"board": text, "announce": "yes"}))
    refused(client.post("/api/hint", json={"board": text, "announce": True, "previous_cell": 40,
                                            "options": {"placement": "sunmoon", "sunmoon_touch": "previous"}}))


def test_hint_refuses_a_previous_cell_that_does_not_hold_the_previous_tile(client):
    """The previous tile and cell steer the sun/moon placement: a cell holding another tile (or none) is
    refused by the hint function itself, so the API's tile and announce paths and the CLI all refuse it."""
    text = ". . . . . . . . . 574 . . . . . . . . ."
    sunmoon = {"placement": "sunmoon", "sunmoon_touch": "previous"}
    base = {"board": text, "agent": "fast", "options": sunmoon}
    assert client.post("/api/hint", json={**base, "tile": "123", "previous_tile": "574",
                                          "previous_cell": 9}).status_code == 200
    for previous in ({"previous_tile": "963", "previous_cell": 9}, {"previous_tile": "574", "previous_cell": 3},
                     {"previous_cell": 9}):
        assert "previous" in refused(client.post("/api/hint", json={**base, "tile": "123", **previous}), 400)
        assert "previous" in refused(client.post("/api/hint", json={**base, "announce": True, **previous}), 400)


def test_hint_with_a_second_tile_in_hand(client):
    """Rulebook 001, two tiles at a time: the other drawn tile is certain to come, so with two empty cells
    the hints are the exact final scores."""
    text = "928 978 968 123 178 164 124 523 . 568 573 528 973 563 . 923 163 174 128"
    body = {"board": text, "tile": "574", "in_hand": ["9-7-4"], "agent": "fast", "options": {"draw": 2}}
    answer = client.post("/api/hint", json=body).json()
    rules = Ruleset.from_options()
    board = parse_board(text)
    exact = {}
    for cell, rest in ((8, 14), (14, 8)):
        full = board.copy()
        full[cell], full[rest] = parse_tile("574"), parse_tile("974")
        exact[cell] = rules.score(full)
    assert answer["in_hand"] == ["974"]
    assert {h["cell"]: h["expected"] for h in answer["hints"]} == exact
    assert "different" in refused(client.post("/api/hint", json={**body, "in_hand": ["574"]}))
    assert "already on the board" in refused(client.post("/api/hint", json={**body, "in_hand": ["928"]}))
    refused(client.post("/api/hint", json={**body, "in_hand": ["9x4"]}))
    refused(client.post("/api/hint", json={**body, "in_hand": "974"}), 422)


def test_hint_follows_at_most_one_other_tile_in_hand(client):
    """The search follows every order of the tiles in hand: with an empty board and the best agent, two other
    tiles took 10 s of the server's time and four over 15 minutes, so a hint takes at most one (the two-tile
    draw)."""
    body = {"board": " ".join(["."] * 19), "tile": "574", "agent": "fast", "options": {"draw": 3}}
    assert client.post("/api/hint", json={**body, "in_hand": ["123"]}).status_code == 200
    assert "at most 1" in refused(client.post("/api/hint", json={**body, "in_hand": ["123", "974"]}), 422)


def test_a_storage_failure_loses_nothing():
    class FlakyStore(MemoryStore):
        fail = False

        def append(self, *args, **kwargs):
            if self.fail:
                raise StoreError("disk full")
            return super().append(*args, **kwargs)

    store = FlakyStore()
    with TestClient(create_app(store, rate_limits=UNLIMITED)) as client:
        joined = create(client, mode="solo")
        code, token, st = joined["code"], joined["token"], joined["state"]
        st = place_first_legal(client, code, token, st)
        store.fail = True
        tile = st["me"]["pending"][0]
        r = post(client, code, "place", token=token, cell=st["me"]["legal"][tile][0])
        assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
        store.fail = False
        again = state(client, code, token)
        assert again["version"] == st["version"] and again["players"][0]["board"] == st["players"][0]["board"]
        place_first_legal(client, code, token, again)


def test_a_storage_failure_while_reading_is_a_503_saying_so():
    """A store that cannot read (a database connection lost, say) used to surface as a 500 'server bug'."""
    class UnreadableStore(MemoryStore):
        fail = False

        def _check(self):
            if self.fail:
                raise StoreError("database connection lost")

        def load(self, code):
            self._check()
            return super().load(code)

        def listed(self, limit, since=0.0):
            self._check()
            return super().listed(limit, since)

        def count(self, statuses, since=0.0, quiet_since=0.0):
            self._check()
            return super().count(statuses, since, quiet_since)

    store = UnreadableStore()
    with TestClient(create_app(store, rooms_in_memory=1, rate_limits=UNLIMITED)) as client:
        first = create(client, mode="room")
        create(client, mode="room")  # the first room leaves memory: reading it needs the store
        store.fail = True
        for r in (client.get("/api/rooms"), client.post("/api/rooms", json={"mode": "solo", "name": "bo"}),
                  client.get(f"/api/rooms/{first['code']}", headers={"x-player-token": first["token"]})):
            assert r.status_code == 503 and r.json()["error"] == "storage failed (database connection lost)"
        store.fail = False
        assert state(client, first["code"], first["token"]) == first["state"]
        assert client.get("/api/rooms").status_code == 200


def test_serve_command_refuses_a_bad_port(capsys):
    from takeiteasy.cli import main

    assert main(["serve", "--port", "70000", "--db", "/nonexistent-dir-takeiteasy/x.db"]) == 2
    assert "--port 70000" in capsys.readouterr().err


def test_hint_request_carries_only_what_a_player_sees_and_no_room(client):
    """A hint cannot read a room's secret deal: it takes no room code or token, only a board, a tile, the
    player's own previous placement (and, to announce, the other boards on the table, which every player sees),
    and its answer is the hint function's on exactly that."""
    from takeiteasy.ai import hint
    from takeiteasy.core import parse_tile
    from takeiteasy.server.protocol import HintRequest

    assert set(HintRequest.model_fields) == {"board", "tile", "announce", "previous_tile", "previous_cell", "preset",
                                             "options", "agent", "in_hand", "others"}
    joined = create(client, mode="room", preset="sunmoon")
    code, token = joined["code"], joined["token"]
    friend = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()
    assert post(client, code, "start", token=token).status_code == 200
    st = place_first_legal(client, code, token, state(client, code, token))
    assert post(client, code, "place", token=friend["token"], cell=9).status_code == 200
    st = state(client, code, token)
    me = st["me"]
    assert me["previous"] == {"tile": st["players"][0]["board"][me["previous"]["cell"]], "cell": me["previous"]["cell"]}
    board_text = " ".join(t or "." for t in st["players"][0]["board"])
    tile = me["pending"][0]
    body = {"board": board_text, "tile": tile, "options": st["options"], "agent": "fast",
            "previous_tile": me["previous"]["tile"], "previous_cell": me["previous"]["cell"]}
    for extra in ({"code": code}, {"token": token}, {"remaining": "123"}):
        assert refused(client.post("/api/hint", json={**body, **extra}), 422).endswith("unknown field")
    answer = client.post("/api/hint", json=body).json()
    rules = Ruleset.from_options(Options.from_json(st["options"]))
    expected = hint(rules, parse_board(board_text), parse_tile(tile), None, parse_tile(me["previous"]["tile"]),
                    me["previous"]["cell"], agent="fast")
    assert answer["hints"] == [h.to_json() for h in expected]
    assert sorted(h["cell"] for h in answer["hints"]) == me["legal"][tile]
    refused(client.post("/api/hint", json={**body, "previous_cell": 19}))


def test_announce_hint_with_only_the_holding_area_left(client):
    """Daffodil rulebook, holding area, no caller: with every coloured cell full, a wildcard can only go in the
    holding area, where it never scores.  The announce ranking failed there with a 500 (the wildcard's hint was
    empty); every tile is ranked, the wildcards last."""
    board = "123 124 128 . 163 164 168 173 174 178 523 524 . 528 563 . 564 568 573 574 578 . . ."
    r = client.post("/api/hint", json={"board": board, "preset": "daffodil-holding", "announce": True,
                                       "options": {"caller": False}, "agent": "fast"})
    assert r.status_code == 200, r.text
    ranked = [h["tile"] for h in r.json()["hints"]]
    wildcards = {"***", "1**", "*2*", "**3"}
    assert wildcards <= set(ranked) and set(ranked[-len(wildcards):]) == wildcards


def test_an_ai_named_like_the_player_gets_a_name_of_its_own(client):
    joined = create(client, mode="solo", name="random 1", agents=["random"])
    assert [p["name"] for p in joined["state"]["players"]] == ["random 1", "random 1a"]


def test_a_name_in_full_width_letters_is_the_name_already_taken(client):
    """"ＢＯＢ" (full-width letters) reads as "Bob": one name in a room, as "BOB" is."""
    code = create(client, mode="room", name="Bob")["code"]
    for twin in ("BOB", "\uff22\uff2f\uff22", "\uff42ob"):
        assert "is taken" in refused(post(client, code, "join", name=twin), 409)
    assert post(client, code, "join", name="Bobby").status_code == 201


def test_a_look_alike_of_a_name_taken_is_the_same_name_and_names_must_show_something(client):
    """"Alice" with an invisible variation selector, or with a Cyrillic А, looked like Alice and was let in beside
    her (and could be let an AI play for in her place); a name of accents alone showed nothing; a family emoji
    (people joined by zero-width joiners) was refused as a control character."""
    code = create(client, mode="room", name="Alice")["code"]
    for twin in ("Alice\ufe0f", "\u0410lice", "A\u0301lice", "ALİCE"):
        assert "is taken" in refused(post(client, code, "join", name=twin), 409), twin
    assert "nothing visible" in refused(post(client, code, "join", name="\u0301\u0301\u0301"), 400)
    assert "does not print" in refused(post(client, code, "join", name="a\u200db"), 400)  # a joiner between letters
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    joined = post(client, code, "join", name=family)
    assert joined.status_code == 201 and joined.json()["state"]["players"][1]["name"] == family
    assert post(client, code, "join", name="\u0301bob").status_code == 201  # a mark on nothing: was a 500
    assert post(client, code, "join", name="Алиса").status_code == 201  # a Cyrillic name is a name
    for name, other in (("カク", "ガク"), ("राम", "रमा")):  # in other scripts a mark makes another name
        assert post(client, code, "join", name=name).status_code == 201
        assert post(client, code, "join", name=other).status_code == 201


def test_a_name_with_a_blank_letter_or_a_grapheme_joiner_is_the_name_without_it(client):
    """Hangul fillers, the half-width filler and the braille blank print as nothing (a name of them alone is
    refused), and the combining grapheme joiner joins nothing visibly: "\u3164Bob" sat beside "Bob"."""
    code = create(client, mode="room", name="Bob")["code"]
    for twin in ("\u3164Bob", "Bob\u3164", "\u034fBob", "Bob\u2800", "Bob\uffa0", "Bob\u1160", "\u115fBob", "Bo\u3164b"):
        assert "is taken" in refused(post(client, code, "join", name=twin), 409), repr(twin)


def test_hint_board_may_carry_the_holding_slots(client):
    """Daffodil rulebook, holding area: a tile in a holding slot is on the board (and cannot be the tile in hand)."""
    options = preset("daffodil-holding").to_json()
    held = " ".join(["."] * 21 + ["574", ".", "."])
    answer = client.post("/api/hint", json={"board": held, "tile": "123", "options": options, "agent": "fast"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["board"].split()[21] == "574"
    assert "already on the board" in refused(client.post("/api/hint", json={"board": held, "tile": "574",
                                                                               "options": options}))
    twice = " ".join(["574"] + ["."] * 20 + ["574", ".", "."])
    assert "twice" in refused(client.post("/api/hint", json={"board": twice, "tile": "123", "options": options}))


# -- AI players move in the background, after the answer ------------------------------------------------------


class SlowAI:
    """AI players that, once ``on``, wait before each move until ``release`` is set: a search that takes long."""

    def __init__(self):
        self.on = False
        self.thinking = threading.Event()  # set once an AI is waiting inside its move
        self.release = threading.Event()
        self.inside = 0  # AIs waiting inside their moves right now
        self.together = threading.Event()  # set once two AIs were inside their moves at once
        self.lock = threading.Lock()


def before_each_ai_move(monkeypatch, hook):
    """Every AI player calls ``hook()`` before each of its moves: to wait (a long search) or to fail."""
    from takeiteasy.server import rooms

    real_agent = rooms.Room._agent

    class Hooked:
        def __init__(self, agent):
            self.agent = agent

        def choose(self, view):
            hook()
            return self.agent.choose(view)

    monkeypatch.setattr(rooms.Room, "_agent", lambda room, seat: Hooked(real_agent(room, seat)))


@contextlib.contextmanager
def solo_room_with_a_failing_ai(monkeypatch, caplog, hook, store):
    """A server over ``store`` with a solo room against one AI that calls ``hook()`` (which may raise) before
    each move, the server's errors captured; yields the client and the room as created."""
    before_each_ai_move(monkeypatch, hook)
    caplog.set_level("ERROR", logger="takeiteasy.server")
    with TestClient(create_app(store, rate_limits=UNLIMITED)) as client:
        yield client, create(client, mode="solo", agents=["greedy"])


@pytest.fixture
def slow_ai(monkeypatch):
    slow = SlowAI()

    def think_long():
        if slow.on:
            with slow.lock:
                slow.inside += 1
                if slow.inside >= 2:
                    slow.together.set()
            slow.thinking.set()
            slow.release.wait(60)
            with slow.lock:
                slow.inside -= 1

    before_each_ai_move(monkeypatch, think_long)
    yield slow
    slow.release.set()  # never leave a worker thread waiting


def next_state(socket, seconds=60.0):
    """The next state the server sends over ``socket``.  Read in a thread so that a server that never sends
    fails the test instead of hanging it (the bound is not a speed check)."""
    got = []
    reader = threading.Thread(target=lambda: got.append(socket.receive_json()), daemon=True)
    reader.start()
    reader.join(seconds)
    assert got, "no update came over the WebSocket"
    assert got[0]["type"] == "state", got[0]
    return got[0]["state"]


def test_the_answer_comes_before_the_ai_moves_and_everyone_sees_the_ai_move_live(client, slow_ai):
    """AI players move in a background job after the person's action is answered: with an AI that waits to be
    told, the creation and the person's move are answered, this room and other rooms are read and played, all
    while the AI is still thinking; its move then reaches every WebSocket listener."""
    other = create(client, mode="solo")
    slow_ai.on = True
    joined = create(client, mode="solo", agents=["greedy"])  # answered while the AI thinks about its first move
    code, token, st = joined["code"], joined["token"], joined["state"]
    assert slow_ai.thinking.wait(60)  # the background job is running: the AI is inside its move
    assert st["players"][1]["waiting"] and st["players"][1]["placed"] == 0
    with client.websocket_connect(f"/api/rooms/{code}/ws?token={token}") as mine, \
            client.websocket_connect(f"/api/rooms/{code}/ws") as onlooker:
        assert next_state(mine)["players"][1]["placed"] == 0 and next_state(onlooker)["players"][1]["placed"] == 0
        st = place_first_legal(client, code, token, st)
        assert [p["placed"] for p in st["players"]] == [1, 0] and st["players"][1]["waiting"]
        assert st["me"]["phase"] == "wait" and len(st["drawn"]) == 1
        for socket in (mine, onlooker):  # the person's move, sent to everyone at once
            assert [p["placed"] for p in next_state(socket)["players"]] == [1, 0]
        assert state(client, code, token)["version"] == st["version"]  # the room is read meanwhile
        moved = place_first_legal(client, other["code"], other["token"], other["state"])  # and other rooms play
        assert moved["players"][0]["placed"] == 1
        assert not slow_ai.release.is_set()  # all of that while the AI was still thinking
        slow_ai.release.set()
        for socket in (mine, onlooker):  # then the AI's move, and the next draw it made possible
            update = next_state(socket)
            assert [p["placed"] for p in update["players"]] == [1, 1] and len(update["drawn"]) == 2
            assert update["version"] > st["version"]
        assert next_state(mine)["me"]["phase"] == "place"


def test_the_ai_players_of_a_room_think_about_a_tile_at_the_same_time(client, slow_ai):
    """Players place each tile at the same time, so a room's AI seats think side by side (in worker threads;
    the search kernels release the GIL): both AIs are inside their first moves before either is let go, and
    each move then reaches the room."""
    slow_ai.on = True
    joined = create(client, mode="solo", agents=["greedy", "greedy"])
    code, token, st = joined["code"], joined["token"], joined["state"]
    assert slow_ai.together.wait(60), "the second AI waited for the first"
    slow_ai.release.set()
    st = place_then_wait_for_ais(client, code, token, st)
    assert [p["placed"] for p in st["players"]] == [1, 2, 2] and len(st["drawn"]) == 2  # the AIs are on tile 2


def test_a_person_acting_while_an_ai_thinks_gets_a_sensible_answer(client, slow_ai):
    """Players place at the same time: a person's own moves are taken while an AI thinks; drawing the next tile
    must wait for the AI, and says so; the game stays whole."""
    slow_ai.on = True
    joined = create(client, mode="solo", agents=["greedy"], confirm=True)
    code, token, st = joined["code"], joined["token"], joined["state"]
    assert slow_ai.thinking.wait(60)
    st = place_first_legal(client, code, token, st)
    empty = [c for c, t in enumerate(st["players"][0]["board"]) if t is None]
    r = post(client, code, "move", token=token, cell=empty[-1])  # rulebook 001: still movable before the draw
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    assert "waiting for greedy 1" in refused(post(client, code, "draw", token=token), 409)
    assert state(client, code, token)["version"] == st["version"]  # the refusal changed nothing
    assert not slow_ai.release.is_set()
    slow_ai.release.set()
    st = after_ais(client, code, token)
    assert st["awaiting_draw"] and st["players"][0]["board"][empty[-1]] is not None
    assert [p["placed"] for p in st["players"]] == [1, 1]
    st = post(client, code, "draw", token=token).json()["state"]
    assert len(st["drawn"]) == 2 and st["me"]["phase"] == "place"


def test_an_ai_move_owed_when_the_server_stopped_is_made_when_the_room_is_next_used(tmp_path, slow_ai):
    db = tmp_path / "rooms.db"
    slow_ai.on = True
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as first:
        joined = create(first, mode="solo", agents=["greedy"])
        code, token = joined["code"], joined["token"]
        place_first_legal(first, code, token, joined["state"])
        assert slow_ai.thinking.wait(60)
        stored = state(first, code, token)["version"]
    # the server stopped while the AI was thinking: its move was never stored
    slow_ai.on = False
    slow_ai.release.set()
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as second:
        st = state(second, code, token)  # using the room gets its AI moving again
        assert st["version"] == stored and [p["placed"] for p in st["players"]] == [1, 0]
        st = after_ais(second, code, token)  # the owed move, the next draw, and the AI's move on it
        assert [p["placed"] for p in st["players"]] == [1, 2] and st["me"]["phase"] == "place"
        while st["status"] == "playing":
            st = place_then_wait_for_ais(second, code, token, st)
        assert st["status"] == "finished" and [p["placed"] for p in st["players"]] == [19, 19]


def test_a_failed_ai_move_is_tried_again_by_itself_while_the_person_waits(monkeypatch, caplog):
    """A person waiting on a live connection sends no requests: after a failure the AI job starts again by
    itself a little later, and the AI's move then reaches the waiting page."""
    from takeiteasy.server import app as server_app

    monkeypatch.setattr(server_app, "AI_RETRY_SECONDS", 0.05)
    release, failed = threading.Event(), []

    def fail_once():
        if not failed:
            release.wait(60)  # until the page is listening
            failed.append(True)
            raise RuntimeError("the agent crashed")

    with solo_room_with_a_failing_ai(monkeypatch, caplog, fail_once, MemoryStore()) as (client, joined):
        code, token = joined["code"], joined["token"]
        with client.websocket_connect(f"/api/rooms/{code}/ws?token={token}") as socket:
            assert next_state(socket)["players"][1]["placed"] == 0
            release.set()  # the AI fails now, with nobody sending a request
            assert [p["placed"] for p in next_state(socket)["players"]] == [0, 1]
    assert failed and any("AI player's move failed" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("failure", ["agent", "store"])
def test_a_failed_ai_move_is_logged_and_tried_again_on_the_next_request(failure, monkeypatch, caplog):
    """An agent's exception or a storage failure in the background must not lose the game or stop the server:
    it is logged, the room stays as stored, and the next request on the room tries again."""
    broken = {"on": True}

    class FlakyStore(MemoryStore):
        def append(self, *args, **kwargs):
            if failure == "store" and broken["on"]:
                raise StoreError("disk full")
            return super().append(*args, **kwargs)

    def crash_while_broken():
        if failure == "agent" and broken["on"]:
            raise RuntimeError("the agent crashed")

    with solo_room_with_a_failing_ai(monkeypatch, caplog, crash_while_broken, FlakyStore()) as (client, joined):
        code, token = joined["code"], joined["token"]
        deadline = time.monotonic() + 60
        while not any("AI player's move failed" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "the failure was not logged"
            time.sleep(0.01)
        st = state(client, code, token)  # the server goes on, with the room as stored
        assert st["version"] == joined["state"]["version"] and st["players"][1]["placed"] == 0
        broken["on"] = False
        st = after_ais(client, code, token)  # each request on the room tries again
        assert [p["placed"] for p in st["players"]] == [0, 1]
        st = place_then_wait_for_ais(client, code, token, st)
        assert [p["placed"] for p in st["players"]] == [1, 2]


def awaiting_an_ai_announcement(client):
    """A solo room with confirm and no caller, the player's first tile announced and placed: the next draw waits
    for the player to ask, and then for the AI (the chooser) to announce it.  Returns (code, token, state)."""
    joined = create(client, mode="solo", preset="no-caller", agents=["greedy"], confirm=True)
    code, token, st = joined["code"], joined["token"], joined["state"]
    st = post(client, code, "announce", token=token, tile=st["remaining"][0]).json()["state"]
    place_first_legal(client, code, token, st)
    st = after_ais(client, code, token)
    assert st["awaiting_draw"] and st["chooser"] == 1 and len(st["drawn"]) == 1
    return code, token, st


def test_a_draw_asked_for_comes_even_if_the_room_left_memory_while_the_ai_announced(monkeypatch):
    """No caller, confirm: the player asks for the next draw and an AI announces it in the background.  If the
    room is dropped from memory (too many rooms) while the AI thinks, the announcement must still be made: the
    player was answered that the draw is coming, and a page polling ``since`` that version, or listening, would
    otherwise wait for ever."""
    from takeiteasy.server import rooms

    thinking, release, hold = threading.Event(), threading.Event(), {"on": False}
    real_think = rooms.AITurn.think

    def think(turn):
        if turn.what == "draw" and hold["on"]:
            thinking.set()
            release.wait(60)
        return real_think(turn)

    monkeypatch.setattr(rooms.AITurn, "think", think)
    try:
        with TestClient(create_app(MemoryStore(), rate_limits=UNLIMITED, rooms_in_memory=1)) as client:
            code, token, st = awaiting_an_ai_announcement(client)
            hold["on"] = True
            with client.websocket_connect(f"/api/rooms/{code}/ws?token={token}") as mine:
                assert next_state(mine)["version"] == st["version"]
                r = post(client, code, "draw", token=token)
                assert r.status_code == 200, r.text
                assert not r.json()["state"]["awaiting_draw"]  # the page waits for the AI's announcement
                assert next_state(mine)["version"] == st["version"] + 1  # the request, stored and sent
                assert thinking.wait(60)
                create(client, mode="solo")  # memory holds one room: this one is dropped, rebuilt when next used
                release.set()
                update = next_state(mine)
                assert len(update["drawn"]) == 2 and update["version"] > st["version"]
            assert len(after_ais(client, code, token)["drawn"]) == 2
    finally:
        release.set()


def test_a_draw_asked_for_comes_after_a_server_restart(tmp_path, monkeypatch):
    """No caller, confirm: the player asks for the next draw, and the server stops before its AI announces it.
    The request is stored, so the next server announces the tile without the player asking again."""
    from takeiteasy.server import rooms

    stop_thinking = {"on": True}
    real_think = rooms.AITurn.think

    def think(turn):
        if turn.what == "draw" and stop_thinking["on"]:
            raise RuntimeError("the server went down")  # its announcement is never made
        return real_think(turn)

    monkeypatch.setattr(rooms.AITurn, "think", think)
    path = tmp_path / "rooms.db"
    # the next server (another name) waits for the first one's AI lease to run out: 2 s, not the default 30 s
    lease = 2.0
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED, ai_lease_seconds=lease)) as client:
        code, token, st = awaiting_an_ai_announcement(client)
        r = post(client, code, "draw", token=token)
        assert r.status_code == 200, r.text
        assert not r.json()["state"]["awaiting_draw"] and len(r.json()["state"]["drawn"]) == 1
    stop_thinking["on"] = False
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED, ai_lease_seconds=lease)) as client:
        st = after_ais(client, code, token)
        assert not st["awaiting_draw"] and len(st["drawn"]) == 2 and st["me"]["phase"] == "place"


def test_a_server_started_again_under_its_name_takes_back_its_ai_leases_at_once(tmp_path):
    """A server killed while holding a room's AI lease (30 s) held the room up until the lease ran out, even for
    itself started again: `serve` now names the server by host and port, and the same name owns the lease."""
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED, ai_owner="host:8000")) as client:
        joined = create(client, mode="solo", agents=["greedy"])
        code, token = joined["code"], joined["token"]
        st = after_ais(client, code, token)
    assert SQLiteStore(path).claim_ai(code, "host:8000", 600)  # as a crash would leave it, for ten minutes
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED, ai_owner="host:8000")) as client:
        st = place_first_legal(client, code, token, st)
        placed = st["players"][1]["placed"]
        st = after_ais(client, code, token, seconds=60)  # a bound far below the lease
        assert st["players"][1]["placed"] == placed + 1


def test_many_ais_thinking_at_once_do_not_hold_up_the_requests_of_other_rooms(client, slow_ai):
    """AI players think in worker threads; so do requests (the engine).  Forty AIs thinking at once (eight solo
    rooms of five) must not take every worker thread: a person's move in another room is answered meanwhile."""
    other = create(client, mode="solo")
    slow_ai.on = True
    for _ in range(8):
        create(client, mode="solo", agents=["greedy"] * 5)
    deadline = time.monotonic() + 60
    while slow_ai.inside < 40:  # every AI is inside its move, waiting to be told
        assert time.monotonic() < deadline, f"only {slow_ai.inside} AIs are thinking"
        time.sleep(0.01)
    answered = []
    mover = threading.Thread(target=lambda: answered.append(
        place_first_legal(client, other["code"], other["token"], other["state"])), daemon=True)
    mover.start()
    mover.join(30)  # a bound, not a speed check: without a thread to run on, the move waits for an AI
    try:
        assert answered, "the move in another room waited for the AIs to finish thinking"
        assert answered[0]["players"][0]["placed"] == 1
    finally:
        slow_ai.release.set()
        mover.join(30)


def test_reading_one_room_from_storage_holds_up_no_other_room_and_makes_one_copy():
    """A slow read of one room (a busy database) used to hold the whole room table: now other rooms are read
    meanwhile, and everyone who wants that room waits for the one read and gets the same room."""
    from takeiteasy.server.rooms import RoomMaster

    class GatedStore(MemoryStore):
        def __init__(self):
            super().__init__()
            self.gated, self.reading, self.release, self.reads = None, threading.Event(), threading.Event(), []

        def load(self, code):
            self.reads.append(code)
            if code == self.gated:
                self.reading.set()
                assert self.release.wait(10)
            return super().load(code)

    store = GatedStore()
    first, _ = RoomMaster(store).create("room", "ann", None, None, [], True)
    second, _ = RoomMaster(store).create("room", "bob", None, None, [], True)
    master = RoomMaster(store)  # a restarted server: both rooms are in storage only
    store.gated, got = first.code, []
    store.reads.clear()  # creating a room reads its new code once, to be sure it is free
    readers = [threading.Thread(target=lambda: got.append(master.get(first.code))) for _ in range(2)]
    readers[0].start()
    assert store.reading.wait(10)
    readers[1].start()
    other = []
    reader = threading.Thread(target=lambda: other.append(master.get(second.code)))
    reader.start()
    reader.join(5)
    assert other and other[0].code == second.code  # read while the first room's read still hangs
    assert not got
    store.release.set()
    for thread in readers:
        thread.join(10)
    assert len(got) == 2 and got[0] is got[1] and got[0] is master.get(first.code)
    assert store.reads.count(first.code) == 1


def test_reading_rooms_from_storage_leaves_nothing_behind_for_codes_that_do_not_exist_or_fail():
    """Anyone may ask for any code: the per-room loading entries of codes with no room, of reads that fail and of
    reads that many wait for at once are all gone afterwards (the table does not grow with the codes asked)."""
    from takeiteasy.server.rooms import Busy, NotFound, RoomMaster

    class FlakyStore(MemoryStore):
        def load(self, code):
            time.sleep(0.001)
            if code.startswith("FAIL"):
                raise StoreError("disk on fire")
            return super().load(code)

    store = FlakyStore()
    room, _ = RoomMaster(store).create("room", "ann", None, None, [], True)
    master, errors = RoomMaster(store, in_memory=1), []

    def ask(k):
        for code in (f"NOPE{k % 3}", f"FAIL{k % 2}", room.code, f"X{k}"):
            try:
                assert master.get(code).code == room.code
            except (NotFound, Busy) as exc:
                errors.append(type(exc).__name__)

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(set(errors)) == ["Busy", "NotFound"] and len(errors) == 36
    assert master._loading == {} and master.get(room.code).code == room.code


def test_a_room_acted_on_stays_in_memory_so_nobody_reads_a_stale_copy_of_it():
    """While one request's action on a room waits for storage, other rooms push it out of memory's limit.  It
    used to be dropped, and a request meanwhile read the old copy from storage, so the next action on it failed
    with 'storage failed' (503).  Now a room stays in memory while anyone acts on it, and the per-room entries
    are gone once nobody does."""
    from takeiteasy.server.rooms import Room, RoomMaster

    class GatedStore(MemoryStore):
        gated, writing, release = None, threading.Event(), threading.Event()

        def append(self, code, version, events, summary):
            if code == self.gated:
                self.writing.set()
                assert self.release.wait(10)
            return super().append(code, version, events, summary)

    store = GatedStore()
    master = RoomMaster(store, in_memory=1)
    room, _ = master.create("room", "ann", None, None, [], True)
    store.gated = room.code
    joining = threading.Thread(target=master.act, args=(room.code, "join", "bob"))
    joining.start()
    try:
        assert store.writing.wait(10)
        master.create("room", "cat", None, None, [], True)  # memory holds one room: the other one is acting
        assert master.get(room.code) is room  # the live room, not a copy read from storage before bob's join
    finally:
        store.release.set()
        joining.join(10)
    store.gated = None
    master.act(room.code, "join", "dan")
    assert [seat.name for seat in master.get(room.code).seats] == ["ann", "bob", "dan"]
    assert [seat.name for seat in Room(*store.load(room.code)).seats] == ["ann", "bob", "dan"]  # stored alike
    assert master._acting == {} and master.rooms_in_memory == 1


def test_a_slow_room_creation_holds_up_no_other_room():
    """Creating a room counts the open rooms and writes the new one under a lock of its own: a slow database
    write used to hold the whole room table, so every request for any room waited for it."""
    from takeiteasy.server.rooms import RoomMaster

    class GatedStore(MemoryStore):
        gate, writing, release = False, threading.Event(), threading.Event()

        def create(self, code, record, summary, events):
            if self.gate:
                self.writing.set()
                assert self.release.wait(10)
            return super().create(code, record, summary, events)

    store = GatedStore()
    master = RoomMaster(store, in_memory=1)
    first, _ = master.create("room", "ann", None, None, [], True)
    second, _ = master.create("room", "bob", None, None, [], True)  # the first is now in storage only
    store.gate, made = True, []
    creating = threading.Thread(target=lambda: made.append(master.create("solo", "cat", None, None, [], False)))
    creating.start()
    try:
        assert store.writing.wait(10)
        answered = []
        others = [threading.Thread(target=lambda: answered.append(master.get(first.code).code)),
                  threading.Thread(target=lambda: answered.append(master.act(second.code, "join", "dan")[0].code))]
        for thread in others:
            thread.start()
        for thread in others:
            thread.join(5)
        assert sorted(answered) == sorted([first.code, second.code]), "a request waited for the room creation"
    finally:
        store.release.set()
        creating.join(10)
    assert made and master.get(made[0][0].code) is made[0][0]


# -- an AI stands in for a player who went away ------------------------------------------------------------------


def room_of_two(client, **body):
    """A started room of ann (the host) and bob: (code, ann's token, bob's token)."""
    host = create(client, mode="room", **body)
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    assert post(client, code, "start", token=ann).status_code == 200
    return code, ann, bob


def grace(monkeypatch, seconds):
    from takeiteasy.server import rooms

    monkeypatch.setattr(rooms, "STANDIN_GRACE_SECONDS", seconds)


def test_an_ai_stands_in_for_a_player_who_went_away_and_the_round_finishes(client, monkeypatch):
    """Everyone places each tile before the next comes, so one person gone mid-round held the room for ever:
    after the grace period another player hands the absent seat to an AI, which plays it to the end."""
    code, ann, bob = room_of_two(client, preset="easier")
    st = state(client, code, ann)
    for _ in st["me"]["pending"]:
        st = place_first_legal(client, code, ann, st)
    wait = st["players"][1]["standin_after"]  # bob was just here (the round started): not yet
    assert 0 < wait <= 60 and "standin_after" not in st["players"][0]
    assert "bob was here" in refused(post(client, code, "standin", token=ann, player=1), 409)
    grace(monkeypatch, 0.2)
    time.sleep(0.3)
    st = state(client, code, ann)
    assert st["players"][1]["standin_after"] == 0
    r = post(client, code, "standin", token=ann, player=1)
    assert r.status_code == 200, r.text
    seat = r.json()["state"]["players"][1]
    assert (seat["name"], seat["kind"], seat["agent"], seat["standin"]) == ("bob", "ai", "fast", True)
    assert "standin_after" not in seat
    st = after_ais(client, code, ann)
    # the AI placed bob's pair, and then the pair of the next draw, which waits for ann now
    assert st["players"][1]["placed"] == len(st["drawn"]) == 4 and st["players"][1]["standin"]
    while st["status"] == "playing":
        for _ in st["me"]["pending"]:
            st = place_first_legal(client, code, ann, st)
        st = after_ais(client, code, ann)
    assert st["status"] == "finished" and all(p["placed"] == 19 for p in st["players"])
    # a round an AI played for bob is not his on the best-scores list
    assert [s["name"] for s in client.get("/api/scores", params={"preset": "easier"}).json()["scores"]] == ["ann"]


def test_between_rounds_an_ai_stands_in_for_a_host_who_went_away_and_the_guests_start_the_next_round(
        client, monkeypatch):
    """A match of several rounds whose host went away after a round was stuck for good: only the host starts the
    next round, and an AI stood in only during a round.  Between rounds the host's seat may now go to an AI after
    the grace period, like a seat the game waits for; then a guest starts the next round, the AI plays the host's
    tiles, and the host takes the seat back on return.  No other seat is offered between rounds."""
    code, ann, bob = room_of_two(client, preset="four-rounds")
    st = {"ann": state(client, code, ann), "bob": state(client, code, bob)}
    while st["ann"]["status"] == "playing":
        for name, token in (("ann", ann), ("bob", bob)):
            st[name] = state(client, code, token)
            if st[name]["status"] == "playing" and st[name]["me"]["pending"]:
                st[name] = place_first_legal(client, code, token, st[name])
    assert state(client, code, ann)["status"] == "round_over"
    seen = state(client, code, bob)["players"]
    assert 0 < seen[0]["standin_after"] <= 60 and "standin_after" not in seen[1]  # ann just played: not yet
    assert "only the host" in refused(post(client, code, "next", token=bob), 403)
    assert "ann was here" in refused(post(client, code, "standin", token=bob, player=0), 409)
    assert "standin_after" not in state(client, code, ann)["players"][1]  # bob is not holding anything up
    grace(monkeypatch, 0.2)
    time.sleep(0.3)  # ann away (her own reads count as her being here)
    assert state(client, code, bob)["players"][0]["standin_after"] == 0
    assert post(client, code, "standin", token=bob, player=0).status_code == 200
    assert post(client, code, "next", token=bob).status_code == 200
    st = after_ais(client, code, bob)
    assert st["status"] == "playing" and st["round"] == 1 and st["players"][0]["placed"] == len(st["drawn"]) > 0
    assert post(client, code, "reclaim", token=ann).status_code == 200
    assert not state(client, code, ann)["players"][0]["standin"]


def test_the_stand_in_wait_is_a_server_setting_for_new_and_stored_rooms(tmp_path):
    """``serve --standin-seconds``: the server's wait before an AI may stand in, for the rooms it creates and
    for rooms it reads back from storage (after a restart), not the 60 s default."""
    from takeiteasy.commands.serve import app_settings, register
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    settings = app_settings(parser.parse_args(["serve", "--standin-seconds", "1000"]))
    assert settings == {"standin_seconds": 1000.0}
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=RateLimits.off(), **settings)) as client:
        code, ann, bob = room_of_two(client)
        place_first_legal(client, code, ann, state(client, code, ann))
        assert 900 < state(client, code, ann)["players"][1]["standin_after"] <= 1000
    with TestClient(create_app(SQLiteStore(path), rate_limits=RateLimits.off(), standin_seconds=0.0)) as client:
        assert state(client, code, ann)["players"][1]["standin_after"] == 0  # read back: this server's setting
        assert post(client, code, "standin", token=ann, player=1).status_code == 200


def test_serve_takes_how_often_to_watch_other_servers_and_refuses_a_bad_interval(tmp_path, capsys):
    """``serve --watch-seconds``: how often a server looks for other servers' changes to the rooms it has live
    connections to; 0 turns the watch off; a negative or infinite interval is one line and exit status 2."""
    from takeiteasy.cli import main
    from takeiteasy.commands.serve import app_settings, register
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    settings = app_settings(parser.parse_args(["serve", "--watch-seconds", "0.25"]))
    assert settings == {"watch_seconds": 0.25}
    with TestClient(create_app(SQLiteStore(tmp_path / "a.db"), **settings)) as client:
        assert not client.app.state.watcher.done()
    off = app_settings(parser.parse_args(["serve", "--watch-seconds", "0"]))
    with TestClient(create_app(SQLiteStore(tmp_path / "b.db"), **off)) as client:
        assert client.app.state.watcher is None
    for bad in ("-1", "inf", "nan", "1e-300"):  # 1e-300: a core kept busy looking at the database
        try:
            status = main(["serve", "--db", str(tmp_path / "c.db"), "--watch-seconds", bad])
        except SystemExit as refusal:  # inf and nan: argparse's refusal (the option's type)
            status = refusal.code
        assert status == 2
        error = capsys.readouterr().err.strip()
        assert "--watch-seconds" in error and "\n" not in error


def test_a_host_an_ai_stands_in_for_no_longer_holds_up_the_next_round(client, monkeypatch):
    """Only the host starts the next round of a match; a host who went away, and whose seat an AI plays, would
    hold the room between rounds for ever: then any person in the room may start it."""
    grace(monkeypatch, 0.0)
    code, ann, bob = room_of_two(client, preset="four-rounds")
    st = place_first_legal(client, code, bob, state(client, code, bob))
    assert post(client, code, "standin", token=bob, player=0).status_code == 200  # ann is away
    while st["status"] == "playing":
        st = after_ais(client, code, bob)
        if st["me"]["phase"] == "place":
            st = place_first_legal(client, code, bob, st)
    assert st["status"] == "round_over"
    r = post(client, code, "next", token=bob)
    assert r.status_code == 200, r.text
    assert r.json()["state"]["round"] == 1 and r.json()["state"]["status"] == "playing"


def test_a_page_polling_for_changes_is_no_sign_of_its_player(client, monkeypatch):
    """A page on the WebSocket gets updates without asking; one that fell back to polling asks every 1.5 s with
    ``since``, with or without its player in front of it, so those polls do not count as presence (they did:
    an open tab kept an absent player's seat from any stand-in).  Asking for the state outright still does."""
    code, ann, bob = room_of_two(client)
    place_first_legal(client, code, ann, state(client, code, ann))
    grace(monkeypatch, 0.5)
    version = state(client, code, bob)["version"]  # bob's page loads: he is here
    assert state(client, code, ann)["players"][1]["standin_after"] > 0  # (whole seconds, rounded up)
    time.sleep(0.6)
    polled = client.get(f"/api/rooms/{code}", params={"since": version}, headers={"x-player-token": bob})
    assert polled.status_code == 200 and polled.json()["changed"] is False
    assert state(client, code, ann)["players"][1]["standin_after"] == 0  # the poll did not count
    state(client, code, bob)  # bob's page asks for the state: he is back
    assert state(client, code, ann)["players"][1]["standin_after"] > 0


def test_a_player_cannot_be_stood_in_for_while_the_game_is_not_waiting_for_them(client, monkeypatch):
    """Bob, done with the tile, has nothing to do until ann places: however long he is away, nobody is held
    up by him, so no AI takes his seat; ann, whom the game waits for, can be stood in for by bob."""
    grace(monkeypatch, 0.0)
    code, ann, bob = room_of_two(client)
    place_first_legal(client, code, bob, state(client, code, bob))
    st = state(client, code, ann)
    assert "standin_after" not in st["players"][1]
    assert "not waiting for bob" in refused(post(client, code, "standin", token=ann, player=1), 409)
    assert state(client, code, bob)["players"][0]["standin_after"] == 0
    assert state(client, code, ann)["players"][1]["kind"] == "human"


def test_every_stand_in_that_is_not_fair_is_refused_with_the_room_intact(client, monkeypatch):
    grace(monkeypatch, 0.0)
    solo = create(client, mode="solo", agents=["greedy"])
    assert "room of friends" in refused(post(client, solo["code"], "standin", token=solo["token"], player=1), 400)
    caller = create(client, mode="caller")
    dora = client.post(f"/api/rooms/{caller['code']}/join", json={"name": "dora"}).json()["token"]
    assert dora and post(client, caller["code"], "start", token=caller["token"]).status_code == 200
    assert "room of friends" in refused(post(client, caller["code"], "standin", token=caller["token"], player=1), 400)
    host = create(client, mode="room")
    client.post(f"/api/rooms/{host['code']}/join", json={"name": "bob"})
    assert "during a round" in refused(post(client, host["code"], "standin", token=host["token"], player=1), 409)
    big = create(client, mode="room", options={"draw": 3})
    client.post(f"/api/rooms/{big['code']}/join", json={"name": "bob"})
    post(client, big["code"], "start", token=big["token"])
    assert "at most 2 tiles" in refused(post(client, big["code"], "standin", token=big["token"], player=1), 400)

    host = create(client, mode="room", agents=["greedy"])
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    post(client, code, "start", token=ann)
    before = after_ais(client, code, ann)["version"]  # the AI places in the background: once it has
    assert "yourself" in refused(post(client, code, "standin", token=ann, player=0), 400)
    assert "is an AI player" in refused(post(client, code, "standin", token=ann, player=1), 400)
    assert "no such player" in refused(post(client, code, "standin", token=ann, player=3), 400)
    assert "no such player" in refused(post(client, code, "standin", token=ann, player=-1), 400)
    refused(post(client, code, "standin", token=ann, player="2"), 422)
    assert "agent 'nobody'" in refused(post(client, code, "standin", token=ann, player=2, agent="nobody"), 400)
    # a rival may not hand an absent player's seat to a weak AI
    assert "as well as it can" in refused(post(client, code, "standin", token=ann, player=2, agent="random"), 400)
    refused(post(client, code, "standin", token=bob + "x", player=0), 403)
    refused(post(client, code, "standin", player=0), 422)
    assert "nobody is standing in" in refused(post(client, code, "reclaim", token=bob), 409)
    assert state(client, code, ann)["version"] == before  # nothing changed

    assert post(client, code, "standin", token=ann, player=2).status_code == 200
    assert "already playing for bob" in refused(post(client, code, "standin", token=ann, player=2), 409)
    assert "take your seat back" in refused(post(client, code, "standin", token=bob, player=0), 403)
    bobs = state(client, code, bob)
    assert bobs["me"]["phase"] == "standin" and "standin_after" not in bobs["players"][0]
    assert "take your seat back" in refused(post(client, code, "place", token=bob, cell=0), 409)
    st = after_ais(client, code, ann)
    while st["status"] == "playing":
        st = place_then_wait_for_ais(client, code, ann, st)
    assert st["status"] == "finished" and st["players"][2]["standin"]
    version = st["version"]
    assert "match is over" in refused(post(client, code, "reclaim", token=bob), 409)  # nothing is stored after the end
    assert "already playing for bob" in refused(post(client, code, "standin", token=ann, player=2), 409)
    assert state(client, code, ann)["version"] == version and state(client, code, bob)["me"]["movable"] == []


def test_a_stand_in_and_its_reclaim_are_stored_and_the_token_still_works(tmp_path):
    """The stand-in and the reclaim are events: a room replayed from storage has the same seats.  Bob's token
    still names his seat while the AI plays it, and he takes it back to place the next tile himself.  A room
    just read from storage counts every seat as present, so nobody is stood in for at once after a restart."""
    db = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED, standin_seconds=0.0)) as client:
        code, ann, bob = room_of_two(client)
        place_first_legal(client, code, ann, state(client, code, ann))
        assert post(client, code, "standin", token=ann, player=1).status_code == 200
        seats = client.app.state.master.get(code).seats
        after_ais(client, code, ann)
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED)) as client:
        st = state(client, code, bob)
        assert client.app.state.master.get(code).seats == seats
        assert st["you"] == 1 and st["me"]["phase"] == "standin" and st["players"][1]["standin"]
        assert st["players"][1]["placed"] == 2  # the AI placed the first tile for him, and the second
        r = post(client, code, "reclaim", token=bob)
        assert r.status_code == 200, r.text
        seat = r.json()["state"]["players"][1]
        assert (seat["kind"], seat["agent"], seat["standin"]) == ("human", None, False)
        # taken back, but an AI played some of this round for him: it stays off the best scores, and says so
        assert seat["stood_in"] and not r.json()["state"]["players"][0]["stood_in"]
        assert r.json()["state"]["me"]["phase"] == "wait"  # for ann, who has the second tile to place
        seats = client.app.state.master.get(code).seats
        st = place_first_legal(client, code, ann, state(client, code, ann))
        assert len(st["drawn"]) == 3 and st["players"][1]["waiting"] and st["players"][1]["kind"] == "human"
    with TestClient(create_app(SQLiteStore(db), rate_limits=UNLIMITED, standin_seconds=60.0)) as client:
        st = state(client, code, ann)
        assert client.app.state.master.get(code).seats == seats
        assert st["players"][1]["standin_after"] > 0  # just loaded: bob counts as present
        time.sleep(0.3)
        assert state(client, code, ann)["players"][1]["placed"] == 2  # nobody else plays bob's tile
        st = place_first_legal(client, code, bob, state(client, code, bob))
        assert st["players"][1]["placed"] == 3


def test_rulebook_004_an_ai_stands_in_for_an_absent_chooser_and_announces(client, monkeypatch):
    """No caller: the game also waits for the player whose turn it is to announce; an AI standing in announces."""
    code, ann, bob = room_of_two(client, preset="no-caller")
    st = post(client, code, "announce", token=ann, tile=state(client, code, ann)["remaining"][0]).json()["state"]
    place_first_legal(client, code, ann, st)
    st = place_first_legal(client, code, bob, state(client, code, bob))
    assert st["chooser"] == 1 and st["me"]["phase"] == "announce"
    grace(monkeypatch, 0.0)
    assert post(client, code, "standin", token=ann, player=1).status_code == 200
    deadline = time.monotonic() + 60
    while len(state(client, code, ann)["drawn"]) < 2:  # the AI announces for bob
        assert time.monotonic() < deadline, "the stand-in did not announce"
        time.sleep(0.01)


def test_the_host_removes_a_seat_in_the_lobby_and_the_seats_after_it_keep_their_tokens(tmp_path):
    """An AI added by mistake, or a person who will not play, left the room for good: the host may now remove any
    other seat before the start; the seats after it move up one place, and their tokens and live connections
    follow them (the room rebuilt from storage agrees)."""
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:
        host = create(client, mode="room")
        code, ann = host["code"], host["token"]
        assert post(client, code, "add", token=ann, agent="random").status_code == 201
        bob = post(client, code, "join", name="bob").json()
        assert bob["player"] == 2
        with client.websocket_connect(f"/api/rooms/{code}/ws?token={bob['token']}") as live:
            assert live.receive_json()["state"]["you"] == 2
            answer = post(client, code, "remove", token=ann, player=1, name="random 1")
            assert answer.status_code == 200, answer.text
            assert [p["name"] for p in answer.json()["state"]["players"]] == ["ann", "bob"]
            assert live.receive_json()["state"]["you"] == 1  # bob's page learns his new place at once
        assert state(client, code, bob["token"])["you"] == 1
        assert post(client, code, "start", token=ann).status_code == 200
        st = after_ais(client, code, bob["token"])
        assert [p["name"] for p in st["players"]] == ["ann", "bob"] and st["me"]["pending"]
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:  # replayed from its events
        st = state(client, code, bob["token"])
        assert st["you"] == 1 and [p["name"] for p in st["players"]] == ["ann", "bob"]
        assert post(client, code, "place", token=bob["token"], cell=st["me"]["legal"][st["me"]["pending"][0]][0],
                    tile=st["me"]["pending"][0]).status_code == 200


def test_a_player_leaves_the_lobby_and_their_token_no_longer_counts(client):
    host = create(client, mode="room")
    code, ann = host["code"], host["token"]
    bob = post(client, code, "join", name="bob").json()
    with client.websocket_connect(f"/api/rooms/{code}/ws?token={bob['token']}") as live:
        assert live.receive_json()["state"]["you"] == 1
        answer = post(client, code, "remove", token=bob["token"], player=1)
        assert answer.status_code == 200 and answer.json()["state"]["you"] is None
        assert live.receive_json()["state"]["you"] is None  # an onlooker's view from now on
    assert refused(client.get(f"/api/rooms/{code}", headers={"x-player-token": bob["token"]}), 403)
    assert refused(post(client, code, "start", token=bob["token"]), 403)
    assert [p["name"] for p in state(client, code, ann)["players"]] == ["ann"]
    again = post(client, code, "join", name="bob").json()  # the name is free again
    assert again["player"] == 1


def test_removing_a_seat_is_refused_where_it_is_not_fair_with_the_room_intact(client):
    host = create(client, mode="room")
    code, ann = host["code"], host["token"]
    bob = post(client, code, "join", name="bob").json()
    cy = post(client, code, "join", name="cy").json()
    before = state(client, code)
    assert "only the host" in refused(post(client, code, "remove", token=bob["token"], player=2), 403)
    assert "host cannot leave" in refused(post(client, code, "remove", token=ann, player=0), 400)
    assert "host cannot leave" in refused(post(client, code, "remove", token=bob["token"], player=0))
    for bad in (3, -1):
        assert "no such player" in refused(post(client, code, "remove", token=ann, player=bad), 400)
    for bad in ("1", True, None, 1.0):
        refused(post(client, code, "remove", token=ann, player=bad), 422)
    refused(post(client, code, "remove", token="nobody", player=1), 403)
    # a page that had not seen a seat go names the seat it means: the wrong one is not removed
    assert "the seats have changed" in refused(post(client, code, "remove", token=ann, player=2, name="bob"), 409)
    assert state(client, code) == before
    assert post(client, code, "start", token=ann).status_code == 200
    assert "has started" in refused(post(client, code, "remove", token=ann, player=2), 409)
    assert "has started" in refused(post(client, code, "remove", token=cy["token"], player=2), 409)
    assert [p["name"] for p in state(client, code)["players"]] == ["ann", "bob", "cy"]


def test_the_host_of_a_caller_room_removes_a_person_added_by_mistake(client):
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    for name in ("grandma", "grandpa"):
        assert post(client, code, "add", token=ann, name=name).status_code == 201
    assert post(client, code, "remove", token=ann, player=1).status_code == 200
    assert [p["name"] for p in state(client, code)["players"]] == ["ann", "grandpa"]


def test_a_seat_removed_by_name_is_named_as_the_room_cleans_a_name(client):
    """remove's name compared name_key of the name as sent with the seat's: "Bob  Smith" (two spaces), seated as
    "Bob Smith", did not match, and the host was told the seats had changed.  The name is now cleaned as joining
    cleans it (core.game.clean_name) first; a name that clean_name refuses matches no seat."""
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    for name in ("Bob  Smith", "S\u0326tefan", "cy"):  # seated as "Bob Smith" and "Ștefan" (composed)
        assert post(client, code, "add", token=ann, name=name).status_code == 201
    before = state(client, code)
    for name in ("   ", "x" * 25, "\u3164"):  # blank, too long, nothing visible: nobody's name
        assert "the seats have changed" in refused(post(client, code, "remove", token=ann, player=1, name=name), 409)
    assert state(client, code) == before
    assert post(client, code, "remove", token=ann, player=1, name=" bob\t smith ").status_code == 200
    assert post(client, code, "remove", token=ann, player=1, name="stefan").status_code == 200
    assert [p["name"] for p in state(client, code)["players"]] == ["ann", "cy"]


def test_a_caller_room_takes_late_players_until_its_first_round_is_ended(tmp_path):
    """A caller room took nobody once started: a phone that came late, or a person the host forgot, stayed out of
    the scores.  Each plays on their own physical board from the tiles called so far, so people may join (and the
    host may add them) until the first round is ended; screen games and later rounds still refuse."""
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:
        host = create(client, mode="caller", preset="four-rounds")
        code, ann = host["code"], host["token"]
        assert post(client, code, "start", token=ann).json()["state"]["joinable"] is True
        for _ in range(5):
            post(client, code, "call", token=ann)
        late = post(client, code, "join", name="late")
        assert late.status_code == 201, late.text
        assert late.json()["player"] == 1 and len(late.json()["state"]["drawn"]) == 5
        assert post(client, code, "add", token=ann, name="grandma").status_code == 201
        assert "only the host" in refused(post(client, code, "add", token=late.json()["token"], name="x"), 403)
        for _ in range(14):
            st = post(client, code, "call", token=ann).json()["state"]
        assert post(client, code, "entry", token=late.json()["token"], score=150).status_code == 200
        assert post(client, code, "entry", token=ann, player=2, score=99).status_code == 200
        st = post(client, code, "end-round", token=ann).json()["state"]
        assert st["results"] == [[0, 150, 99]] and st["totals"] == [0, 150, 99] and st["joinable"] is False
        assert "has started" in refused(post(client, code, "join", name="later"), 409)
        refused(post(client, code, "add", token=ann, name="later"), 409)
        assert post(client, code, "next", token=ann).json()["state"]["joinable"] is False
        refused(post(client, code, "join", name="later"), 409)
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:  # replayed from its events
        st = state(client, code, late.json()["token"])
        assert st["you"] == 1 and [p["name"] for p in st["players"]] == ["ann", "late", "grandma"]
        assert st["totals"] == [0, 150, 99]
        screen = create(client, mode="room")
        assert post(client, screen["code"], "start", token=screen["token"]).status_code == 200
        assert "has started" in refused(post(client, screen["code"], "join", name="late"), 409)


def test_the_host_removes_a_stranger_from_a_listed_caller_room_until_the_first_round_ends(tmp_path):
    """A public caller room is listed as joinable during its first round, and removing worked only in the lobby: a
    stranger who joined could not be taken out, entered the best score the called tiles allow and was named the
    winner (and a few of them filled the seats).  Until the first round ends the host takes out a seat with no
    entry yet (and a player may give theirs up); one with an entry stays, and screen games still refuse."""
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:
        host = create(client, mode="caller", public=True)
        code, ann = host["code"], host["token"]
        bob = post(client, code, "join", name="bob").json()["token"]
        post(client, code, "start", token=ann)
        for _ in range(19):
            post(client, code, "call", token=ann)
        stranger = post(client, code, "join", name="stranger").json()
        cy = post(client, code, "join", name="cy").json()["token"]
        quitter = post(client, code, "join", name="quitter").json()["token"]
        assert stranger["player"] == 2
        assert post(client, code, "entry", token=bob, score=150).status_code == 200
        assert post(client, code, "entry", token=cy, score=90).status_code == 200
        assert "only the host" in refused(post(client, code, "remove", token=bob, player=2), 403)
        assert "entered a score" in refused(post(client, code, "remove", token=ann, player=1), 409)
        st = post(client, code, "remove", token=ann, player=2, name="stranger").json()["state"]
        assert [p["name"] for p in st["players"]] == ["ann", "bob", "cy", "quitter"]
        assert {int(p): e["score"] for p, e in st["entries"].items()} == {1: 150, 2: 90}  # cy's entry moved up
        refused(post(client, code, "entry", token=stranger["token"], score=200), 403)  # the seat is gone
        assert post(client, code, "remove", token=quitter, player=3).status_code == 200  # their own seat
        assert post(client, code, "entry", token=ann, score=120).status_code == 200
        st = post(client, code, "end-round", token=ann).json()["state"]
        assert st["results"] == [[120, 150, 90]] and st["winners"] == [1]
        late = post(client, code, "join", name="late")
        assert "has started" in refused(late, 409)
        refused(post(client, code, "remove", token=ann, player=1), 409)  # the first round is over
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:  # replayed from its events
        st = state(client, code, bob)
        assert st["you"] == 1 and [p["name"] for p in st["players"]] == ["ann", "bob", "cy"]
        assert st["totals"] == [120, 150, 90]
        screen = create(client, mode="room")
        post(client, screen["code"], "join", name="bob")
        assert post(client, screen["code"], "start", token=screen["token"]).status_code == 200
        assert "has started" in refused(post(client, screen["code"], "remove", token=screen["token"], player=1), 409)


def test_a_call_taken_back_comes_again_with_the_next_call(tmp_path):
    """Rulebook 001's caller, on a phone: a second tap on "Call" called a tile the table was not ready for, with no
    way back.  The host may take back the last call; the deal is fixed when the round starts, so the next call
    brings the same tile (nobody can call a tile away).  Refused once boards are entered, and for anyone else."""
    path = tmp_path / "rooms.db"
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:
        host = create(client, mode="caller", options={"draw": 2})
        code, ann = host["code"], host["token"]
        bob = post(client, code, "join", name="bob").json()["token"]
        post(client, code, "start", token=ann)
        assert "no call to take back" in refused(post(client, code, "uncall", token=ann), 409)
        first = post(client, code, "call", token=ann).json()["state"]
        second = post(client, code, "call", token=ann).json()["state"]
        assert len(second["drawn"]) == 4
        assert "only the host" in refused(post(client, code, "uncall", token=bob), 403)
        back = post(client, code, "uncall", token=ann).json()["state"]
        assert back["drawn"] == first["drawn"] and back["current"] == first["current"] and back["left"] == 17
        again = post(client, code, "call", token=ann).json()["state"]
        assert again["drawn"] == second["drawn"] and again["current"] == second["current"]
        for _ in range(8):
            st = post(client, code, "call", token=ann).json()["state"]
        assert st["left"] == 0 and st["current"] == st["drawn"][-1:]  # 19 = 9 pairs and one alone
        assert post(client, code, "uncall", token=ann).json()["state"]["current"] == st["drawn"][-3:-1]
        st = post(client, code, "call", token=ann).json()["state"]
        assert post(client, code, "entry", token=bob, board=" ".join(st["drawn"])).status_code == 200
        assert "boards or scores are entered" in refused(post(client, code, "uncall", token=ann), 409)
    with TestClient(create_app(SQLiteStore(path), rate_limits=UNLIMITED)) as client:  # replayed from its events
        assert state(client, code, ann)["drawn"] == st["drawn"]
        screen = create(client, mode="room")
        post(client, screen["code"], "start", token=screen["token"])
        assert "caller rooms" in refused(post(client, screen["code"], "uncall", token=screen["token"]), 400)


def test_calls_taken_back_are_limited_so_a_room_cannot_grow_without_end(client):
    from takeiteasy.server.rooms import MAX_REPEATS

    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    post(client, code, "start", token=ann)
    for _ in range(MAX_REPEATS):
        post(client, code, "call", token=ann)
        assert post(client, code, "uncall", token=ann).status_code == 200
    post(client, code, "call", token=ann)
    assert f"at most {MAX_REPEATS}" in refused(post(client, code, "uncall", token=ann), 409)
    assert len(state(client, code)["drawn"]) == 1


@pytest.mark.parametrize("options", [{"placement": "adjacent"}, {"placement": "adjacent", "draw": 2}])
def test_rulebook_001_adjacent_placement_a_typed_board_must_be_layable_in_the_order_of_the_calls(client, options):
    """Rulebook 001, adjacent placement (every tile after the first touches a placed tile): a caller room's typed
    board was only checked for its tiles, so a board no player could have laid in the order of the calls scored
    anyway.  It is now replayed in call order (in any order within one draw) and refused, naming the tile."""
    host = create(client, mode="caller", options=options)
    code, ann = host["code"], host["token"]
    post(client, code, "start", token=ann)
    while (st := post(client, code, "call", token=ann).json()["state"])["left"]:
        pass
    called = st["drawn"]
    in_order = " ".join(called)  # cell k holds the k-th call: each cell touches one before it
    swapped = " ".join([called[18], *called[1:18], called[0]])  # the first call on cell 18, far from the second
    error = refused(post(client, code, "entry", token=ann, board=swapped), 400)
    assert error.startswith("board: not laid in the order of the calls: tile")
    assert "adjacent placement" in error or "in any order" in error
    assert state(client, code, ann)["entries"] == {}  # the room intact
    rules = Ruleset.from_options(Options.from_json(options))
    answer = post(client, code, "entry", token=ann, board=in_order)
    assert answer.json()["state"]["entries"]["0"]["score"] == rules.score(parse_board(in_order))


def test_a_typed_board_under_free_placement_may_be_laid_in_any_order(client):
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    post(client, code, "start", token=ann)
    while (st := post(client, code, "call", token=ann).json()["state"])["left"]:
        pass
    board = " ".join(reversed(st["drawn"]))
    assert post(client, code, "entry", token=ann, board=board).status_code == 200


def test_a_game_under_way_is_listed_to_watch_only_while_someone_plays_it(client, monkeypatch):
    """Open rooms lists public games under way for watching; one nobody has moved in for a while (people who
    left without finishing) is nothing to watch, so it drops off, while a lobby stays open to join."""
    lobby = create(client, mode="room")
    game = create(client, mode="room")
    assert post(client, game["code"], "start", token=game["token"]).status_code == 200
    listed = {r["code"]: r["joinable"] for r in client.get("/api/rooms").json()["rooms"]}
    assert listed[lobby["code"]] is True and listed[game["code"]] is False
    monkeypatch.setattr("takeiteasy.server.rooms.WATCHED_MINUTES", -1)  # as if its last move were long ago
    listed = [r["code"] for r in client.get("/api/rooms").json()["rooms"]]
    assert lobby["code"] in listed and game["code"] not in listed


def test_games_nobody_plays_never_hide_an_open_lobby_from_the_list(client, monkeypatch):
    """The list took the newest 50 public rooms, then left out the games under way nobody played: 50 rooms started
    and left after a lobby was made hid it from everyone (an empty list), though the list has room for 50."""
    lobby = create(client, mode="room")
    for _ in range(50):
        game = create(client, mode="room", name="mallory")
        assert post(client, game["code"], "start", token=game["token"]).status_code == 200
    monkeypatch.setattr("takeiteasy.server.rooms.WATCHED_MINUTES", -1)  # as if their last moves were long ago
    assert [r["code"] for r in client.get("/api/rooms").json()["rooms"]] == [lobby["code"]]


def test_rulebook_004_a_solitaire_room_takes_no_second_player(client):
    """Rulebook 004, solitaire: one player.  A room made with the solitaire preset let people join and AI seats be
    added, then refused to start ("this room has 3"), with the guests sitting in a room that never would."""
    host = create(client, mode="room", preset="solitaire")
    code, ann = host["code"], host["token"]
    assert "solitaire game, for its one player" in refused(client.post(f"/api/rooms/{code}/join", json={"name": "bob"}), 409)
    assert "solitaire game" in refused(post(client, code, "add", token=ann, agent="random"), 409)
    assert [p["name"] for p in state(client, code)["players"]] == ["ann"]
    assert post(client, code, "start", token=ann).status_code == 200
    # with AI opponents asked for at once, the refusal named a room it had not stored ("room X is a solitaire game")
    for mode in ("solo", "room"):
        why = refused(client.post("/api/rooms", json={"name": "ann", "mode": mode, "preset": "solitaire",
                                                      "agents": ["greedy"]}), 400)
        assert why == "solitaire is one player alone: no AI players"


def test_caller_rooms_take_entries_after_the_last_call_and_one_call_from_two_devices(client):
    """A score typed after 3 calls went in as the player's final entry without a word (the host's page then listed
    nobody missing); two devices of the host calling at once called two tiles, the first shown only in the
    history.  Entries wait for the last call, and a call names how many tiles the page showed called."""
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    st = post(client, code, "start", token=ann).json()["state"]
    for _ in range(3):
        st = post(client, code, "call", token=ann, called=len(st["drawn"])).json()["state"]
    version = st["version"]
    assert refused(post(client, code, "entry", token=bob, score=12), 409) == (
        "boards and scores are entered once every tile has been called (3 of 19 so far)")
    # the second device saw 3 called too: its call would be a fourth tile over the first device's
    assert post(client, code, "call", token=ann, called=3).status_code == 200
    assert "nothing called" in refused(post(client, code, "call", token=ann, called=3), 409)
    st = state(client, code, ann)
    assert len(st["drawn"]) == 4 and st["version"] == version + 1
    while st["left"]:
        st = post(client, code, "call", token=ann).json()["state"]  # a page that says nothing still calls
    assert post(client, code, "entry", token=bob, score=12).status_code == 200
    assert "cannot be taken back" in refused(post(client, code, "uncall", token=ann), 409)  # a score is in


def board_with_a_ray(rules, tiles: list[int]) -> str:
    """The tiles laid so that one line holds tiles of one symbol sharing their value in its direction (a sunray
    or moonbeam), the others anywhere."""
    from takeiteasy.core.tiles import TILE_VALUES, TOKENS

    shape = rules.layout
    for line in range(len(shape.line_len)):
        cells = list(shape.line_cells[line][:shape.line_len[line]])
        direction = int(shape.line_dir[line])
        for symbol in (0, 1):
            for value in {int(TILE_VALUES[t][direction]) for t in tiles}:
                fitting = [t for t in tiles if rules.symbols[t] == symbol and TILE_VALUES[t][direction] == value]
                if len(fitting) >= len(cells):
                    board = [-1] * shape.num_cells
                    for cell, tile in zip(cells, fitting):
                        board[cell] = tile
                    rest = [t for t in tiles if t not in board]
                    for cell in range(shape.num_cells):
                        if board[cell] < 0:
                            board[cell] = rest.pop()
                    return " ".join(TOKENS[t] for t in board)
    raise AssertionError("no ray can be laid with these tiles")


def test_rulebook_000_best_sunray_bonus_of_a_caller_round_is_given_with_the_entry():
    """Rulebook 000, Best Sunray/Moonbeam at a physical table: the 60 went into the totals unexplained.  Once the
    round is over, each entry with a round bonus says how much (``bonus``)."""
    with TestClient(create_app(MemoryStore(), rate_limits=UNLIMITED)) as client:
        host = create(client, mode="caller", preset="best-sunray")
        code, ann = host["code"], host["token"]
        bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
        st = call_every_tile(client, code, ann)
        rules = Ruleset.from_options(preset("best-sunray"))
        board = board_with_a_ray(rules, [parse_tile(t) for t in st["drawn"]])
        assert post(client, code, "entry", token=ann, board=board).status_code == 200
        assert refused(post(client, code, "entry", token=bob, score=999)).endswith(
            "; the Best Sunray/Moonbeam bonus is added when the round ends)")  # said under this variant alone
        assert post(client, code, "entry", token=bob, score=100).status_code == 200
        during = state(client, code, ann)["entries"]
        assert "bonus" not in during["0"]
        st = post(client, code, "end-round", token=ann).json()["state"]
        bonus = rules.round_bonuses([parse_board(board)])[0]
        assert bonus > 0  # the only board typed in has the best ray of each symbol
        assert st["entries"]["0"]["bonus"] == bonus and "bonus" not in st["entries"]["1"]
        assert st["results"][-1] == [rules.score(parse_board(board)) + bonus, 100]


def test_rulebook_003_a_typed_board_holds_every_called_tile_and_no_wildcard_on_a_held_stamen(client):
    """A board typed after the last call with a cell left empty (a tile forgotten) was accepted and scored.  Under
    daffodil variant 4 (holding area) a stamen cell may stay empty (a held tile not moved on), but a wildcard never
    goes onto the stamen (rule 7.4); a typed board put one there."""
    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    st = call_every_tile(client, code, ann)
    holed = st["drawn"][:]
    forgotten, holed[4] = holed[4], "."
    assert refused(post(client, code, "entry", token=ann, board=" ".join(holed))) == (
        f"board: cell 4 is empty, but every tile has been called ({forgotten} not on the board)")
    assert state(client, code, ann)["entries"] == {}

    # 21 of the 31 tiles are called, so about one round in 150 has no wildcard: deal again then
    for _ in range(20):
        host = create(client, mode="caller", preset="daffodil-holding")
        code, ann = host["code"], host["token"]
        tiles = call_every_tile(client, code, ann)["drawn"]
        if any("*" in t for t in tiles):
            break
    rules = Ruleset.from_options(preset("daffodil-holding"))
    stamen = list(rules.layout.stamen_cells)
    wild = next(t for t in tiles if "*" in t)
    plain = [t for t in tiles if t != wild]
    board = [None] * rules.layout.num_cells
    board[stamen[0]] = wild
    # the deal may hold more wildcards: the other stamen cells take plain tiles, so only this one is at fault
    rest = iter(sorted(plain, key=lambda t: "*" in t))
    for cell in stamen[1:] + [c for c in range(len(board)) if c not in stamen]:
        board[cell] = next(rest)
    assert f"board: {wild} on stamen cell {stamen[0]}: " in refused(post(client, code, "entry", token=ann,
                                                                          board=" ".join(board)))
    # the wildcard held to the end instead: its stamen cell stays empty, and that board goes in
    board[stamen[0]] = "."
    entered = post(client, code, "entry", token=ann, board=" ".join(board))
    assert entered.status_code == 200, entered.text


def test_a_typed_score_above_the_best_board_of_the_called_tiles_is_refused(client):
    """Scores of 308, 999 and 2000 went into a standard game's totals (1600 for 160 is an easy typo).  A score
    above the best board the round's called tiles make is refused; the best itself goes in."""
    from takeiteasy.solve import solve_round

    host = create(client, mode="caller")
    code, ann = host["code"], host["token"]
    st = call_every_tile(client, code, ann)
    best = solve_round(Ruleset.from_options(), [parse_tile(t) for t in st["drawn"]]).score
    assert refused(post(client, code, "entry", token=ann, score=best + 1)) == (
        f"score: {best + 1} is more than any board of this round's tiles makes (at most {best})")  # no Best Sunray
    assert state(client, code, ann)["entries"] == {}
    assert post(client, code, "entry", token=ann, score=best).status_code == 200


def test_rulebook_000_a_table_gives_its_own_sun_moon_map_and_never_a_file(client):
    """Rulebook 000, the sun/moon tiles: no public source lists which tile carries a sun, so a table whose set
    differs from the shipped map could not enter a board its own tiles allowed.  A room takes the map itself
    (JSON text); a path to a file on the server is still refused, and a malformed map in one line."""
    import json as json_module

    from takeiteasy.core.tiles import TOKENS

    suns = {TOKENS[t]: "sun" for t in range(27)}  # a set whose every tile has a sun
    own = json_module.dumps({"symbols": suns})
    joined = client.post("/api/rooms", json={"name": "ann", "mode": "caller", "preset": "sunmoon",
                                             "options": {"symbols": own}})
    assert joined.status_code == 201, joined.text
    assert set(joined.json()["state"]["symbols"].values()) == {"sun"}
    assert "reads no files" in refused(client.post("/api/rooms", json={
        "name": "ann", "options": {"placement": "sunmoon", "symbols": "/tmp/map.json"}}))
    bad = json_module.dumps({"symbols": {"574": "star"}})
    assert refused(client.post("/api/rooms", json={"name": "ann", "options": {"placement": "sunmoon",
                                                                               "symbols": bad}})) == (
        'symbol map: tile \'574\' has symbol "star"; expected "sun" or "moon"')


def test_a_finished_room_opens_a_rematch_for_the_same_players_with_their_tokens(client):
    """Friends who finished a match had no way to play again but to make a new room and send the link again.  The
    host opens a rematch: a new room in its lobby with the same seats (AI players too), every person's token
    working there; the old room's state names it for every page, and asking again gives the same room."""
    host = create(client, mode="room")
    code, ann = host["code"], host["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "bob"}).json()["token"]
    assert post(client, code, "add", token=ann, agent="greedy").status_code == 201
    assert "finished match" in refused(post(client, code, "rematch", token=ann), 409)  # still in the lobby
    st = post(client, code, "start", token=ann).json()["state"]
    assert "only the host" in refused(post(client, code, "rematch", token=bob), 403)
    while st["status"] == "playing":
        for token in (ann, bob):
            mine = state(client, code, token)
            if mine["status"] == "playing" and mine["me"]["pending"]:
                place_first_legal(client, code, token, mine)
        st = after_ais(client, code, ann)
    assert st["status"] == "finished" and st["rematch"] is None
    again = post(client, code, "rematch", token=ann)
    assert again.status_code == 201, again.text
    new = again.json()
    assert new["code"] != code and new["player"] == 0 and new["state"]["status"] == "lobby"
    assert [(p["name"], p["kind"], p["agent"]) for p in new["state"]["players"]] == \
        [(p["name"], p["kind"], p["agent"]) for p in st["players"]]
    assert state(client, code, bob)["rematch"] == new["code"]  # the old room tells everyone where to go
    assert state(client, new["code"], bob)["you"] == 1  # bob's token is his seat there
    assert post(client, code, "rematch", token=bob).json()["code"] == new["code"]  # asked again: the same room
    assert post(client, new["code"], "start", token=ann).json()["state"]["status"] == "playing"

