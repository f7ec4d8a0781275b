"""Player names, re-exported from their home beside the world file (`game.world.player_names`:
`LOCAL_PLAYER`, `check_player_name`), so the rules import them from `game.player_names` or `game.player`."""

from .world.player_names import LOCAL_PLAYER, MAX_NAME_LENGTH, check_player_name

__all__ = ["LOCAL_PLAYER", "MAX_NAME_LENGTH", "check_player_name"]
