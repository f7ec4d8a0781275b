"""Screen-space interface: HUD parts and the F3 debug overlay (Ursina)."""
