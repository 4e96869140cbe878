"""What the table's calls tell about the hands: the auction of a record (:mod:`.auction`) and a model of the
calls derived from the solver (:mod:`.model`, its data rebuilt by :mod:`.build`).

This package imports nothing at import time, so :mod:`sheepsolve.record` can use :mod:`.auction` without
pulling in the solver.
"""
