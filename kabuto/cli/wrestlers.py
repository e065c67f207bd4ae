"""``kabuto wrestlers``: the wrestler cards as readable text (the text the app shows)."""
from __future__ import annotations

import json
from collections.abc import Sequence

from kabuto.cli import UsageError, command, subparser


@command("wrestlers")
def main(argv: Sequence[str] | None = None) -> int:
    ap = subparser("wrestlers", "List the eight wrestler cards: beetle, signature pieces and the two "
                   "signature moves of each. --junior lists the five Junior League cards instead.")
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="only these wrestlers (key or name, e.g. mike or 'Hercules Hank')")
    ap.add_argument("--junior", action="store_true", help="the Junior League cards")
    ap.add_argument("--json", action="store_true", help="print the cards as JSON data")
    args = ap.parse_args(list(argv or []))
    try:
        if args.junior:
            from kabuto.rules.junior import junior_card, load_junior, render_junior_card

            cards = [junior_card(n) for n in args.names] if args.names else list(load_junior())
            texts = [render_junior_card(c) for c in cards]
            data: list[dict[str, object]] = [{"key": c.key, "name": c.name, "wrestler": c.wrestler.key, "inventory": c.discs,
                     "signature": list(c.signature), "text": c.text} for c in cards]
        else:
            from kabuto.rules.wrestlers import load_wrestlers, render_card, wrestler

            ws = [wrestler(n) for n in args.names] if args.names else list(load_wrestlers())
            texts = [render_card(w) for w in ws]
            data = [{"key": w.key, "name": w.name, "beetle": w.beetle, "colour": w.colour,
                     "signature": [{"key": s.key, "name": s.name, "count": s.count} for s in w.signature],
                     "moves": [{"name": m.name, "text": m.text, "replaces_turn": m.replaces_turn}
                               for m in w.moves]} for w in ws]
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print("\n\n".join(texts))
    return 0
