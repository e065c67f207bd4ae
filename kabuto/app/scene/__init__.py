"""The app's scenes: the start menu, the table (ring, panels, aim), the replay viewer, overlays."""
