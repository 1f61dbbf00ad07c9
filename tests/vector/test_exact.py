"""The batched games are the engine's games: every row's events of every step, replayed through
the Python engine (chance driven by the outcomes the batch drew, every move checked by the
engine), give the same observations (the adapters' encoding), masks, players to move, rewards
and outcomes as the batch reported."""

from __future__ import annotations

import numpy as np
import pytest

from gamehall.core import GamehallError, State
from gamehall.vector import VectorGame

ROOM = 256
CASES = [
    # game, opponent, side
    ("akros", None, 0),
    ("akros", "beginner", 0),
    ("akros", "easy", 1),
    ("acadmu", None, 0),
    ("acadmu", "beginner", 1),
    ("acadmu", "easy", 0),
    ("akros", "mcts:30", 1),
    ("acadmu", "mcts:10", 0),
]


def _check_row(vec: VectorGame, step, g: int, state: State | None, action: int | None) -> State:
    """Replay row ``g``'s events of this step from ``state``; check what the batch said."""
    count = int(step.event_count[g])
    assert count <= ROOM
    happened = vec.replay(state, step.events[g], count)
    seat = None if vec.self_play else vec.side
    if action is not None:  # the step opens with the learner's action, played or refused
        kind = happened[0][0]
        if step.illegal[g]:
            assert happened[0] == ("illegal", action)
            assert state is not None and not state.legal_action_mask()[action]
            assert step.terminated[g]
            mover = state.current_player
            assert step.reward[g, mover] == vec.illegal_reward
            assert step.reward[g, 1 - mover] == 0.0
        else:
            assert kind == "move" and happened[0][2] == action
    ended = [i for i, event in enumerate(happened) if event[0] == "new"]
    if action is not None and not step.illegal[g]:
        before_new = happened[ended[0] - 1] if ended else happened[-1]
        last = before_new[-1]
        assert bool(step.terminated[g]) == last.is_terminal()
        if last.is_terminal():
            np.testing.assert_array_equal(step.reward[g], np.float32(last.returns()))
            me = seat if seat is not None else happened[0][1]
            np.testing.assert_array_equal(step.final_observation[g], vec.encoding.encode(last, me))
        else:
            assert not step.reward[g].any()
    final = happened[-1]
    now = final[1] if final[0] == "new" else final[-1]
    before = state
    for event in happened:  # the opponent plays only its own seat, and as its level does
        if event[0] == "move" and seat is not None and event is not happened[0]:
            assert event[1] == 1 - seat
            assert before is not None
            if vec.opponent == "easy":  # greedy: among the best by the engine's evaluation
                values = {
                    a: before.apply(vec.game.index_action(a)).evaluate(event[1])
                    for a in np.flatnonzero(before.legal_action_mask())
                }
                assert values[event[2]] == max(values.values())
        before = event[1] if event[0] == "new" else (before if event[0] == "illegal" else event[-1])
    assert not now.is_terminal() and not now.is_chance_node()
    player = now.current_player
    if seat is not None:
        assert player == seat
    assert step.to_move[g] == player
    np.testing.assert_array_equal(step.action_mask[g], np.array(now.legal_action_mask()))
    np.testing.assert_array_equal(step.observation[g], vec.encoding.encode(now, player))
    return now


def _run(
    game: str,
    opponent: str | None,
    side: int,
    rows: int,
    want_games: int,
    seed: int,
    episode: str = "game",
):
    vec = VectorGame(game, rows, opponent=opponent, side=side, events=ROOM, episode=episode)
    step = vec.reset(seed)
    states = [_check_row(vec, step, g, None, None) for g in range(rows)]
    rng = np.random.default_rng(seed)
    games = 0
    outcomes = {True: 0, False: 0}
    while games < want_games:
        actions = vec.random_actions(rng)
        wrong = rng.random(rows) < 0.002  # now and then an illegal action, which ends the game
        actions[wrong] = np.argmin(step.action_mask[wrong], axis=1)
        step = vec.step(actions)
        for g in range(rows):
            states[g] = _check_row(vec, step, g, states[g], int(actions[g]))
        games += int(step.terminated.sum())
        won = step.terminated & ~step.illegal
        outcomes[True] += int((step.reward[won, side] > 0).sum())
        outcomes[False] += int((step.reward[won, side] < 0).sum())
    assert outcomes[True] + outcomes[False] > 0
    return games


ROUND_CASES = [(None, 0), ("beginner", 1), ("easy", 0), ("mcts:10", 1)]


