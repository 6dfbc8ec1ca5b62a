"""What runs inside the notebook's kernel: the check vocabulary test cells use (`checks`, re-exported by
`from autograder import *`), the encoding and comparison of values (`compare`, shared with the verdict so that a
self-check and grading say the same), and the error locator of self-checks (`locate`). It imports nothing else of
the grader, and neither tinygrad nor torch until a check needs them: a learner's process loads only this."""
