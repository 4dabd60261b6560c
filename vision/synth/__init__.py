"""Synthetic dice frames with exact labels, for tests and the benchmark (needs Pillow and fonts).

``sample_scene(dieset, split, seed)`` decides a scene; ``render_scene(scene, dieset)`` draws it.
"""

from vision.synth.render import DieLabel, FrameLabels, render_scene
from vision.synth.scene import Scene, SceneOptions, sample_scene

__all__ = ["DieLabel", "FrameLabels", "Scene", "SceneOptions", "render_scene", "sample_scene"]
