"""quartz.rl: a learned rewriting policy (Quarl-style GNN + PPO) on torch-geometric.

torch and torch-geometric are optional: without them `optimize_rl` (and so
`quartz.optimize(method="rl")`) raises a QuartzError saying `pip install 'quartz-superopt[rl]'`.
Submodules: graph (circuit -> PyG Data), model (QGNN actor-critic), agent (acting with the
matcher's mask), env, rollout, ppo, workers, train, checkpoint, optimize (inference; its final
greedy pass is quartz.search's), equivalence.
"""
from quartz.rl._deps import INSTALL_HINT, require_torch
from quartz.rl.optimize import default_model_path, optimize_rl

__all__ = ["optimize_rl", "default_model_path", "require_torch", "INSTALL_HINT"]
