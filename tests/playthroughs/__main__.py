"""``python -m tests.playthroughs [--regen]``: check or rewrite the golden playthroughs."""

import sys

from tests.playthroughs import main

sys.exit(main())
