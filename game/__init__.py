"""Boxel the game: the voxel world (`game.world`, numpy only) and everything drawn with Ursina."""
