"""``kabuto demo``: one push into a fresh 2-player game, headless; prints what it did."""
from __future__ import annotations

from kabuto.cli import UsageError, command, subparser
from kabuto.rules.errors import IllegalMove

DESCRIPTION = "One push into a fresh 2-player game, headless; prints what it did and what fell."


@command("demo")
def main(argv: list[str]) -> int:
    ap = subparser("demo", DESCRIPTION)
    ap.add_argument("--kind", default="medium", choices=["small", "medium"],
                    help="the disc to push from the first player's inventory (default medium)")
    ap.add_argument("--entry", type=float, default=180.0,
                    help="where the platform touches the ring, degrees round it (default 180)")
    ap.add_argument("--heading", type=float, default=0.0,
                    help="push direction off the inward normal, degrees (default 0)")
    ap.add_argument("--speed", type=float, default=None,
                    help="hand speed in m/s (default: the fastest the rules allow)")
    ap.add_argument("--wrestlers", default="mike,hank", help="two wrestler keys (default mike,hank)")
    args = ap.parse_args(argv)
    from kabuto.rules.game import Game

    try:
        game = Game.new(players=2, wrestlers=args.wrestlers.split(","), seed=0, first_player=0)
        speed = game.materials.sim.max_speed if args.speed is None else args.speed
        outcome = game.push(args.kind, args.entry, args.heading, speed)
    except (IllegalMove, ValueError) as exc:
        raise UsageError(str(exc)) from None
    result = outcome.physics
    print(f"{game.seats[0].label} pushed a {args.kind} disc from {args.entry:g} deg, heading "
          f"{args.heading:+g} deg, at {speed:g} m/s: {result.steps} steps, {result.time:.3f} s simulated")
    if not result.fell:
        print("nothing fell")
    for f in result.fell:
        print(f"  {f.piece} ({f.kind}) fell at {f.time:.3f} s"
              + (f", carried by {f.carried_by}" if f.carried_by else ""))
    print(game.status())
    return 0
