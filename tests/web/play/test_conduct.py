"""Around the moves, as pure functions and as the log that stores them: resigning, aborting,
takebacks (never across chance), claims after a player left, going on after a pause; and a log
with takebacks and endings replays to the same game."""

from __future__ import annotations

import pytest

from gamehall.core import find_game
from gamehall.protocol import ProtocolError
from gamehall.store import ActionRow
from gamehall.web.base.clock import TimeControl
from gamehall.web.play import conduct
from gamehall.web.play.history import Ending, replay_log


def _code(call, *args, **kwargs) -> str:
    with pytest.raises(ProtocolError) as caught:
        call(*args, **kwargs)
    return caught.value.code.value


def test_resign_is_for_a_seated_player_while_the_game_goes_on():
    assert conduct.resign(False, {1}, 0) == 1
    assert conduct.resign(False, {0, 1}, 1) == 1  # hot-seat: the seat to move resigns
    assert _code(conduct.resign, False, set(), 0) == "not_your_seat"
    assert _code(conduct.resign, True, {0}, None) == "game_over"


def test_abort_only_before_every_side_has_moved():
    assert conduct.abort(False, {0}, 0, set(), 2) == 0
    assert conduct.abort(False, {1}, 0, {0}, 2) == 1
    assert _code(conduct.abort, False, {0}, 0, {0, 1}, 2) == "cannot_abort"
    assert _code(conduct.abort, False, set(), 0, set(), 2) == "not_your_seat"


def test_a_takeback_undoes_your_last_move_and_what_followed_never_across_chance():
    chance = -1
    assert conduct.takeback_span([chance, chance, 0, 1], 0) == 2
    assert conduct.takeback_span([chance, chance, 0, 1], 1) == 1
    assert conduct.takeback_span([chance, 0, 1, 1, 0], 1) == 2
    with pytest.raises(ProtocolError, match="never undoes chance"):
        conduct.takeback_span([chance, 0, 1, chance, 1], 0)
    with pytest.raises(ProtocolError, match="no move to take back"):
        conduct.takeback_span([chance, chance], 0)


def test_takebacks_are_granted_at_once_without_another_person_else_offered_and_answered():
    movers = [-1, -1, 0, 1]

    def ask(op, seats, offer=None, consent=True, declined=()):
        return conduct.takeback(
            op,
            over=False,
            seats=seats,
            movers=movers,
            offer=offer,
            consent_needed=consent,
            declined=declined,
        )

    # Against the computer: back to before your last move, the computer's reply included.
    assert ask("offer", {0}, consent=False) == conduct.TakebackRuling("grant", 0, 2)
    # Hot-seat: the last move of either seat.
    assert ask("offer", {0, 1}, consent=False) == conduct.TakebackRuling("grant", 1, 1)
    # Online: offered, then accepted (undoing the offerer's move) or declined.
    assert ask("offer", {1}) == conduct.TakebackRuling("offer", 1)
    assert ask("accept", {0}, offer=1) == conduct.TakebackRuling("grant", 1, 1)
    assert ask("decline", {0}, offer=1) == conduct.TakebackRuling("decline", 0)
    assert _code(ask, "accept", {1}, offer=1) == "no_takeback"  # your own offer
    assert _code(ask, "offer", {1}, offer=1) == "no_takeback"  # already offered
    assert _code(ask, "offer", {0}, offer=1) == "no_takeback"  # answer theirs first
    assert _code(ask, "accept", {0}) == "no_takeback"  # no offer
    # A declined offer is not made again before the next move (where nobody is asked, no limit).
    assert _code(ask, "offer", {1}, declined={1}) == "no_takeback"
    assert ask("offer", {0}, declined={1}) == conduct.TakebackRuling("offer", 0)
    assert ask("offer", {0}, consent=False, declined={0}) == conduct.TakebackRuling("grant", 0, 2)
    assert _code(ask, "offer", set()) == "not_your_seat"
    with pytest.raises(ProtocolError) as caught:
        conduct.takeback(
            "offer", over=True, seats={0}, movers=movers, offer=None, consent_needed=True
        )
    assert caught.value.code.value == "game_over"


