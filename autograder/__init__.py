"""The workbook's grader: release, self-check, grading, reports, and the check vocabulary test cells use."""
from autograder.notebook.checks import (CheckFailed, CheckSkipped, fail, skip, oracle, answer_source, check, check_close, check_equal, check_same,
  check_range, check_set, check_agreement, check_shape, check_dtype, check_type, check_in, check_raises, kernels_run, kernels_during, kernel_dispatch, check_kernel_count,
  check_no_kernels, forbidden, machine_dependent, has_device, require_device, check_ratio, record_metric, median_time, to_numpy)
