"""Array views of circuits for the learned optimizer (quartz._core.rl)."""
import numpy as np
import numpy.typing as npt

from . import Circuit

def param_array(circuit: Circuit) -> npt.NDArray[np.float64]:
    """params[n,3] float64: constant part (radians) of each gate angle; NaN for unused slots."""
