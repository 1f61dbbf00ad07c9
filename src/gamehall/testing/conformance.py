"""The conformance checks: everything the core protocol promises, checked on one game.

Random play from the initial state checks every state on the way (:func:`check_state`): the
text form round-trips, the player to move is a player, chance or terminal, legal actions are
unique, in dense-index order and match the mask, chance probabilities are exact and sum to one,
illegal actions are refused without changing anything, outcomes are data. Then the options (an
unknown or badly typed one is refused, naming it), the dense action indices, records (they
round-trip, a forbidden move is reported with its number, the result must match the moves),
the parts front ends build moves from, and the facts the game declares for research libraries.

:func:`conformance_checks` lists the checks for one registered game; :func:`check_game` runs
them (and the golden playthrough, if the game declares one) and raises
:class:`~gamehall.testing.checks.ConformanceError` naming every check that failed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from gamehall.ai import RandomAgent
from gamehall.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    IllegalActionError,
    InvalidOptionError,
    PlayedGame,
    Record,
    RecordError,
    State,
    TooManyOutcomesError,
    find_game,
    find_plugin,
    game_class,
    make_record,
    play_game,
)
from gamehall.testing.checks import (
    Check,
    CheckResult,
    ConformanceError,
    GameLike,
    Skipped,
    expect,
    expect_error,
    registered,
    run_checks,
)

SEEDS = range(3)
"""The seeds of the random games each check plays."""
MAX_STEPS = 10_000
"""A random game longer than this is taken not to end."""
PROTOCOL_PART_KEYS = frozenset({"text", "index", "mover"})
"""Keys the web protocol adds to an action's parts itself: a game's parts may not use them."""
BAD_VALUES: Mapping[str, tuple[Any, ...]] = {
    "int": ("ten", "1.5", True),
    "bool": ("maybe", "2"),
    "choice": ("no-such-choice",),
}
"""Bad values for each kind of option (a choice option also gets a value outside its choices)."""


# --- one state -----------------------------------------------------------------------------------


def check_state(game: Game, state: State) -> None:
    """Everything the protocol promises about one state."""
    text = str(state)
    where = f"{game.name} {text!r}"
    again = game.parse_state(text)
    expect(again == state, f"{where}: parse_state(str(state)) gives a different state: {again!r}")
    expect(hash(again) == hash(state), f"{where}: the parsed state hashes differently")
    expect(str(again) == text, f"{where}: the parsed state's text is {str(again)!r}")
    player = state.current_player
    expect(
        again.current_player == player,
        f"{where}: the parsed state has {again.current_player} to move, not {player}",
    )
    expect(
        player in (CHANCE, TERMINAL) or 0 <= player < game.num_players,
        f"{where}: current_player {player!r} is not a player index, CHANCE or TERMINAL",
    )
    legal = state.legal_actions()
    mask = state.legal_action_mask()
    if state.is_terminal() or state.is_chance_node():
        what = "a finished game" if state.is_terminal() else "a chance node"
        expect(legal == (), f"{where}: {what} lists legal player actions {_shown(legal)}")
        expect(not any(mask), f"{where}: {what} has legal entries in its action mask")
    else:
        _check_legal_actions(game, state, legal, mask, where)
    if state.is_chance_node():
        _check_chance(game, state, where)
    if state.is_terminal():
        outcome = state.outcome()
        if outcome is None:
            raise ConformanceError(f"{where}: the game is over but outcome() is None")
        expect(
            len(outcome.scores) == game.num_players,
            f"{where}: the outcome has {len(outcome.scores)} scores for {game.num_players} players",
        )
        expect(
            outcome.result_tag() in ("1-0", "0-1", "1/2-1/2"),
            f"{where}: result tag {outcome.result_tag()!r}",
        )
        expect(
            len(state.returns()) == game.num_players,
            f"{where}: {len(state.returns())} returns for {game.num_players} players",
        )
    else:
        expect(state.outcome() is None, f"{where}: the game is not over but has an outcome")
        expect(
            all(r == 0 for r in state.returns()),
            f"{where}: returns {state.returns()} before the end (they are zeros until then)",
        )
    check_illegal(game, state)


def _shown(actions: Any, limit: int = 5) -> str:
    items = [str(a) for a in actions]
    more = f", … ({len(items)} in all)" if len(items) > limit else ""
    return "[" + ", ".join(items[:limit]) + more + "]"


def _check_legal_actions(
    game: Game, state: State, legal: tuple[Action, ...], mask: list[bool], where: str
) -> None:
    expect(legal, f"{where}: a decision node needs at least one legal action")
    expect(len(set(legal)) == len(legal), f"{where}: legal actions repeat: {_shown(legal, 40)}")
    expect(
        len(mask) == game.num_distinct_actions,
        f"{where}: the mask has {len(mask)} entries, not num_distinct_actions "
        f"{game.num_distinct_actions}",
    )
    expect(
        sum(mask) == len(legal),
        f"{where}: the mask marks {sum(mask)} actions legal, legal_actions lists {len(legal)}",
    )
    indices = [game.action_index(action) for action in legal]
    expect(
        indices == sorted(indices),
        f"{where}: legal actions are not in dense-index order: {indices[:20]}",
    )
    # The messages are built only on a failure: this loop runs for every legal action of every
    # state of every random game.
    for action, index in zip(legal, indices, strict=True):
        notation = str(action)
        parsed = game.parse_action(notation)
        if parsed != action:
            raise ConformanceError(
                f"{where}: parse_action({notation!r}) gives {parsed!r}, not {action!r}"
            )
        if state.parse_action(notation) != action:
            raise ConformanceError(f"{where}: the state reads {notation!r} as another action")
        if not 0 <= index < game.num_distinct_actions:
            raise ConformanceError(
                f"{where}: {notation!r} has index {index}, outside "
                f"0..{game.num_distinct_actions - 1}"
            )
        if not mask[index]:
            raise ConformanceError(f"{where}: {notation!r} is legal but not in the mask")
        back = game.index_action(index)
        if back != action:
            raise ConformanceError(f"{where}: index_action({index}) is {back!r}, not {action!r}")


def _check_chance(game: Game, state: State, where: str) -> None:
    try:
        outcomes = state.chance_outcomes()
    except TooManyOutcomesError:
        return  # too many to list: sampled, with exact probabilities (checked in random play)
    total = sum(p for _, p in outcomes)
    expect(total == 1, f"{where}: chance probabilities sum to {total}, not 1")
    for action, probability in outcomes:
        expect(
            isinstance(probability, Fraction) and probability > 0,
            f"{where}: chance outcome {str(action)!r} has probability {probability!r} "
            "(an exact Fraction above 0 is expected)",
        )
    expect(
        len({a for a, _ in outcomes}) == len(outcomes),
        f"{where}: chance outcomes repeat: {_shown(a for a, _ in outcomes)}",
    )
    for action, probability in outcomes[:20]:
        given = state.chance_probability(action)
        expect(
            given == probability,
            f"{where}: chance_probability({str(action)!r}) is {given}, the list says {probability}",
        )
        expect(
            game.parse_action(str(action)) == action,
            f"{where}: chance outcome {str(action)!r} does not parse back",
        )


def illegal_actions(game: Game, state: State, limit: int = 5) -> list[Action]:
    """Up to ``limit`` player actions the rules forbid in ``state``."""
    legal = set(state.legal_actions())
    found = []
    for index in range(game.num_distinct_actions):
        action = game.index_action(index)
        if action not in legal:
            found.append(action)
            if len(found) == limit:
                break
    return found


def check_illegal(game: Game, state: State) -> None:
    """An action that is not allowed raises IllegalActionError and leaves the state alone."""
    before = str(state)
    where = f"{game.name} {before!r}"
    for action in illegal_actions(game, state):
        notation = str(action)
        expect_error(
            IllegalActionError,
            lambda action=action: state.apply(action),
            f"{where}: apply({notation!r}), which is not legal",
        )
        expect_error(
            IllegalActionError,
            lambda notation=notation: state.parse_action(notation),
            f"{where}: state.parse_action({notation!r}), which is not legal",
        )
    expect(str(state) == before, f"{where}: refusing illegal actions changed it to {str(state)!r}")
    expect(game.parse_state(before) == state, f"{where}: refusing illegal actions changed it")


# --- whole games -----------------------------------------------------------------------------------


def random_play_conforms(name: str, seed: int, options: Mapping[str, Any] | None = None) -> None:
    """A seeded random game from the initial state, every state checked on the way; chance
    samples only possible outcomes; the game ends, within ``max_game_length`` if declared."""
    game = find_game(name, **(options or {}))
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while True:
        check_state(game, state)
        if state.is_terminal():
            return
        if state.is_chance_node():
            action = state.sample_chance(rng)
            where = f"{name} {str(state)!r}: sample_chance gave {str(action)!r}"
            expect(state.chance_probability(action) > 0, f"{where}, of probability 0")
            expect(state.is_chance_outcome(action), f"{where}, which is not a chance outcome")
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
        steps += 1
        expect(steps < MAX_STEPS, f"{name}: a random game (seed {seed}) does not end")
        bound = game.max_game_length
        expect(
            bound is None or steps <= bound,
            f"{name}: a random game (seed {seed}) is longer than max_game_length {bound}",
        )


def moves_are_told_in_words(name: str) -> None:
    """Seeded random games: every action, chance included, is told (``move_words``) in one
    non-empty line that names its player by the game's name for them, capitalised ("Dark",
    "Cross"; a chance step names a player or "Chance"); ``move_chapters`` gives each action one
    chapter of single-line texts."""
    from gamehall.core.words import move_chapters, move_words

    game = find_game(name)
    names = [player.capitalize() for player in game.player_names]
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_initial_state()
        states = [state]
        while not state.is_terminal() and len(states) < MAX_STEPS:
            chance = state.is_chance_node()
            action = state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
            told = move_words(state, action)
            where = f"{name} {str(state)!r}: the words for {str(action)!r}, {told!r},"
            expect(told.strip() != "" and "\n" not in told, f"{where} are not one line")
            if chance:
                expect(
                    any(n in told for n in [*names, "Chance"]),
                    f"{where} name no player (one of {', '.join(names)}) nor Chance",
                )
            else:
                mover = names[state.current_player]
                expect(mover in told, f"{where} do not name the mover, {mover}")
            state = state.apply(action)
            states.append(state)
        chapters = move_chapters(states)
        expect(
            len(chapters) == len(states) - 1,
            f"{name}: move_chapters gave {len(chapters)} chapters for {len(states) - 1} actions",
        )
        for chapter in chapters:
            expect(
                "\n" not in chapter.heading and "\n" not in chapter.end,
                f"{name}: a chapter's text is more than one line: {chapter!r}",
            )


def deal_is_reproducible(name: str) -> None:
    """``deal(seed)`` draws the opening chance events the same way each time."""
    game = find_game(name)
    first, again = game.deal(5), game.deal(5)
    expect(first == again, f"{name}: deal(5) gives {str(first)!r}, then {str(again)!r}")
    expect(not first.is_chance_node(), f"{name}: deal(5) stops at a chance node {str(first)!r}")


def actions_have_dense_indices(name: str) -> None:
    """Every index in ``range(num_distinct_actions)`` names an action whose notation and index
    round-trip; an index outside is refused."""
    game = find_game(name)
    for index in range(game.num_distinct_actions):
        action = game.index_action(index)
        expect(
            game.action_index(action) == index,
            f"{name}: index_action({index}) is {str(action)!r}, whose action_index is "
            f"{game.action_index(action)}",
        )
        expect(
            game.parse_action(str(action)) == action,
            f"{name}: action {index}, {str(action)!r}, does not parse back",
        )
    for outside in (game.num_distinct_actions, -1):
        expect_error(ValueError, lambda i=outside: game.index_action(i), f"{name}: index {outside}")


def unknown_option_is_refused(name: str) -> None:
    """An option the game does not have is an InvalidOptionError naming it."""
    expect_error(
        InvalidOptionError,
        lambda: find_game(name, no_such_option=1),
        f"{name} with no_such_option=1",
        match="no_such_option",
    )


def bad_option_values_are_refused(name: str) -> None:
    """A value of the wrong kind (or outside a choice's choices) names its option."""
    for spec in game_class(name).option_specs:
        for value in BAD_VALUES.get(spec.kind, ()):
            expect_error(
                InvalidOptionError,
                lambda spec=spec, value=value: find_game(name, **{spec.name: value}),
                f"{name} with {spec.kind} option {spec.name}={value!r}",
                match=spec.name,
            )


def options_describe_themselves(name: str) -> None:
    """Each option describes itself as JSON-ready data (a form is built from it)."""
    for spec in game_class(name).option_specs:
        described = spec.describe()
        expect(
            described["name"] == spec.name and described["kind"] == spec.kind,
            f"{name}: option {spec.name} describes itself as {described}",
        )
        json.dumps(described)
        if spec.kind == "choice":
            expect(
                spec.default in described["choices"],
                f"{name}: option {spec.name}'s default {spec.default!r} is not one of its choices",
            )


def default_options_and_variant_text(name: str) -> None:
    """With default options the variant text is empty and reads back as the same game."""
    game = find_game(name)
    expect(game.variant_text() == "", f"{name}: default options give {game.variant_text()!r}")
    expect(
        type(game).from_variant_text("") == game,
        f"{name}: from_variant_text('') is not the default game",
    )
    for spec in game.option_specs:
        expect(
            game.options[spec.name] == spec.default,
            f"{name}: option {spec.name} is {game.options[spec.name]!r}, its default "
            f"{spec.default!r}",
        )


def played_record(name: str, seed: int = 0, **options: Any) -> tuple[Game, PlayedGame, Record]:
    """A whole game between random players, and its record."""
    game = find_game(name, **options)
    played = play_game(
        game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, max_actions=20_000
    )
    expect(
        played.final.is_terminal(),
        f"{name}: a random game (seed {seed}) is not over after {len(played.actions)} actions",
    )
    return game, played, make_record(game, played.actions, seed=seed, final=played.final)


def records_round_trip(name: str) -> None:
    """A played game's record reads back to the same tags and actions and replays the game."""
    _game, played, record = played_record(name)
    parsed = Record.parse(str(record))
    expect(parsed.tags == record.tags, f"{name}: the record's tags read back as {parsed.tags}")
    expect(parsed.actions == record.actions, f"{name}: the record's actions read back otherwise")
    outcome = played.final.outcome()
    if outcome is None:
        raise ConformanceError(f"{name}: the played game is over but has no outcome")
    expect(
        parsed.tags["Result"] == outcome.result_tag(),
        f"{name}: the record's Result is {parsed.tags['Result']!r}, the game's "
        f"{outcome.result_tag()!r}",
    )
    replayed = parsed.replay()
    expect(
        replayed == played.states,
        f"{name}: replaying the record gives other states (first at move "
        f"{_first_difference(replayed, played.states)})",
    )


def _first_difference(a: list[State], b: list[State]) -> int:
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def replay_names_an_illegal_moves_number(name: str) -> None:
    """A record with a forbidden move fails to replay, saying the move's number and text."""
    game, played, record = played_record(name, seed=4)
    # The first decision node where the rules forbid something: put a forbidden action there.
    found = next(
        (
            (number, illegal_actions(game, state, 1)[0])
            for number, state in enumerate(played.states[:-1], 1)
            if not state.is_chance_node() and illegal_actions(game, state, 1)
        ),
        None,
    )
    if found is None:
        raise Skipped("no decision in the game forbids any action")
    number, illegal = found
    record.actions[number - 1] = str(illegal)
    error = expect_error(
        RecordError,
        lambda: Record.parse(str(record)).replay(),
        f"{name}: a record with the forbidden move {str(illegal)!r} as move {number}",
        match=rf"^move {number}: ",
    )
    carried = error.move_number if isinstance(error, RecordError) else None
    expect(carried == number, f"{name}: the RecordError's move_number is {carried}, not {number}")
    expect(str(illegal) in str(error), f"{name}: the error {str(error)!r} does not show the move")


def result_tag_matches_the_moves(name: str) -> None:
    """A record whose Result is not what its moves come to fails to replay; so does a result
    on an unfinished game; ``*`` is fine."""
    _game, _played, record = played_record(name, seed=2)
    real = record.tags["Result"]
    for wrong in sorted({"1-0", "0-1", "1/2-1/2"} - {real}):
        record.tags["Result"] = wrong
        expect_error(
            RecordError,
            lambda: Record.parse(str(record)).replay(),
            f"{name}: a record of a {real} game tagged Result {wrong!r}",
            match="Result",
        )
    record.actions = record.actions[: len(record.actions) // 2]
    record.tags["Result"] = real
    expect_error(
        RecordError,
        lambda: Record.parse(str(record)).replay(),
        f"{name}: half a game's record tagged Result {real!r}",
        match="not over",
    )
    record.tags["Result"] = "*"
    states = Record.parse(str(record)).replay()
    expect(
        len(states) == len(record.actions) + 1,
        f"{name}: half a game tagged '*' replays to {len(states)} states, not "
        f"{len(record.actions) + 1}",
    )


def action_parts_tell_legal_actions_apart(name: str) -> None:
    """Boards build moves from the parts: each legal action's parts are JSON-ready, have a kind,
    leave the protocol's keys alone, and no two legal actions of a position share their parts."""
    game = find_game(name)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply_trusted(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            seen = set()
            for action in legal:
                parts = game.action_parts(action)
                where = f"{name} {str(state)!r}: the parts of {str(action)!r}, {parts!r},"
                expect(isinstance(parts, dict), f"{where} are not a dict")
                expect(not parts or "kind" in parts, f"{where} have no 'kind'")
                clash = sorted(PROTOCOL_PART_KEYS & parts.keys())
                expect(not clash, f"{where} use the protocol's own keys {clash}")
                seen.add(json.dumps(parts, sort_keys=True))
            if any(game.action_parts(a) for a in legal):
                expect(
                    len(seen) == len(legal),
                    f"{name} {str(state)!r}: {len(legal)} legal actions share {len(seen)} parts",
                )
            state = state.apply_trusted(rng.choice(legal))


def declared_facts_hold(name: str) -> None:
    """The facts a game declares for research libraries (its plugin's ``facts``) hold in random
    play, whole games and each episode: no chance node where they declare none, no listed chance
    node with more outcomes than declared (chance steps included), no game longer than declared,
    returns inside the declared range (summing to zero in a zero-sum game)."""
    plugin = find_plugin(name)
    make_facts = plugin.load_facts()
    if make_facts is None:
        raise Skipped("the game declares no facts (GamePlugin.facts)")
    game = find_game(name)
    facts = make_facts(game)
    expect(
        facts.min_return <= facts.max_return,
        f"{name}: the declared return range {facts.min_return}..{facts.max_return} is empty",
    )
    steps = plugin.load_chance_steps()
    if steps is not None:
        expect(
            steps.max_outcomes() <= facts.max_chance_outcomes,
            f"{name}: a chance step has up to {steps.max_outcomes()} outcomes, the facts "
            f"declare at most {facts.max_chance_outcomes}",
        )
    starts: dict[str, Any] = {"the whole game": lambda rng: game.new_initial_state()}
    for episode, start in plugin.load_episodes().items():
        starts[f"episode {episode}"] = lambda rng, start=start: start(game, rng)
    for label, start in starts.items():
        for seed in SEEDS:
            rng = random.Random(seed)
            state = start(rng)
            length = 0
            while not state.is_terminal():
                where = f"{name}, {label}, seed {seed}, at {str(state)!r}"
                if state.is_chance_node():
                    expect(
                        not facts.deterministic,
                        f"{where}: a chance node, but the facts declare no chance "
                        "(max_chance_outcomes 0)",
                    )
                    if steps is None or not steps.applies(state):
                        try:
                            count = len(state.chance_outcomes())
                        except TooManyOutcomesError:
                            raise ConformanceError(
                                f"{where}: a chance node too big to list, and the plugin "
                                "declares no chance_steps to list it in (OpenSpiel needs them)"
                            ) from None
                        expect(
                            count <= facts.max_chance_outcomes,
                            f"{where}: {count} chance outcomes, the facts declare at most "
                            f"{facts.max_chance_outcomes}",
                        )
                    action = state.sample_chance(rng)
                else:
                    action = rng.choice(state.legal_actions())
                state = state.apply_trusted(action)
                length += 1
                expect(
                    length <= facts.max_game_length,
                    f"{name}, {label}, seed {seed}: longer than the declared max_game_length "
                    f"{facts.max_game_length}",
                )
            returns = state.returns()
            where = f"{name}, {label}, seed {seed}: returns {returns}"
            expect(
                all(facts.min_return <= r <= facts.max_return for r in returns),
                f"{where} outside the declared {facts.min_return}..{facts.max_return}",
            )
            expect(
                not facts.zero_sum or abs(sum(returns)) < 1e-9,
                f"{where} do not sum to zero, and the facts declare a zero-sum game",
            )


# --- the list ------------------------------------------------------------------------------------


def conformance_checks(name: str) -> list[Check]:
    """The conformance checks for the registered game ``name``, in the order they run."""
    checks = [
        Check(
            "conformance",
            f"random play conforms, seed {seed}",
            lambda seed=seed: random_play_conforms(name, seed),
        )
        for seed in SEEDS
    ]
    plain = {
        "moves are told in words": moves_are_told_in_words,
        "the deal is reproducible": deal_is_reproducible,
        "actions have dense indices": actions_have_dense_indices,
        "an unknown option is refused": unknown_option_is_refused,
        "bad option values are refused": bad_option_values_are_refused,
        "options describe themselves": options_describe_themselves,
        "default options and variant text": default_options_and_variant_text,
        "records round-trip": records_round_trip,
        "a replay names an illegal move's number": replay_names_an_illegal_moves_number,
        "the result tag must match the moves": result_tag_matches_the_moves,
        "action parts tell legal actions apart": action_parts_tell_legal_actions_apart,
        "the declared facts hold": declared_facts_hold,
    }
    checks += [
        Check("conformance", label, lambda check=check: check(name))
        for label, check in plain.items()
    ]
    return checks


def check_game(game: GameLike, *, playthrough: bool = True) -> list[CheckResult]:
    """Run every conformance check on ``game`` (a registered name, a plugin record or a game
    class; registered for the while if it is not), and its golden playthrough if it declares
    one and ``playthrough``. Returns the results; raises ConformanceError naming each check that
    failed (OpenSpiel's, pgx's and PettingZoo's ``api_test`` in one call)::

        from gamehall.testing import check_game
        from mygame.plugin import PLUGIN

        def test_mygame_conforms():
            check_game(PLUGIN)
    """
    from gamehall.testing.playthrough import playthrough_checks

    with registered(game) as name:
        checks = conformance_checks(name)
        if playthrough:
            checks += playthrough_checks(name)
        results = list(run_checks(checks))
    failed = [r for r in results if not r.ok]
    if failed:
        shown = "\n".join(f"- {r.name}: {r.error}" for r in failed)
        raise ConformanceError(f"{name} fails {len(failed)} of {len(results)} checks:\n{shown}")
    return results


__all__ = [
    "BAD_VALUES",
    "SEEDS",
    "action_parts_tell_legal_actions_apart",
    "actions_have_dense_indices",
    "bad_option_values_are_refused",
    "check_game",
    "check_illegal",
    "check_state",
    "conformance_checks",
    "deal_is_reproducible",
    "declared_facts_hold",
    "default_options_and_variant_text",
    "illegal_actions",
    "options_describe_themselves",
    "played_record",
    "random_play_conforms",
    "records_round_trip",
    "replay_names_an_illegal_moves_number",
    "result_tag_matches_the_moves",
    "unknown_option_is_refused",
]
