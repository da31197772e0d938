"""The command line's subcommands, a module per concern (the game's tools, the database,
the benchmarks); ``bot/__main__.py`` assembles them with the ones that reach Discord."""
