"""`game.session`, kept as a name: the Session lives in `game.rules.session` (tools and tests outside
this repository import `game.session.Session`). This module is that module, not a copy."""

import sys

from .rules import session as _session

sys.modules[__name__] = _session
