"""The pygame-ce front end: app, scenes, widgets, board view, audio, theme. Nothing imports ui."""
