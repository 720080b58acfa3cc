"""The rules modules, one per game. Each plays its game as a state machine (see ``base``)."""
