"""``python -m kabuto`` is the ``kabuto`` command."""
import sys

from kabuto.cli import main

if __name__ == "__main__":
    sys.exit(main())
