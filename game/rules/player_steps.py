"""The players' own steps of one tick, taken together.

Owns: `PlayerSteps`, which steps every player's body for the tick (`Player.intent`, then the
physics step) in join order: a player whose F3 overlay is shown (`Toggles.overlay`) alone, with
its move report for the overlay (`physics.step` with its `debug` sink), every other player in one
`physics.Crowd` without pushes, which gives each body exactly what `physics.step` gives it alone,
only on whole arrays once the crowd is large enough (its vectorised path); their sinks are
emptied, so an overlay shown again never draws an old move. The players' pushes on one another
and the mobs' come after all the steps, in the session's tick (`game.rules.session`).
Does not own: what a step does (`physics`), what follows it for a player (`Player.take_step`:
the fall below the world, the tick count), nor who the players are (the session)."""

from __future__ import annotations

from collections.abc import Sequence

import physics
from physics import Body
from physics.broad_phase import WorldCache

from .player import Player


class PlayerSteps:
    """Steps the players of one world: `step(players, local_name)` once a tick."""

    def __init__(self, world: physics.CollisionWorld, settings: physics.MovementSettings, *,
                 world_cache: WorldCache | None = None) -> None:
        """`world_cache`: the block boxes the players' crowd shares with the session's other
        crowds (`physics.Crowd`'s `world_cache`; None: its own)."""
        self._settings = settings
        self._crowd = physics.Crowd(world, settings, pushes=False, world_cache=world_cache)
        self._members: list[str] = []
        """The names of the players in the crowd, in its order."""
        self._handles: list[int] = []
        self._stepped: list[Body] = []
        """The bodies the crowd's last step gave, in its order: a player still holding its own is
        not put back into the crowd (its rows already hold it)."""

    def step(self, players: Sequence[Player]) -> list[Body]:
        """Each of `players`' bodies after its own step this tick (asking each for its intent once,
        in order), in the same order."""
        intents = [player.intent() for player in players]
        together = [k for k, player in enumerate(players)
                    if not player.toggles.overlay and player.settings is self._settings]
        stepped: list[Body | None] = [None] * len(players)
        if together:
            for k, body in zip(together, self._step_together([players[k] for k in together],
                                                              [intents[k] for k in together])):
                stepped[k] = body
        for k, player in enumerate(players):
            shown = player.toggles.overlay
            if stepped[k] is None:
                stepped[k] = physics.step(player.body, player.world, intents[k], player.settings,
                                          debug=player.sink if shown else None)
            if not shown and player.sink.last is not None:
                player.sink.clear()
        return stepped

    def _step_together(self, players: list[Player], intents: list[physics.Intent]) -> tuple[Body, ...]:
        names = [player.name for player in players]
        crowd = self._crowd
        if names != self._members:
            for handle in self._handles:
                crowd.remove(handle)
            self._handles = [crowd.add(player.body) for player in players]
            self._members = names
        else:
            for handle, player, last in zip(self._handles, players, self._stepped):
                if player.body is not last:  # pushed, knocked back, respawned...
                    crowd.replace(handle, player.body)
        crowd.step(intents)
        self._stepped = list(crowd.bodies)
        return tuple(self._stepped)
