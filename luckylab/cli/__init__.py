"""The command line, one module per subcommand.

Each module listed in ``COMMANDS`` defines ``add_parser(subparsers)``, which adds its
subcommand and sets ``func`` (a function of the parsed arguments returning an exit code).
"""

COMMANDS = [
    "luckylab.cli.board",
    "luckylab.cli.foil",
    "luckylab.cli.lab",
    "luckylab.cli.lite",
    "luckylab.cli.simulate",
]
