"""``python -m kabuto`` is the ``kabuto`` command."""
import sys

from kabuto.cli import main

sys.exit(main())
