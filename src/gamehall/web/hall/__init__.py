"""Hall: everything around the games: names, accounts, seeks and pairing, ratings, the lobby."""
