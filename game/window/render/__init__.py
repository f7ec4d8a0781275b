"""Drawing Boxel with Ursina: section meshes on screen (`chunk_renderer`), the physics -> Ursina axis
mapping (`space`), mobs and projectiles (`entity_view`), wireframe boxes (`box_lines`), the window
(`window`) and its screenshots (`screenshots`). It draws plain values it is handed and imports no game logic: only `game.window.render`,
`game.world` (the numpy arrays it draws) and `physics`."""
