"""Drawing Boxel with Ursina: section meshes on screen (`chunk_renderer`), the physics -> Ursina axis
mapping (`space`), and a screenshot preview (`preview`). Everything Ursina-facing lives here; the
arrays it draws come from the numpy-only `game.world`."""