def test_a_claim_needs_an_online_opponent_who_moved_and_has_been_gone_the_grace_period():
    fischer = TimeControl.parse("5+3")
    grace = conduct.LEAVE_GRACE_TIMED_MS

    def claim(**changes):
        kwargs = dict(
            online=True,
            control=fischer,
            over=False,
            seats={0},
            away_ms={1: grace},
            moved={0, 1},
        )
        return conduct.claim(**{**kwargs, **changes})

    assert claim() == 0
    assert conduct.leave_grace_ms(None) == conduct.LEAVE_GRACE_UNTIMED_MS
    assert _code(claim, away_ms={1: grace - 1}) == "cannot_claim"
    assert _code(claim, away_ms={}) == "cannot_claim"
    assert _code(claim, away_ms={0: grace * 2}) == "cannot_claim"  # you are the one away
    assert _code(claim, moved={0}) == "cannot_claim"  # abort instead
    assert _code(claim, online=False) == "cannot_claim"
    assert _code(claim, control=TimeControl.parse("d2")) == "cannot_claim"
    assert _code(claim, seats=set()) == "not_your_seat"


def test_going_on_from_a_pause():
    assert conduct.go_on({0, 1}, 7, 7, {1}) == {1}
    assert _code(conduct.go_on, None, 7, 7, {1}) == "not_paused"
    assert _code(conduct.go_on, {0}, 7, 7, {1}) == "not_paused"  # went on already
    assert _code(conduct.go_on, {0, 1}, 7, 6, {1}) == "stale_version"
    assert _code(conduct.go_on, {0, 1}, 7, 7, set()) == "not_your_seat"


def _entries(*items: tuple[str, str, int]) -> list[ActionRow]:
    return [
        ActionRow(number, text, mover, "", kind)
        for number, (kind, text, mover) in enumerate(items, start=1)
    ]


def test_a_log_with_offers_takebacks_and_an_ending_replays_to_the_same_game():
    game = find_game("akros")
    state = game.new_initial_state()
    draw = state.legal_actions() or None
    outcomes = state.chance_outcomes()
    draw = str(outcomes[0][0])
    after_draw = state.apply(outcomes[0][0])
    keep = str(after_draw.legal_actions()[0])
    after_keep = after_draw.apply(after_draw.legal_actions()[0])
    ifrit = str(after_keep.legal_actions()[0])
    log = _entries(
        ("action", draw, -1),
        ("action", keep, 0),
        ("offer", "offer takeback", 0),
        ("action", ifrit, 1),  # a move: the offer lapses
        ("takeback", "takeback 2", 0),
        ("action", keep, 0),
        ("offer", "offer takeback", 0),
        ("decline", "decline takeback", 1),
        ("resign", "resign", 1),
    )
    played = replay_log(game, log[:4])
    assert played.offer is None and played.actions == [draw, keep, ifrit]
    played = replay_log(game, log[:7])
    assert played.actions == [draw, keep] and played.movers == [-1, 0]
    assert played.offer == 0 and played.version == 7 and str(played.state) == str(after_keep)
    played = replay_log(game, log[:8])
    assert played.offer is None and played.declined == {0}  # a restart keeps the refusal
    played = replay_log(game, log)
    assert played.offer is None and played.ended == Ending("resign", 1) and played.over
    outcome = played.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.result == "1-0"
    assert outcome.reason == "Ifrit resigned: Jinn wins"
    with pytest.raises(ValueError, match="follows the end"):
        replay_log(game, [*log, ActionRow(10, keep, 0, "", "action")])
    with pytest.raises(ValueError, match="does not follow"):
        replay_log(game, [log[0], log[2]])
    with pytest.raises(ValueError, match="unknown kind"):
        replay_log(game, [ActionRow(1, "x", 0, "", "teleport")])


@pytest.mark.parametrize(
    ("kind", "seat", "winner", "result", "reason"),
    [
        ("resign", 0, 1, "0-1", "Dark resigned: Light wins"),
        ("flag", 1, 0, "1-0", "Light ran out of time: Dark wins on time"),
        ("claim", 0, 0, "1-0", "Light left the game, and Dark claimed the win"),
        ("abort", 1, None, "*", "aborted by Light before both sides had moved: no result"),
    ],
)
def test_each_ending_says_how_the_game_ended(kind, seat, winner, result, reason):
    outcome = Ending(kind, seat).outcome(find_game("acadmu"))
    assert (outcome.winner, outcome.result, outcome.reason) == (winner, result, reason)
