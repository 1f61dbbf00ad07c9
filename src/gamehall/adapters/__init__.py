"""Research adapters: every registered game in PettingZoo, Gymnasium and OpenSpiel.

Installed with the extra ``rl`` (``pip install 'gamehall[rl]'``). Each adapter is a thin layer
over the core protocol and the game's plugin (its ``encoding``, ``facts``, ``chance_steps`` and
``episodes``), so it knows no game by name:

* :mod:`gamehall.adapters.pettingzoo`: ``env(name)``, an AEC environment;
* :mod:`gamehall.adapters.gymnasium`: ``gymnasium.make("gamehall/<Title>-v0", opponent="hard")``,
  one seat against a computer level;
* :mod:`gamehall.adapters.openspiel`: ``pyspiel.load_game("python_gamehall_<name>")``.
"""
