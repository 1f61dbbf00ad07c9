"""Play: the authority over games: referee, conduct, history, live games, chat and the hub."""
