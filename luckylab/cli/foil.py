"""``luckylab foil --attack A --hands H1 H2 ... [--known ID ...] [--json]``: P(foil), exact
and simulated side by side, and how many players in seat order it takes (``I-FOIL-1``,
``I-FOIL-2``). A Stranger (``I-STR-3``) counts as a hand of 1.
"""

from __future__ import annotations

import argparse
import sys


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "foil", help="P(the table can foil an attack): exact, Monte Carlo, seats needed",
        description="How likely are the other players, together, to hold at least the attack "
                    "value in Luck? Exact (hypergeometric) and simulated side by side.")
    p.add_argument("--game", default="island",
                   help="whose deck the hands come from (island, kill, save) or a deck file; "
                        "default island")
    p.add_argument("--attack", type=int, required=True, help="the attack value to reach")
    p.add_argument("--hands", type=int, nargs="+", required=True, metavar="N",
                   help="each opponent's hand size, in seat order from the attacker's left "
                        "(a Stranger is 1)")
    p.add_argument("--known", type=int, nargs="*", default=[], metavar="ID",
                   help="ids of cards you have seen (your hand, the discards): not in their "
                        "hands")
    p.add_argument("--samples", type=int, default=100_000, help="Monte Carlo tables (100000)")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (0)")
    p.add_argument("--engine", choices=("numpy", "python"), default="numpy",
                   help="Monte Carlo engine (numpy)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..analysis.luck import foil_report, format_comparison
    from ..cards import load_deck
    from . import check_whole, dumps

    check_whole("--seed", args.seed, 0)
    check_whole("--samples", args.samples, 1, 10**8)
    deck = load_deck(args.game)
    try:
        report = foil_report(args.attack, args.hands, deck=deck, known=args.known,
                             samples=args.samples, seed=args.seed, engine=args.engine)
    except (ValueError, TypeError) as exc:
        print(f"luckylab: error: {exc}", file=sys.stderr)
        return 2
    report = {"game": args.game, **report}
    if args.json:
        print(dumps(report, indent=1))
        return 0
    hands = " ".join(map(str, report["hand_sizes"]))
    print(f"Attack {report['attack']} against hands {hands} from the {args.game} deck "
          f"({report['unseen_cards']} unseen cards, {report['known_cards']} known)")
    print(f"P(foil) exact      {_probability(report['p_foil_exact'])}  "
          f"(= {report['p_foil_exact_fraction']})")
    print(f"P(foil) simulated  {_probability(report['p_foil_monte_carlo'])}  "
          f"± {report['stderr']:.6f} "
          f"({report['samples']} tables, seed {report['seed']}, {report['engine']})")
    if report["z"] is not None:
        print(f"                   {report['z']:+.2f} standard errors from exact")
    print(f"\nHow many players, in seat order, hold {report['attack']} Luck between them:")
    print(format_comparison(report["players_needed"], title="players"))
    return 0


def _probability(p: float) -> str:
    """Six decimals, but never round a possible outcome to a certain one (or to 0)."""
    if 0 < p < 1e-4:
        return f"{p:.3e}"
    if 1 - 1e-4 < p < 1:
        return f"1 - {1 - p:.3e}"
    return f"{p:.6f}"
