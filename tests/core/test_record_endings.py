"""How a record says a game ended: Result with the Termination tag.

A game ended off the board (resigned, lost on time, claimed, aborted) stops on a position that is
not over; its record replays when its Termination tag says why, and is refused when nothing does.
"""

from __future__ import annotations

import pytest

from gamehall.core import Record, RecordError, Termination, find_game, make_record

MIDDLE = "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -"  # a round with captures left to make


def _stopped(result: str, termination: str | None) -> Record:
    """A record that stops one move into ``MIDDLE``, with these tags."""
    tags = {"Game": "acadmu", "SetUp": MIDDLE, "Result": result}
    if termination is not None:
        tags["Termination"] = termination
    return Record.parse(str(Record(tags, ["RTxBS"])))


@pytest.mark.parametrize("termination", [None, "normal", "Dark resigned: Light wins", "draw"])
def test_a_decided_result_on_an_unfinished_game_needs_a_termination_off_the_board(termination):
    with pytest.raises(RecordError, match=r"not over.*Termination"):
        _stopped("0-1", termination).replay()


@pytest.mark.parametrize(
    ("termination", "said"),
    [
        ("resignation", 'Termination "resignation"'),
        ("time forfeit", 'Termination "time forfeit"'),
        ("Time forfeit", 'Termination "time forfeit"'),  # any case, as lichess writes it
        ("claim", 'Termination "claim"'),
        ("abandoned", 'Termination "abandoned"'),  # PGN's word, read and never written
    ],
)
def test_a_game_ended_off_the_board_replays_and_says_how(termination, said):
    record = _stopped("0-1", termination)
    states = record.replay()
    assert len(states) == 2 and not states[-1].is_terminal()
    ending = record.ending(states[-1])
    assert ending.startswith("The game ended off the board after 1 move")
    assert said in ending and "result 0-1" in ending and "not played out" in ending


def test_an_aborted_game_has_no_result():
    record = _stopped("*", "aborted")
    assert "aborted after 1 move, with no result" in record.ending(record.replay()[-1])
    with pytest.raises(RecordError, match="aborted game has no result"):
        _stopped("1-0", "aborted").replay()


def test_a_result_is_one_of_the_four():
    with pytest.raises(RecordError, match=r"'2-0'.*1-0, 0-1, 1/2-1/2, \*"):
        _stopped("2-0", "resignation").replay()


def test_the_writer_tags_an_ending_off_the_board_and_it_round_trips():
    game = find_game("acadmu")
    start = game.parse_state(MIDDLE)
    after = start.apply(start.parse_action("RTxBS"))
    ended = Termination("resignation", "1-0", "Light resigned: Dark wins")
    record = make_record(game, ["RTxBS"], setup=start, final=after, ended=ended)
    assert record.tags["Result"] == "1-0"
    assert record.tags["Termination"] == "resignation"
    assert record.tags["Ending"] == "Light resigned: Dark wins"
    again = Record.parse(str(record))
    assert again == record and again.termination == "resignation"
    assert again.ending(again.replay()[-1]) == (
        "The game ended off the board after 1 move: Light resigned: Dark wins (Termination "
        '"resignation", result 1-0). Its last position was not played out.'
    )


def test_a_game_ended_on_the_board_is_tagged_normal():
    game = find_game("acadmu")
    start = game.parse_state("0,0,0,0,2,0,0,0,0/3,0,0,0,0,0,0,0,0 d -")
    states = [start]
    for text in ("pass", "RTxBS", "RTxBS"):
        states.append(states[-1].apply(states[-1].parse_action(text)))
    assert states[-1].is_terminal()
    record = make_record(game, ["pass", "RTxBS", "RTxBS"], setup=start, final=states[-1])
    reason = states[-1].outcome().reason
    assert (record.tags["Termination"], record.tags["Ending"]) == ("normal", reason)
    assert record.ending(record.replay()[-1]).startswith("The game ended on the board")


@pytest.mark.parametrize(
    ("kind", "result"),
    [("aborted", "1-0"), ("resignation", "*"), ("normal", "1-0"), ("resignation", "1:0")],
)
def test_the_writer_refuses_an_ending_that_contradicts_itself(kind, result):
    with pytest.raises(ValueError, match=kind if kind == "normal" else "result"):
        Termination(kind, result)
