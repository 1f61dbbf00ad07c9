"""The gamehall command line (Typer + Rich): the outermost layer, with the web."""
