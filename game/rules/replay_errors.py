"""The error a bad replay line raises, apart from the event types, so every module of events can raise it.

Owns: `ReplayFormatError`. Does not own: the events or the replay format (`game.rules.replay`,
`game.rules.inventory_events`).
"""

from __future__ import annotations


class ReplayFormatError(ValueError):
    """A replay line that is not a valid event; the message names the source and the line."""
