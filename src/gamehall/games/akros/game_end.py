"""End of the game: after turn 9, each environment's scores (1 per servant standing on it plus
the tiles stacked under it), who claims it, and who wins (more claims; equal counts go to the
Ifrit). :class:`GameEnd` is a part of :class:`~gamehall.games.akros.state.AkrosState`, kept
apart so the rulebook's end reads alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gamehall.core.game import Outcome
from gamehall.games.akros import rules
from gamehall.games.akros.rules import ENVIRONMENT_NAMES, IFRIT, JINN, OVER, PLAYER_NAMES

if TYPE_CHECKING:
    from gamehall.games.akros.game import AkrosGame


@dataclass(frozen=True)
class EnvironmentScore:
    """One environment's count: each player's score and who claims it (None: equal scores)."""

    environment: int
    jinn: int
    ifrit: int
    claimed_by: int | None

    @property
    def name(self) -> str:
        return ENVIRONMENT_NAMES[self.environment]


class GameEnd:
    """The end of the game and its scoring, as methods of the state (a mix-in of its class)."""

    __slots__ = ()

    game: AkrosGame
    step: int
    stacks: tuple[int, ...]
    jinn: tuple[int, ...]
    ifrit: tuple[int, ...]

    def environment_scores(self) -> tuple[EnvironmentScore, ...]:
        """Each environment's scores and claimant as the board stands (usable mid-game)."""
        environments = self.game.board.environments
        jinn = rules.environment_totals(self.jinn, self.stacks, environments)
        ifrit = rules.environment_totals(self.ifrit, self.stacks, environments)
        return tuple(
            EnvironmentScore(e, jinn[e], ifrit[e], rules.claimant(jinn[e], ifrit[e]))
            for e in rules.ENVIRONMENTS
        )

    def claims(self) -> tuple[int, int]:
        """How many environments each player claims as the board stands (Jinn, Ifrit)."""
        scores = self.environment_scores()
        return (
            sum(1 for s in scores if s.claimed_by == JINN),
            sum(1 for s in scores if s.claimed_by == IFRIT),
        )

    def returns(self) -> tuple[float, float]:
        if self.step != OVER:
            return (0.0, 0.0)
        return (1.0, -1.0) if rules.winner(*self.claims()) == JINN else (-1.0, 1.0)

    def outcome(self) -> Outcome | None:
        if self.step != OVER:
            return None
        scores = self.environment_scores()
        jinn_claims, ifrit_claims = self.claims()
        winner = rules.winner(jinn_claims, ifrit_claims)
        parts = []
        for player in (JINN, IFRIT):
            names = [s.name for s in scores if s.claimed_by == player]
            if names:
                parts.append(f"{PLAYER_NAMES[player].capitalize()} claims {', '.join(names)}")
        ties = [s.name for s in scores if s.claimed_by is None]
        if ties:
            parts.append(f"{', '.join(ties)} unclaimed")
        if jinn_claims == ifrit_claims:
            parts.append(f"claims {jinn_claims}–{ifrit_claims} go to the Ifrit")
        return Outcome(winner, "; ".join(parts), (float(jinn_claims), float(ifrit_claims)))

    def scores(self) -> tuple[float, ...]:
        """How many environments each player claims as the board stands (Jinn, Ifrit)."""
        jinn_claims, ifrit_claims = self.claims()
        return (float(jinn_claims), float(ifrit_claims))

    def _servants_and_tiles(self, player: int) -> list[tuple[int, int]]:
        """Per environment, ``player``'s servants on it and the tiles stacked under them."""
        environments = self.game.board.environments
        counts = [(0, 0)] * len(rules.ENVIRONMENTS)
        for region in self.jinn if player == JINN else self.ifrit:
            servants, tiles = counts[environments[region]]
            counts[environments[region]] = (servants + 1, tiles + self.stacks[region - 1])
        return counts

    def evaluate(self, player: int) -> float:
        """Claims margin plus a tenth of the summed score margins, squashed into (-1, 1); the
        Ifrit gets half a claim for winning ties."""
        if self.step == OVER:
            return self.returns()[player]
        scores = self.environment_scores()
        jinn_claims, ifrit_claims = self.claims()
        margin = ifrit_claims - jinn_claims + 0.5
        margin += 0.1 * sum(s.ifrit - s.jinn for s in scores)
        value = margin / (1 + abs(margin))
        return value if player == IFRIT else -value
