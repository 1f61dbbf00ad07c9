"""N games of one game stepped together in compiled code, for learners (the way pgx and EnvPool do
it): the state of every game in arrays, observations, legal-action masks, rewards and
terminations out as NumPy arrays, chance and the opponent played inside, auto-reset.

* :class:`VectorGame`: the plain array API (``reset(seed)``, ``step(actions)``), for NumPy,
  PyTorch or JAX;
* :class:`gamehall.vector.gym.GamehallVectorEnv`: the same as a ``gymnasium.vector.VectorEnv``,
  made by ``gymnasium.make_vec("gamehall/<Title>-v0", num_envs=N,
  vectorization_mode="vector_entry_point")``.

A game takes part through its plugin's ``vector`` hook (see :mod:`gamehall.kernels.batch`);
:func:`warm_up` compiles its kernels (``gamehall warm-up`` does, with the research steps).
"""

from gamehall.vector.core import OPPONENTS, Step, VectorGame, warm_up

__all__ = ["OPPONENTS", "Step", "VectorGame", "warm_up"]
