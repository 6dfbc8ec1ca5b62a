"""The workbook's grader: release, self-check, grading, reports, and the check vocabulary test cells use."""
import sys
# jsonschema (under nbformat) builds a lark grammar for its optional IRI format checker when it is imported: 2.2 s in
# every process that reads a notebook (each `autograder` command, each pytest worker), for a format no notebook schema
# uses. Left out, the checker is skipped as if rfc3987-syntax were not installed.
sys.modules.setdefault("rfc3987_syntax", None)
from autograder.notebook.checks import (CheckFailed, CheckSkipped, fail, skip, oracle, answer_source, check, check_close, check_equal, check_same,
  check_range, check_set, check_agreement, check_shape, check_dtype, check_type, check_in, check_raises, kernels_run, kernels_during, kernel_dispatch, check_kernel_count,
  check_no_kernels, forbidden, machine_dependent, has_device, require_device, check_ratio, record_metric, median_time, to_numpy)
