"""The window: the only code that imports Ursina or Panda3D."""
