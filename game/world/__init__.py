"""The voxel world: blocks, chunks, terrain, collision queries, meshing to arrays, saving.

numpy only: nothing here imports Ursina or Panda3D, so all of it is tested headless.
"""