@pytest.mark.parametrize(("opponent", "side"), ROUND_CASES)
def test_batched_rounds_are_the_engines(opponent: str | None, side: int) -> None:
    """``episode="round"`` (the adapters' single Äcädmü round): every game starts with a pour
    and a coin for who moves first drawn inside, and plays on as the engine's round does (its
    return: the round's count difference)."""
    want = 20 if opponent and opponent.startswith("mcts") else 60
    assert _run("acadmu", opponent, side, rows=16, want_games=want, seed=5, episode="round") >= want


@pytest.mark.slow
@pytest.mark.parametrize(("opponent", "side"), ROUND_CASES)
def test_thousands_of_batched_rounds_are_the_engines(opponent: str | None, side: int) -> None:
    want = 200 if opponent and opponent.startswith("mcts") else 2000
    assert (
        _run("acadmu", opponent, side, rows=64, want_games=want, seed=13, episode="round") >= want
    )


def test_a_batched_round_starts_at_a_random_pour():
    vec = VectorGame("acadmu", 256, opponent=None, episode="round", events=ROOM)
    step = vec.reset(2)
    rounds = [vec.state(g) for g in range(256)]
    assert all(r.phase == "play" and r.first is None and r.match_score == (0, 0) for r in rounds)
    assert len({(r.dark, r.light) for r in rounds}) > 200  # every row its own pour
    assert 0.35 < step.to_move.mean() < 0.65  # a fair coin for who moves first
    assert (step.observation[:, 31] == 1.0).all()  # the observation's "a bare round"
    started = [vec.replay(None, step.events[g], int(step.event_count[g])) for g in range(4)]
    assert [happened[0][1] for happened in started] == rounds[:4]


def test_episodes_the_batch_does_not_play_are_refused():
    with pytest.raises(GamehallError, match="episodes game, round, not 'set'"):
        VectorGame("acadmu", 4, episode="set")
    with pytest.raises(GamehallError, match="episodes game, not 'round'"):
        VectorGame("akros", 4, episode="round")


@pytest.mark.parametrize(("game", "opponent", "side"), CASES)
def test_batched_games_are_the_engines(game: str, opponent: str | None, side: int) -> None:
    want = 20 if opponent and opponent.startswith("mcts") else 60
    assert _run(game, opponent, side, rows=16, want_games=want, seed=7) >= want


@pytest.mark.slow
@pytest.mark.parametrize(("game", "opponent", "side"), CASES)
def test_thousands_of_batched_games_are_the_engines(
    game: str, opponent: str | None, side: int
) -> None:
    want = 200 if opponent and opponent.startswith("mcts") else 2000
    assert _run(game, opponent, side, rows=64, want_games=want, seed=11) >= want


def test_seeded_batches_repeat_and_rows_differ() -> None:
    first = VectorGame("akros", 8, events=ROOM)
    second = VectorGame("akros", 8, events=ROOM)
    a, b = first.reset(3), second.reset(3)
    np.testing.assert_array_equal(a.observation, b.observation)
    # each row draws from its own stream: the first draws differ between rows
    assert len({tuple(first.state(g).draft) for g in range(8)}) > 1
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(30):
        a = first.step(first.random_actions(rng_a))
        b = second.step(second.random_actions(rng_b))
        np.testing.assert_array_equal(a.observation, b.observation)
        np.testing.assert_array_equal(a.events, b.events)


def _first_results(opponent: str, rows: int = 256) -> np.ndarray:
    """The learner's (random, the Jinn) result of each row's first game."""
    vec = VectorGame("akros", rows, opponent=opponent, side=0)
    vec.reset(5)
    rng = np.random.default_rng(5)
    result = np.zeros(rows)
    while not result.all():
        step = vec.step(vec.random_actions(rng))
        first = step.terminated & (result == 0)
        result[first] = step.reward[first, 0]
    return result


def test_the_compiled_mcts_opponent_plays_stronger_than_random():
    against_random = (_first_results("beginner") > 0).mean()
    against_mcts = (_first_results("mcts:100") > 0).mean()
    assert against_mcts < against_random - 0.1, (against_mcts, against_random)


def test_legal_lists_are_as_wide_as_the_most_legal_actions():
    """Akros's legal lists hold its most legal actions (a tile's regions times four servants),
    not all 1,098 actions; every game of the exactness tests fits (the loops refuse more)."""
    vec = VectorGame("akros", 64, opponent=None)
    assert vec.legal_room == 28
    legal, count = vec.legal_actions()
    assert legal.shape == (64, 28)
    vec.reset(1)
    rng = np.random.default_rng(1)
    for _ in range(200):
        step = vec.step(vec.random_actions(rng))
        assert not step.illegal.any()
        for g in range(64):
            np.testing.assert_array_equal(
                np.flatnonzero(step.action_mask[g]), np.sort(legal[g, : count[g]])
            )
    assert VectorGame("acadmu", 2).legal_room == 136
