"""What runs inside a notebook's process (its Jupyter kernel): the check vocabulary test cells use (`checks`,
re-exported by `from autograder import *`), counting the kernels tinygrad runs (`tinygrad_kernels`), the encoding and
comparison of values (`compare`, shared with the verdict so that a self-check and grading say the same), the expected
values a released notebook ships (`shipped`) and the error locator of self-checks (`locate`). It imports nothing else
of the grader, and neither tinygrad nor torch until a check needs them: a learner's process loads only this."""
