"""``python -m gamehall.protocol``: print or write the web protocol's JSON Schema."""

import sys

from gamehall.protocol.schema import main

sys.exit(main())
